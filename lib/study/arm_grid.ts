/**
 * Per-arm summary of resolved slots: the seeds x tasks grid of cell means
 * (mean over reps), the nested point estimate and the bounds that
 * unresolved slots leave open (docs/study.md, "Estimates and bounds").
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import type { Result } from "../core/issue.ts";
import type { ResolvedSlot } from "./resolve.ts";
import { compareSeeds, compareText, seedKey, type TrainSeed } from "./_keys.ts";

/** One arm as a crossed grid of training seeds x tasks. */
export interface ArmGrid {
  /** Arm name. */
  readonly arm: string;
  /** Training seeds, integers ascending then strings. */
  readonly seeds: readonly TrainSeed[];
  /** Task ids in code-unit order. */
  readonly tasks: readonly string[];
  /** Row-major seeds x tasks mean over reps of each cell; NaN where a slot is unresolved. */
  readonly cellMeans: Float64Array;
  /** H: planned slots. */
  readonly planned: number;
  /** J: resolved slots. */
  readonly observed: number;
  /** S: resolved slots with outcome 1. */
  readonly successes: number;
  /** Whether every planned slot is resolved. */
  readonly complete: boolean;
  /** Mean over seeds of the mean over tasks of the mean over reps; null when incomplete. */
  readonly estimate: number | null;
  /**
   * The nested estimate's range over all outcomes of the unresolved slots:
   * every unresolved slot counted as 0, then as 1, inside the same nested
   * mean. Equals `[S/H, (S+H-J)/H]` when every cell has the same number of reps.
   */
  readonly bounds: readonly [number, number];
}

/**
 * Builds the grid and summary of one arm from its resolved slots.
 *
 * The estimate is `(1/K) sum_k (1/N) sum_i (1/n_ki) sum_r y_kir` and is
 * `null` unless every slot is resolved. The bounds are the same nested mean
 * with every unresolved slot counted as failure (lower) and as success
 * (upper): `(1/K) sum_k (1/N) sum_i S_ki / n_ki` and
 * `(1/K) sum_k (1/N) sum_i (S_ki + n_ki - J_ki) / n_ki` (S_ki successes, J_ki
 * resolved, n_ki planned slots of cell (k, i)); no imputed score and no
 * reduced denominator. With the same n_ki in every cell they are
 * `[S/H, (S+H-J)/H]` (S, J, H summed over the arm), and they always contain
 * the estimate of any completion of the unresolved slots.
 *
 * @param arm Arm name.
 * @param slots The arm's resolved slots (other arms' slots are ignored).
 * @returns The grid, or a `plan_invalid` issue when the arm is not a full
 *   crossing of its training seeds and tasks (some seed lacks some task).
 *
 * @example Two seeds, two tasks, one unresolved slot
 * ```ts
 * import { buildArmGrid } from "./arm_grid.ts";
 * import { deepEqual } from "node:assert/strict";
 * const s = (train_seed: number, task_id: string, rep: number, outcome: 0 | 1 | null) => ({
 *   arm: "M", train_seed, task_id, rep, outcome, decidedBy: null,
 *   status: outcome === null ? "ambiguous" as const : "report" as const,
 * });
 * const r = buildArmGrid("M", [s(1, "a", 0, 1), s(1, "b", 0, 0), s(2, "a", 0, 1), s(2, "b", 0, null)]);
 * deepEqual(r.ok && [r.value.estimate, r.value.bounds], [null, [0.5, 0.75]]);
 * ```
 */
export function buildArmGrid(arm: string, slots: readonly ResolvedSlot[]): Result<ArmGrid> {
  const mine = slots.filter((s) => s.arm === arm);
  const seedByKey = new Map<string, TrainSeed>();
  const taskSet = new Set<string>();
  for (const s of mine) {
    seedByKey.set(seedKey(s.train_seed), s.train_seed);
    taskSet.add(s.task_id);
  }
  const seeds = [...seedByKey.values()].sort(compareSeeds);
  const tasks = [...taskSet].sort(compareText);
  const K = seeds.length, N = tasks.length;
  const seedIndex = new Map(seeds.map((s, k) => [seedKey(s), k]));
  const taskIndex = new Map(tasks.map((t, i) => [t, i]));
  const sums = new Float64Array(K * N);
  const counts = new Uint32Array(K * N);
  const unresolved = new Uint8Array(K * N);
  const resolved = new Uint32Array(K * N);
  let observed = 0, successes = 0;
  for (const s of mine) {
    const c = seedIndex.get(seedKey(s.train_seed))! * N + taskIndex.get(s.task_id)!;
    counts[c]!++;
    if (s.outcome === null) unresolved[c] = 1;
    else {
      observed++;
      resolved[c]!++;
      successes += s.outcome;
      sums[c]! += s.outcome;
    }
  }
  const missing: Issue[] = [];
  for (let c = 0; c < K * N; c++) {
    if (counts[c] === 0 && missing.length < 5) {
      const seed = seeds[Math.floor(c / N)]!, task = tasks[c % N]!;
      missing.push({
        code: "plan_invalid",
        message:
          `Cannot summarise arm ${arm}: training seed ${seed} has no planned slot for task ${task}, ` +
          "so the arm is not a full crossing of seeds and tasks",
        episode: `${arm}/${seed}/${task}`,
      });
    }
  }
  if (missing.length > 0) return { ok: false, issues: missing };

  const cellMeans = new Float64Array(K * N);
  let total = 0, lower = 0, upper = 0;
  for (let c = 0; c < K * N; c++) {
    cellMeans[c] = unresolved[c] ? NaN : sums[c]! / counts[c]!;
    total += cellMeans[c]!;
    lower += sums[c]! / counts[c]!;
    upper += (sums[c]! + counts[c]! - resolved[c]!) / counts[c]!;
  }
  const planned = mine.length;
  const balanced = counts.every((n) => n === counts[0]);
  const complete = observed === planned;
  return {
    ok: true,
    issues: [],
    value: {
      arm,
      seeds,
      tasks,
      cellMeans,
      planned,
      observed,
      successes,
      complete,
      estimate: complete ? total / (K * N) : null,
      // Balanced: the pooled form, the same number in exact arithmetic and exact in floating point.
      bounds: balanced
        ? [successes / planned, (successes + planned - observed) / planned]
        : [lower / (K * N), upper / (K * N)],
    },
  };
}
