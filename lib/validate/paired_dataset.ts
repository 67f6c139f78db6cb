import type {
  Attempt,
  CheckpointInfo,
  DesignColumn,
  GateInfo,
  PairedDataset,
  RunRef,
} from "../core/types.ts";
import type { GatePlan } from "../contract/gate.ts";
import type { PairedRow } from "./episode_checks.ts";
import { EpisodeMap, type ReadonlyEpisodeMap } from "./episode_map.ts";
import { type AttemptLookup, attemptLookup } from "./completed_attempts.ts";
import type { ProgressCallback } from "../core/progress.ts";

/** Rows between two reports of {@linkcode BuildPairedDatasetOptions.onProgress}. */
export const PAIR_PROGRESS_ROWS = 65_536;

/** Options of {@linkcode buildPairedDataset}. */
export interface BuildPairedDatasetOptions {
  /** Progress over the rows paired, every {@linkcode PAIR_PROGRESS_ROWS} rows and at the end. */
  readonly onProgress?: ProgressCallback;
}

/**
 * What {@linkcode buildPairedDataset} needs: the clean bare run and gates
 * of a validation, the pooled columns and the rows. Every row has a mask,
 * and both arms hold a completed attempt with finite rewards for every
 * row (validation guarantees this before it builds).
 */
export interface PairedDatasetInput {
  /** The first gate's bare run: the dataset's `baseline` and its metrics. */
  readonly bare: PairedBare;
  /** Gates in validation order (rows refer to them by index). */
  readonly gates: readonly {
    readonly dir: string;
    /**
     * The gate's own bare run when checkpoints are pooled (each gate's rows
     * are paired with it); absent: `bare`.
     */
    readonly bare?: PairedBare;
    readonly plan: Pick<
      GatePlan,
      "gate_id" | "stage" | "budget_k" | "mask_seed" | "p_present"
    >;
    readonly masked: {
      readonly run_id: string;
      readonly sha256: string;
      /** The masked run's completed attempt per episode key. */
      readonly completed: ReadonlyEpisodeMap<Attempt>;
    };
  }[];
  readonly columns: readonly DesignColumn[];
  /** Rows in gate order, then planned episode order. */
  readonly rows: readonly PairedRow[];
}

/** A clean bare run as the dataset builder reads it. */
export interface PairedBare {
  readonly dir: string;
  readonly sha256: string;
  readonly manifest: {
    readonly run_id: string;
    readonly provenance: {
      readonly checkpoint_id?: string | null;
      readonly reward: { readonly components: readonly string[] };
    };
  };
  /** The completed attempt per episode key. */
  readonly completed: ReadonlyEpisodeMap<Attempt>;
}

/**
 * The paired dataset of a clean validation: the 0/1 design over the
 * pooled columns, masked, bare and delta values per metric (`reward`, then
 * the bare manifest's reward components in order), the gate of each row,
 * and task clusters `(split, task_id)` numbered in first-seen row order.
 * Each gate's rows are paired with that gate's own bare run (`gates[].bare`,
 * else `bare`); when the gates name more than one bare run the dataset lists
 * them as `checkpoints` and each gate its `checkpoint`.
 *
 * @param input The validated runs, gates, columns and rows.
 * @param options Progress over the rows.
 * @returns The dataset.
 *
 * @example
 * ```ts
 * import { buildPairedDataset } from "./paired_dataset.ts";
 * import { EpisodeMap } from "./episode_map.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = { split: "val", task_id: "t", sample_id: 0 };
 * const attempt = (reward: number) => ({ ...e, attempt: 0, status: "completed" as const, reward, rewards: { r_strict: reward }, success: null, injected: [], job_seed: null, steps: null, tokens: null, error: null, provenance: null, line: 1 });
 * const d = buildPairedDataset({
 *   bare: { dir: "b", sha256: "0", manifest: { run_id: "b", provenance: { reward: { components: ["r_strict"] } } }, completed: new EpisodeMap([[e, attempt(0.25)]]) },
 *   gates: [{ dir: "g", plan: { gate_id: "g", stage: "online", budget_k: 1, mask_seed: 1, p_present: 0.5 }, masked: { run_id: "m", sha256: "1", completed: new EpisodeMap([[e, attempt(0.75)]]) } }],
 *   columns: [{ version_id: "v", slot_id: "s", chunk_id: "c", role: "add" }],
 *   rows: [{ gate: 0, episode: e, mask: ["v"] }],
 * });
 * deepEqual([d.metrics, [...d.design], [...d.delta["reward"]!]], [["reward", "r_strict"], [1], [0.5]]);
 * ```
 */
export function buildPairedDataset(
  input: PairedDatasetInput,
  options: BuildPairedDatasetOptions = {},
): PairedDataset {
  const { bare, gates, columns, rows } = input;
  const { onProgress } = options;
  const metrics = ["reward", ...bare.manifest.provenance.reward.components];
  const columnIndex = new Map(columns.map((c, j) => [c.version_id, j]));
  const n = rows.length, k = columns.length;
  const design = new Uint8Array(n * k);
  const masked: Record<string, Float64Array> = {};
  const bareValues: Record<string, Float64Array> = {};
  const delta: Record<string, Float64Array> = {};
  for (const m of metrics) {
    masked[m] = new Float64Array(n);
    bareValues[m] = new Float64Array(n);
    delta[m] = new Float64Array(n);
  }
  const gateIndex = new Uint16Array(n);
  const cluster = new Int32Array(n);
  // Clusters are tasks (split, task_id): an EpisodeMap over a reused key of sample 0.
  const clusterIds = new EpisodeMap<number>();
  const task = { split: "", task_id: "", sample_id: 0 };
  // Per metric: its three columns, and the component read from `rewards` (null for `reward`).
  const columns3 = metrics.map((m) => ({
    component: m === "reward" ? null : m,
    masked: masked[m]!,
    bare: bareValues[m]!,
    delta: delta[m]!,
  }));
  const components = columns3.map((c) => c.component);
  // The attempts' columns, per gate its masked run and its bare run.
  const bareOwn = readerOf(attemptLookup(bare.completed), components);
  const readers = gates.map((g) => ({
    masked: readerOf(attemptLookup(g.masked.completed), components),
    bare: g.bare === undefined ? bareOwn : readerOf(attemptLookup(g.bare.completed), components),
  }));
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    for (const v of row.mask!) design[i * k + columnIndex.get(v)!] = 1;
    const r = readers[row.gate]!;
    const m = r.masked.rows.get(row.episode)!, mp = r.masked.positions(m);
    const b = r.bare.rows.get(row.episode)!, bp = r.bare.positions(b);
    for (let c = 0; c < columns3.length; c++) {
      const col = columns3[c]!;
      const mv = r.masked.value(m, mp[c]!), bv = r.bare.value(b, bp[c]!);
      col.masked[i] = mv;
      col.bare[i] = bv;
      col.delta[i] = mv - bv;
    }
    gateIndex[i] = row.gate;
    task.split = row.episode.split;
    task.task_id = row.episode.task_id;
    cluster[i] = clusterIds.setIfAbsent(task, clusterIds.size) ?? clusterIds.size - 1;
    if (onProgress !== undefined && (i + 1) % PAIR_PROGRESS_ROWS === 0) onProgress(i + 1, n);
  }
  onProgress?.(n, n);
  const runRef = (b: PairedBare): RunRef => ({
    run_id: b.manifest.run_id,
    run_dir: b.dir,
    sha256: b.sha256,
  });
  const baseline = runRef(bare);
  // Checkpoints: the distinct bare runs (by content) in first-seen gate order.
  const checkpointOf = new Map<string, number>();
  const checkpoints: CheckpointInfo[] = [];
  for (const g of gates) {
    const b = g.bare ?? bare;
    if (checkpointOf.has(b.sha256)) continue;
    checkpointOf.set(b.sha256, checkpoints.length);
    checkpoints.push({
      checkpoint_id: b.manifest.provenance.checkpoint_id ?? b.manifest.run_id,
      bare: runRef(b),
    });
  }
  // Two bare runs of one checkpoint id are told apart by their run ids.
  const labels = checkpoints.map((c) => c.checkpoint_id);
  const pooled = checkpoints.length > 1;
  const named = checkpoints.map((c) =>
    labels.indexOf(c.checkpoint_id) === labels.lastIndexOf(c.checkpoint_id)
      ? c
      : { ...c, checkpoint_id: `${c.checkpoint_id} (${c.bare.run_id})` }
  );
  const gateInfos: GateInfo[] = gates.map((g) => ({
    gate_id: g.plan.gate_id,
    gate_dir: g.dir,
    stage: g.plan.stage,
    budget_k: g.plan.budget_k,
    mask_seed: g.plan.mask_seed,
    p_present: g.plan.p_present,
    masked: { run_id: g.masked.run_id, run_dir: g.dir, sha256: g.masked.sha256 },
    ...(pooled ? { checkpoint: checkpointOf.get((g.bare ?? bare).sha256)! } : {}),
  }));
  return {
    baseline,
    ...(pooled ? { checkpoints: named } : {}),
    gates: gateInfos,
    columns,
    metrics,
    n,
    k,
    design,
    masked,
    bare: bareValues,
    delta,
    episodes: rows.map((r) => r.episode),
    gateIndex,
    cluster,
    clusterCount: clusterIds.size,
  };
}

/**
 * Reads a run's metric values from its columns: per attempt the position
 * of each metric's component (-1 for `reward`), found once per component
 * shape.
 */
function readerOf(lookup: AttemptLookup, components: readonly (string | null)[]) {
  const { table } = lookup;
  const { reward, start, values } = table.rewardColumns();
  const byShape = new Map<number, Int32Array>();
  let lastShape = -1, last: Int32Array = new Int32Array(0);
  return {
    rows: lookup.rows,
    positions(i: number): Int32Array {
      const shape = table.shapeOf(i);
      if (shape === lastShape) return last;
      let at = byShape.get(shape);
      if (at === undefined) {
        const names = table.componentNames(i);
        // -2: a component the attempt lacks (read as NaN, as the object's missing key was).
        at = Int32Array.from(components, (c) => {
          if (c === null) return -1;
          const p = names.indexOf(c);
          return p < 0 ? -2 : p;
        });
        byShape.set(shape, at);
      }
      lastShape = shape;
      return last = at;
    },
    /** The metric at `position` of attempt i (validation made every one present and finite). */
    value(i: number, position: number): number {
      if (position >= 0) return values[start[i]! + position]!;
      return position === -1 ? reward[i]! : NaN; // a null reward is stored as 0, as null was
    },
  };
}
