/**
 * The product's own Gate A refit on a simulated gate, in memory: the
 * simulated bare and masked rewards become a {@linkcode PairedDataset} and
 * go through `analyzeDataset` (paired-delta no-intercept OLS, selection
 * rule) exactly as `gate analyze` does after loading the files. Gate B of
 * the demo injects this selection S_0, not the true top-K (the skill Gate B
 * tests is the one the gate selected).
 *
 * @module
 */
import { analyzeDataset } from "../analyze/analyze.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { DesignColumn, GateInfo, PairedDataset, Role } from "../core/types.ts";
import { REWARD_COMPONENTS } from "./params.ts";
import type { SimulatedRun } from "./run.ts";
import type { WebshopRewards } from "./webshop.ts";

const encoder = new TextEncoder();

/** A simulated run as the refit needs it: where it lives, its files and rewards. */
export interface RefitRun {
  readonly runId: string;
  /** Directory relative to data/demo/ (recorded in the dataset's run refs only). */
  readonly runDir: string;
  readonly run: SimulatedRun;
}

/** The gate the refit analyses. */
export interface RefitGate {
  readonly gateId: string;
  readonly gateDir: string;
  readonly stage: "cold_start" | "online";
  readonly budgetK: number;
  readonly maskSeed: number;
  readonly pPresent: number;
  readonly slots: readonly {
    readonly slot_id: string;
    readonly versions: readonly {
      readonly version_id: string;
      readonly chunk_id: string;
      readonly role: Role;
    }[];
  }[];
  /** Per row (task index): slot_id to injected version_id or null. */
  readonly assignments: readonly Readonly<Record<string, string | null>>[];
  /** Task id of each row. */
  readonly taskIds: readonly string[];
  readonly split: string;
  readonly masked: RefitRun;
}

/** What the refit selected and the coefficients it ranked. */
export interface RefitSelection {
  /** Selected version ids in rank order (the S_0 Gate B injects). */
  readonly selected: string[];
  /** Reward coefficient of every version, in column order. */
  readonly coefficients: Record<string, number>;
  readonly budgetK: number;
}

function runRef(r: RefitRun) {
  const bytes = encoder.encode(r.run.manifest + r.run.traces);
  return { run_id: r.runId, run_dir: r.runDir, sha256: sha256Hex(bytes) };
}

function metricOf(r: WebshopRewards, metric: string): number {
  return metric === "reward" ? r.r_strict : r[metric as keyof WebshopRewards];
}

/**
 * Builds the paired dataset of one simulated gate over its simulated bare
 * run: one row per task (the completed attempt of each arm), the 0/1
 * design from the assignments, and masked, bare and delta per metric
 * (`reward` first, then the components in manifest order).
 *
 * @param gate The simulated gate.
 * @param bare The bare run it is paired with (same tasks, same order).
 * @returns The dataset `analyzeDataset` consumes.
 * @throws {RangeError} When the runs do not cover the gate's rows.
 *
 * @example
 * ```ts
 * import { refitDataset } from "./refit.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = (x: number) => ({ r_strict: x, r_success: 0, r_type: 1, r_attr: x, r_option: x, r_price: 0 });
 * const run = (xs: number[]) => ({ manifest: "", traces: "", summary: "", failedEpisodes: [], completed: xs.map(r) });
 * const d = refitDataset({
 *   gateId: "g", gateDir: "g", stage: "cold_start", budgetK: 1, maskSeed: 1, pPresent: 0.5,
 *   slots: [{ slot_id: "a", versions: [{ version_id: "a.v1", chunk_id: "a", role: "add" }] }],
 *   assignments: [{ a: "a.v1" }, { a: null }], taskIds: ["t0", "t1"], split: "val",
 *   masked: { runId: "m", runDir: "g", run: run([0.5, 0.2]) },
 * }, { runId: "b", runDir: "b", run: run([0.3, 0.2]) });
 * deepEqual([...d.design], [1, 0]);
 * deepEqual(d.delta.reward!.map((v) => Math.round(v * 1e4) / 1e4), Float64Array.from([0.2, 0]));
 * ```
 */
export function refitDataset(gate: RefitGate, bare: RefitRun): PairedDataset {
  const n = gate.taskIds.length;
  if (
    gate.assignments.length !== n || gate.masked.run.completed.length !== n ||
    bare.run.completed.length !== n
  ) {
    throw new RangeError(
      `Cannot build the refit dataset of ${gate.gateId}: runs and assignments do not cover its ${n} rows`,
    );
  }
  const columns: DesignColumn[] = gate.slots.flatMap((s) =>
    s.versions.map((v) => ({
      version_id: v.version_id,
      slot_id: s.slot_id,
      chunk_id: v.chunk_id,
      role: v.role,
    }))
  );
  const k = columns.length;
  const design = new Uint8Array(n * k);
  gate.assignments.forEach((a, i) => {
    columns.forEach((c, j) => (design[i * k + j] = a[c.slot_id] === c.version_id ? 1 : 0));
  });
  const metrics = ["reward", ...REWARD_COMPONENTS];
  const masked: Record<string, Float64Array> = {};
  const bareValues: Record<string, Float64Array> = {};
  const delta: Record<string, Float64Array> = {};
  for (const m of metrics) {
    masked[m] = Float64Array.from(gate.masked.run.completed, (r) => metricOf(r, m));
    bareValues[m] = Float64Array.from(bare.run.completed, (r) => metricOf(r, m));
    delta[m] = masked[m].map((v, i) => v - bareValues[m]![i]!);
  }
  const info: GateInfo = {
    gate_id: gate.gateId,
    gate_dir: gate.gateDir,
    stage: gate.stage,
    budget_k: gate.budgetK,
    mask_seed: gate.maskSeed,
    p_present: gate.pPresent,
    masked: runRef(gate.masked),
  };
  return {
    baseline: runRef(bare),
    gates: [info],
    columns,
    metrics,
    n,
    k,
    design,
    masked,
    bare: bareValues,
    delta,
    episodes: gate.taskIds.map((task_id) => ({ split: gate.split, task_id, sample_id: 0 })),
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from({ length: n }, (_, i) => i),
    clusterCount: n,
  };
}

/**
 * Gate A's refit selection S_0: `analyzeDataset` on the in-memory dataset
 * (reward, the gate's budget_k), as `gate analyze` computes it from the
 * written files.
 *
 * @param gate The simulated gate.
 * @param bare Its bare run.
 * @returns Selected ids in rank order and the reward coefficients.
 */
export function refitSelection(gate: RefitGate, bare: RefitRun): RefitSelection {
  const dataset = refitDataset(gate, bare);
  const { selection, contributions } = analyzeDataset(dataset, { command: "deno task gen-demo" });
  const coefficients: Record<string, number> = {};
  for (const c of dataset.columns) {
    coefficients[c.version_id] = contributions.metrics.reward!.coefficients[c.version_id]!.estimate;
  }
  return { selected: [...selection.selected], coefficients, budgetK: selection.budget_k };
}
