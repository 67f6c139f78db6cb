/**
 * The paired-delta OLS from a sums table alone: the coefficients solve the
 * summed X'X beta = X'y, the residual sum of squares is y'y - beta'X'y, and
 * the task-clustered CR1 covariance has the scores s_g = X_g'y_g - X_g'X_g
 * beta of each task (the sum over its rows of x_i e_i), with the small-sample
 * factor G/(G-1) x (N-1)/(N-K), as the row analysis computes it.
 *
 * @module
 */
import {
  choleskyInverseDense,
  choleskyPacked,
  choleskySolvePacked,
  packedIndex,
  packedSize,
} from "../math/packed.ts";
import { normalTwoSidedP } from "../math/normal.ts";
import { UNIT_ROUNDOFF } from "../fit/tolerance.ts";
import type { SumsTable } from "./sums_read.ts";

/** One metric's fit from sums. */
export interface SumsMetricFit {
  readonly n: number;
  readonly k: number;
  readonly df_resid: number;
  readonly ssr: number;
  readonly resid_se: number;
  readonly r2_uncentered: number;
  readonly delta_mean: number;
  /** Coefficients in design order. */
  readonly estimate: Float64Array;
  /** CR1 standard errors (NaN when G < 2 or N <= K). */
  readonly se_cluster: Float64Array;
  /** The tie tolerance of the solve (lib/fit `coefficientTolerance`'s bound, from sums). */
  readonly tolerance: number;
}

/** Why the summed design cannot be solved: the first version it cannot identify. */
export interface SumsNotIdentifiable {
  readonly kind: "singular";
  readonly version: string;
  readonly never_present: boolean;
}

/**
 * Fits every metric of a sums table.
 *
 * @param table A checked sums table.
 * @returns The fit of each metric, or the version that makes X'X singular.
 *
 * @example Two one-row tasks and a task of two rows, one column
 * ```ts
 * import { fitSums } from "./sums_fit.ts";
 * import { equal } from "node:assert/strict";
 * const table = { file: "s.parquet", sha256: "", layout: { versions: ["a"], metrics: ["reward"] },
 *   tasks: 3, split: ["val", "val", "val"], taskId: ["t0", "t1", "t2"],
 *   rows: Float64Array.from([1, 1, 2]), firstRow: Float64Array.from([0, 1, 2]),
 *   xtx: [Float64Array.from([1, 1, 2])], xty: [Float64Array.from([1, 2, 6])],
 *   yty: [Float64Array.from([1, 4, 18])], ySum: [Float64Array.from([1, 2, 6])] };
 * const fit = fitSums(table);
 * if (fit.kind !== "fit") throw new Error("not identifiable");
 * equal(fit.metrics.reward!.estimate[0], 9 / 4); // (1 + 2 + 6) / (1 + 1 + 2)
 * ```
 */
export function fitSums(
  table: SumsTable,
): { readonly kind: "fit"; readonly metrics: Record<string, SumsMetricFit> } | SumsNotIdentifiable {
  const { versions, metrics } = table.layout;
  const k = versions.length, m = metrics.length, g = table.tasks, p = packedSize(k);
  const xtx = new Float64Array(p), xty = new Float64Array(m * k);
  const yty = new Float64Array(m), ySum = new Float64Array(m);
  let n = 0;
  for (let t = 0; t < g; t++) n += table.rows[t]!;
  // Each entry summed over the tasks in first_row order.
  const total = (column: Float64Array) => {
    let s = 0;
    for (let t = 0; t < g; t++) s += column[t]!;
    return s;
  };
  for (let q = 0; q < p; q++) xtx[q] = total(table.xtx[q]!);
  for (let mm = 0; mm < m; mm++) {
    yty[mm] = total(table.yty[mm]!);
    ySum[mm] = total(table.ySum[mm]!);
    for (let j = 0; j < k; j++) xty[mm * k + j] = total(table.xty[mm * k + j]!);
  }
  let trace = 0;
  for (let j = 0; j < k; j++) trace += xtx[packedIndex(k, j, j)]!;
  const u = xtx.slice(), absent = new Uint8Array(k);
  const ok = choleskyPacked(u, k, absent);
  const first = absent.indexOf(1);
  if (!ok || first >= 0) {
    const j = first >= 0 ? first : 0;
    return {
      kind: "singular",
      version: versions[j]!,
      never_present: xtx[packedIndex(k, j, j)] === 0,
    };
  }
  const inverse = choleskyInverseDense(u, k, absent);
  let inverseTrace = 0;
  for (let j = 0; j < k; j++) inverseTrace += inverse[j * k + j]!;
  const betas = xty.slice();
  for (let mm = 0; mm < m; mm++) choleskySolvePacked(u, k, absent, betas, mm * k);
  const se = clusterSe(table, betas, inverse, n);
  const out: Record<string, SumsMetricFit> = {};
  metrics.forEach((metric, mm) => {
    const beta = betas.slice(mm * k, (mm + 1) * k);
    let fitted = 0;
    for (let j = 0; j < k; j++) fitted += beta[j]! * xty[mm * k + j]!;
    // y'y - beta'X'y; rounding can take an exact fit a little below 0.
    const ssr = Math.max(0, yty[mm]! - fitted);
    const df = n - k;
    out[metric] = {
      n,
      k,
      df_resid: df,
      ssr,
      resid_se: df > 0 ? Math.sqrt(ssr / df) : NaN,
      r2_uncentered: yty[mm]! > 0 ? 1 - ssr / yty[mm]! : NaN,
      delta_mean: ySum[mm]! / n,
      estimate: beta,
      se_cluster: se.slice(mm * k, (mm + 1) * k),
      tolerance: tieTolerance(n, k, beta, ssr, trace, inverseTrace),
    };
  });
  return { kind: "fit", metrics: out };
}

/**
 * CR1 standard errors of every metric from each task's scores
 * X_g'y_g - X_g'X_g beta: one pass over the tasks, each task's X'X
 * unpacked once for all metrics; `se[mm * k + j]`.
 */
function clusterSe(
  table: SumsTable,
  betas: Float64Array,
  inverse: Float64Array,
  n: number,
): Float64Array {
  const k = table.layout.versions.length, m = table.layout.metrics.length, g = table.tasks;
  const se = new Float64Array(m * k);
  if (g < 2 || n <= k) return se.fill(NaN);
  // Column of the packed entry (i, j) in the full matrix's order.
  const entry = Array.from({ length: k * k }, (_, q) => {
    const i = Math.floor(q / k), j = q % k;
    return table.xtx[i <= j ? packedIndex(k, i, j) : packedIndex(k, j, i)]!;
  });
  const xty = table.xty;
  const a = new Float64Array(k * k), s = new Float64Array(k), meat = new Float64Array(m * k * k);
  for (let t = 0; t < g; t++) {
    for (let q = 0; q < k * k; q++) a[q] = entry[q]![t]!;
    for (let mm = 0; mm < m; mm++) {
      const beta = mm * k, out = mm * k * k;
      for (let i = 0; i < k; i++) {
        let v = xty[beta + i]![t]!;
        for (let j = 0; j < k; j++) v -= a[i * k + j]! * betas[beta + j]!;
        s[i] = v;
      }
      for (let i = 0; i < k; i++) {
        const si = s[i]!;
        if (si === 0) continue;
        for (let j = 0; j < k; j++) meat[out + i * k + j] = meat[out + i * k + j]! + si * s[j]!;
      }
    }
  }
  const c = (g / (g - 1)) * ((n - 1) / (n - k));
  for (let mm = 0; mm < m; mm++) {
    for (let j = 0; j < k; j++) {
      // (A^-1 meat A^-1)_jj = sum_ab A^-1_ja meat_ab A^-1_bj
      let v = 0;
      for (let x = 0; x < k; x++) {
        let row = 0;
        for (let y = 0; y < k; y++) row += meat[mm * k * k + x * k + y]! * inverse[y * k + j]!;
        v += inverse[j * k + x]! * row;
      }
      se[mm * k + j] = Math.sqrt(c * v);
    }
  }
  return se;
}

/**
 * lib/fit `coefficientTolerance` from sums: `n k u kappa (max_j |b_j| +
 * kappa ||e|| / ||X||_F)` with ||X||_F^2 = trace(X'X) (a 0/1 design),
 * kappa = ||X||_F sqrt(trace((X'X)^-1)) and ||e||^2 the residual sum of squares.
 */
function tieTolerance(
  n: number,
  k: number,
  beta: Float64Array,
  ssr: number,
  trace: number,
  inverseTrace: number,
): number {
  const xNorm = Math.sqrt(trace);
  const kappa = xNorm * Math.sqrt(inverseTrace);
  let bMax = 0;
  for (const b of beta) bMax = Math.max(bMax, Math.abs(b));
  return n * k * UNIT_ROUNDOFF * kappa *
    (bMax + (xNorm > 0 ? (kappa * Math.sqrt(ssr)) / xNorm : 0));
}

/** The CR1 z statistic and its two-sided normal p (null where undefined). */
export function clusterTest(estimate: number, se: number): { t: number | null; p: number | null } {
  if (!(se > 0)) return { t: null, p: null };
  const t = estimate / se;
  return { t, p: normalTwoSidedP(t) };
}
