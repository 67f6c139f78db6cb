/**
 * Each checkpoint's coefficients beside the pooled ones, and Wald tests of
 * equal effects across checkpoints, for a dataset of pooled checkpoints
 * (`gate analyze --pool-checkpoints`; docs/analysis.md).
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import { GatelabError } from "../core/issue.ts";
import { factorDesign } from "../fit/factor.ts";
import { fitOls } from "../fit/ols.ts";
import { clusterCovariance } from "../fit/covariance.ts";
import { solveSpd } from "../math/packed.ts";
import { chiSquareSurvival } from "../math/distributions.ts";

/** A Wald chi-square test: W = (Rb)'(R V R')^-1 (Rb) on `df` restrictions. */
export interface WaldTest {
  readonly statistic: number;
  readonly df: number;
  readonly p: number;
}

/** One version across checkpoints (`checkpoints.metrics.<m>.coefficients.<v>`). */
export interface CheckpointCoefficient {
  /** Per checkpoint (in `checkpoints` order): the estimate; null where the version is absent. */
  readonly estimate: readonly (number | null)[];
  /** Per checkpoint: its CR1 standard error (clustered by task); null where absent or undefined. */
  readonly se_cluster: readonly (number | null)[];
  /** Equal effect in every checkpoint holding it (df = their number - 1); null with fewer than two or an undefined variance. */
  readonly wald: WaldTest | null;
}

/** The per-checkpoint block of contributions.json (`checkpoints`). */
export interface CheckpointEffects {
  readonly method: string;
  readonly checkpoints: readonly {
    readonly checkpoint_id: string;
    readonly bare: { readonly run_id: string; readonly run_dir: string; readonly sha256: string };
    readonly gate_ids: readonly string[];
    readonly n: number;
  }[];
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<Record<string, CheckpointCoefficient>>;
      /** All versions at once: every restriction of the per-version tests. */
      readonly joint: WaldTest | null;
      /** Why the comparison could not be made (the interacted design is rank deficient); absent when it was. */
      readonly unavailable?: string;
    }>
  >;
}

/** How the block is computed, as contributions.json records it. */
export const CHECKPOINT_EFFECTS_METHOD =
  "interacted no-intercept OLS: one 0/1 column per (version, checkpoint) present in that " +
  "checkpoint's rows (each checkpoint's estimates equal a fit on its own rows); CR1 covariance " +
  "clustered by task (split, task_id) over all rows, G/(G-1) x (N-1)/(N-K) with K the " +
  "interacted columns; per version a Wald chi-square of equal effects across the checkpoints " +
  "holding it (df = their number - 1), and one joint Wald chi-square of all those restrictions " +
  "(statsmodels wald_test(use_f=False) on the same design)";

/**
 * Each checkpoint's coefficients and the Wald tests of equal effects, per
 * metric; null when the dataset does not pool checkpoints.
 *
 * @param dataset A validated dataset (with `checkpoints` when pooled).
 * @returns The block, or null.
 *
 * @example One version, two checkpoints of two rows each (tasks t0, t1 in both)
 * ```ts
 * import { checkpointEffects } from "./checkpoint_effects.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = (id: string) => ({ run_id: id, run_dir: id, sha256: id });
 * const g = (id: string, checkpoint: number) => ({ gate_id: id, gate_dir: id, stage: "online" as const, budget_k: 1, mask_seed: 1, p_present: 0.5, masked: run(id), checkpoint });
 * const e = checkpointEffects({
 *   baseline: run("a"), checkpoints: [{ checkpoint_id: "A", bare: run("a") }, { checkpoint_id: "B", bare: run("b") }],
 *   gates: [g("ga", 0), g("gb", 1)], columns: [{ version_id: "v", slot_id: "v", chunk_id: "v", role: "add" }],
 *   metrics: ["reward"], n: 6, k: 1, design: Uint8Array.of(1, 1, 0, 1, 1, 0),
 *   masked: {}, bare: {}, delta: { reward: Float64Array.of(0.2, 0.4, 0, 0.7, 0.5, 0) },
 *   episodes: [], gateIndex: Uint16Array.of(0, 0, 0, 1, 1, 1), cluster: Int32Array.of(0, 1, 2, 0, 1, 2), clusterCount: 3,
 * })!;
 * deepEqual(e.metrics.reward!.coefficients.v!.estimate.map((x) => x!.toFixed(2)), ["0.30", "0.60"]);
 * deepEqual(e.metrics.reward!.coefficients.v!.wald!.df, 1);
 * ```
 */
export function checkpointEffects(dataset: PairedDataset): CheckpointEffects | null {
  const checkpoints = dataset.checkpoints;
  if (checkpoints === undefined || checkpoints.length < 2) return null;
  const { n, k, design, gateIndex, gates } = dataset;
  const c = checkpoints.length;
  const rowCheckpoint = new Int32Array(n);
  const rows = new Array<number>(c).fill(0);
  for (let i = 0; i < n; i++) {
    const ck = gates[gateIndex[i]!]!.checkpoint ?? 0;
    rowCheckpoint[i] = ck;
    rows[ck]!++;
  }
  // The interacted columns: (version j, checkpoint ck) where j is present in ck's rows.
  const column = new Int32Array(k * c).fill(-1);
  const present = new Uint8Array(k * c);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) if (design[i * k + j]) present[rowCheckpoint[i]! * k + j] = 1;
  }
  let q = 0;
  for (let ck = 0; ck < c; ck++) {
    for (let j = 0; j < k; j++) if (present[ck * k + j]) column[ck * k + j] = q++;
  }
  const x = new Uint8Array(n * q);
  for (let i = 0; i < n; i++) {
    const ck = rowCheckpoint[i]!;
    for (let j = 0; j < k; j++) if (design[i * k + j]) x[i * q + column[ck * k + j]!] = 1;
  }
  const header = {
    method: CHECKPOINT_EFFECTS_METHOD,
    checkpoints: checkpoints.map((cp, ck) => ({
      checkpoint_id: cp.checkpoint_id,
      bare: cp.bare,
      gate_ids: gates.filter((g) => g.checkpoint === ck).map((g) => g.gate_id),
      n: rows[ck]!,
    })),
  };
  let factor;
  try {
    factor = factorDesign(x, [n, q]);
  } catch (error) {
    if (!(error instanceof GatelabError)) throw error;
    const unavailable =
      `the design with one column per (version, checkpoint) is rank deficient: ${error.message}`;
    const metrics = Object.fromEntries(
      dataset.metrics.map((m) => [m, { coefficients: {}, joint: null, unavailable }]),
    );
    return { ...header, metrics };
  }
  const metrics: Record<string, CheckpointEffects["metrics"][string]> = {};
  for (const m of dataset.metrics) {
    const fit = fitOls(factor, dataset.delta[m]!, {
      cluster: dataset.cluster,
      clusterCount: dataset.clusterCount,
    });
    const cov = clusterCovariance(factor, fit.residuals, dataset.cluster, dataset.clusterCount);
    const b = fit.coefficients;
    const coefficients: Record<string, CheckpointCoefficient> = {};
    const all: [number, number][] = [];
    dataset.columns.forEach((col, j) => {
      const at = Array.from({ length: c }, (_, ck) => column[ck * k + j]!);
      const held = at.filter((a) => a >= 0);
      const pairs = held.slice(1).map((a): [number, number] => [a, held[0]!]);
      all.push(...pairs);
      coefficients[col.version_id] = {
        estimate: at.map((a) => (a < 0 ? null : b[a]!)),
        se_cluster: at.map((a) => {
          const v = a < 0 ? NaN : cov[a * q + a]!;
          return v >= 0 ? Math.sqrt(v) : null;
        }),
        wald: wald(b, cov, q, pairs),
      };
    });
    metrics[m] = { coefficients, joint: wald(b, cov, q, all) };
  }
  return { ...header, metrics };
}

/**
 * The Wald chi-square of the restrictions b[a] - b[r] = 0 for each pair
 * `[a, r]`, with covariance `cov` (q x q); null without a restriction, or
 * when R V R' is not positive definite (a variance not estimable).
 */
function wald(
  b: Float64Array,
  cov: Float64Array,
  q: number,
  pairs: readonly (readonly [number, number])[],
): WaldTest | null {
  const r = pairs.length;
  if (r === 0) return null;
  const diff = Float64Array.from(pairs, ([a, ref]) => b[a]! - b[ref]!);
  const v = new Float64Array(r * r);
  const at = (i: number, j: number) => cov[i * q + j]!;
  for (let s = 0; s < r; s++) {
    const [a, ra] = pairs[s]!;
    for (let t = 0; t < r; t++) {
      const [c, rc] = pairs[t]!;
      v[s * r + t] = at(a, c) - at(a, rc) - at(ra, c) + at(ra, rc);
    }
  }
  if (!v.every(Number.isFinite)) return null;
  const solved = solveSpd(v, diff, r);
  if (solved === null) return null;
  let statistic = 0;
  for (let s = 0; s < r; s++) statistic += diff[s]! * solved[s]!;
  return { statistic, df: r, p: chiSquareSurvival(statistic, r) };
}
