/**
 * A loaded run as one Arrow IPC file: the attempts as typed columns, the
 * manifest and identity in the schema metadata. Round-trips
 * {@linkcode LoadedRun} exactly (values read back equal those parsed).
 *
 * @module
 */
import {
  Bool,
  type DataType,
  Float64,
  Int32,
  Schema,
  Table,
  tableFromIPC,
  tableToIPC,
  Utf8,
  type Vector,
  vectorFromArray,
} from "apache-arrow";
import type { Attempt } from "../core/types.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { RunManifest } from "../contract/manifest.ts";

/** Schema metadata key holding the run's identity and manifest (JSON). */
const META_KEY = "gatelab.run";
/** Prefix of the per-component reward columns. */
const REWARD_PREFIX = "rewards.";

/** Identity stored with the table and checked on read. */
export interface RunTableMeta {
  readonly format: "gatelab.run-table/v1";
  readonly key: string;
  readonly loader_version: string;
  readonly sha256: string;
  readonly rows: number;
  readonly reward_components: readonly string[];
  readonly manifest: RunManifest;
}

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * Encodes a loaded run as Arrow IPC (file format) bytes.
 *
 * @param run The run as read by `readRun`.
 * @param identity Cache key and loader version recorded in the metadata.
 * @returns The IPC bytes.
 *
 * @example
 * ```ts
 * import { decodeRunTable, encodeRunTable } from "./run_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { dir: "r", sha256: "00", manifest: { format: "gatelab.run/v1" } as never, attempts: [] };
 * const bytes = encodeRunTable(run, { key: "k", loaderVersion: "v" });
 * deepEqual(decodeRunTable(bytes, "r")?.meta.key, "k");
 * ```
 */
export function encodeRunTable(
  run: LoadedRun,
  identity: { readonly key: string; readonly loaderVersion: string },
): Uint8Array {
  const a = run.attempts;
  const components: string[] = [];
  const seen = new Set<string>();
  for (const attempt of a) {
    for (const name of Object.keys(attempt.rewards)) {
      if (!seen.has(name)) seen.add(name), components.push(name);
    }
  }
  const columns: Record<string, Vector<DataType>> = {
    split: vectorFromArray(a.map((x) => x.split), new Utf8()),
    task_id: vectorFromArray(a.map((x) => x.task_id), new Utf8()),
    sample_id: vectorFromArray(a.map((x) => x.sample_id), new Float64()),
    attempt: vectorFromArray(a.map((x) => x.attempt), new Float64()),
    status: vectorFromArray(a.map((x) => x.status), new Utf8()),
    reward: vectorFromArray(a.map((x) => x.reward), new Float64()),
    success: vectorFromArray(a.map((x) => x.success), new Bool()),
    injected: vectorFromArray(a.map((x) => JSON.stringify(x.injected)), new Utf8()),
    job_seed: vectorFromArray(a.map((x) => x.job_seed), new Float64()),
    steps: vectorFromArray(a.map((x) => x.steps), new Float64()),
    tokens: vectorFromArray(a.map((x) => jsonOrNull(x.tokens)), new Utf8()),
    error: vectorFromArray(a.map((x) => x.error), new Utf8()),
    provenance: vectorFromArray(a.map((x) => jsonOrNull(x.provenance)), new Utf8()),
    line: vectorFromArray(a.map((x) => x.line), new Int32()),
  };
  for (const name of components) {
    columns[REWARD_PREFIX + name] = vectorFromArray(
      a.map((x) => x.rewards[name] ?? null),
      new Float64(),
    );
  }
  const meta: RunTableMeta = {
    format: "gatelab.run-table/v1",
    key: identity.key,
    loader_version: identity.loaderVersion,
    sha256: run.sha256,
    rows: a.length,
    reward_components: components,
    manifest: run.manifest,
  };
  const table = new Table(columns);
  const withMeta = new Table(
    new Schema(table.schema.fields, new Map([[META_KEY, JSON.stringify(meta)]])),
    table.batches,
  );
  return tableToIPC(withMeta, "file");
}

/**
 * Decodes bytes written by {@linkcode encodeRunTable}. Returns `null` for
 * anything else (truncated, corrupt, foreign or inconsistent bytes), so a
 * cache can treat it as a miss.
 *
 * @param bytes Arrow IPC file bytes.
 * @param dir Directory recorded as the run's `dir`.
 * @returns The run and the stored identity, or null.
 *
 * @example
 * ```ts
 * import { decodeRunTable } from "./run_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(decodeRunTable(new Uint8Array([1, 2, 3]), "r"), null);
 * ```
 */
export function decodeRunTable(
  bytes: Uint8Array,
  dir: string,
): { run: LoadedRun; meta: RunTableMeta } | null {
  try {
    const table = tableFromIPC(bytes);
    const metaText = table.schema.metadata.get(META_KEY);
    if (metaText === undefined) return null;
    const meta = JSON.parse(metaText) as RunTableMeta;
    if (meta.format !== "gatelab.run-table/v1" || meta.rows !== table.numRows) return null;
    const col = (name: string): unknown[] => {
      const child = table.getChild(name);
      if (!child) throw new Error(`missing column ${name}`);
      return [...child] as unknown[];
    };
    const split = col("split") as string[], task = col("task_id") as string[];
    const sample = col("sample_id") as number[], attemptNo = col("attempt") as number[];
    const status = col("status") as Attempt["status"][],
      reward = col("reward") as (number | null)[];
    const success = col("success") as (boolean | null)[], injected = col("injected") as string[];
    const jobSeed = col("job_seed") as (number | null)[], steps = col("steps") as (number | null)[];
    const tokens = col("tokens") as (string | null)[], error = col("error") as (string | null)[];
    const provenance = col("provenance") as (string | null)[], line = col("line") as number[];
    const rewardColumns = meta.reward_components.map((name) =>
      [name, col(REWARD_PREFIX + name)] as const
    );
    const attempts: Attempt[] = [];
    for (let i = 0; i < table.numRows; i++) {
      const rewards: Record<string, number> = {};
      for (const [name, values] of rewardColumns) {
        const v = values[i];
        if (typeof v === "number") rewards[name] = v;
      }
      attempts.push({
        split: split[i]!,
        task_id: task[i]!,
        sample_id: sample[i]!,
        attempt: attemptNo[i]!,
        status: status[i]!,
        reward: reward[i] ?? null,
        rewards,
        success: success[i] ?? null,
        injected: JSON.parse(injected[i]!),
        job_seed: jobSeed[i] ?? null,
        steps: steps[i] ?? null,
        tokens: tokens[i] == null ? null : JSON.parse(tokens[i]!),
        error: error[i] ?? null,
        provenance: provenance[i] == null ? null : JSON.parse(provenance[i]!),
        line: line[i]!,
      });
    }
    return { run: { dir, manifest: meta.manifest, sha256: meta.sha256, attempts }, meta };
  } catch {
    return null;
  }
}
