/**
 * Sandwich covariance estimators for a no-intercept OLS fit: HC0-HC3
 * (heteroskedasticity-consistent) and CR1 (cluster-robust), as statsmodels
 * computes them.
 *
 * @module
 */

import { addOuterSums, OUTER_SUMS_FROM } from "./_outer_sums.ts";
import type { CovType } from "../core/conventions.ts";

/**
 * What a sandwich estimator needs from a fit: leverages h_i and influence
 * vectors u_i = (X'X)^{-1} x_i of every row. A {@linkcode DesignFactorization}
 * has them; so has a product-column fit built from it by rank-one update
 * (lib/fit/augment.ts).
 */
export interface SandwichParts {
  readonly n: number;
  readonly k: number;
  /** Leverage h_i of every row. */
  readonly leverage: ArrayLike<number>;
  /** u_i = (X'X)^{-1} x_i, row-major n x k. */
  readonly influence: ArrayLike<number>;
}

/**
 * Leverages and the trailing influence columns `tailFrom..k-1` of a fit whose
 * whole influence vectors are not stored (a fit extended by product columns,
 * lib/fit/augment.ts): the block covariances read the tail, and a row's
 * whole vector only for the leverage-1 guard.
 */
export interface TailSandwichParts {
  readonly n: number;
  readonly k: number;
  /** Leverage h_i of every row. */
  readonly leverage: ArrayLike<number>;
  /** First column of `tail`. */
  readonly tailFrom: number;
  /** Columns tailFrom..k-1 of the influence vectors, row-major n x (k - tailFrom). */
  readonly tail: ArrayLike<number>;
  /** The whole influence vector u_i of row i (k values). */
  influenceRow(i: number): ArrayLike<number>;
}

/** Where columns from..k-1 of the influence vectors sit: row i, column from + a at i * stride + offset + a. */
function blockOf(
  f: SandwichParts | TailSandwichParts,
  from: number,
): { values: ArrayLike<number>; stride: number; offset: number } {
  if (!("tail" in f)) return { values: f.influence, stride: f.k, offset: from };
  if (from < f.tailFrom) {
    throw new RangeError(
      `Cannot take the block from column ${from}: only ${f.tailFrom}.. is stored`,
    );
  }
  return { values: f.tail, stride: f.k - f.tailFrom, offset: from - f.tailFrom };
}

/** Heteroskedasticity-consistent covariance types (the table: lib/core/conventions.ts). */
export { COV_TYPES, type CovType } from "../core/conventions.ts";

/** Rows whose leverage is within this of 1 make HC2/HC3 undefined (0/0). */
export const LEVERAGE_ONE_TOLERANCE = 1e-10;

/** A covariance matrix and where it is undefined. */
export interface RobustCovariance {
  /** Row-major k x k; entries of undefined coefficients are NaN. */
  readonly covariance: Float64Array;
  /** 1 where the coefficient's variance is undefined (leverage-1 row, or too few df). */
  readonly undefinedColumns: Uint8Array;
  /** Zero-based rows with leverage 1 that made HC2/HC3 undefined. */
  readonly leverageOneRows: readonly number[];
}

/**
 * Heteroskedasticity-consistent sandwich covariance
 * (X'X)^{-1} [sum_i w_i e_i^2 x_i x_i'] (X'X)^{-1}, with
 * HC0: w = 1; HC1: n/(n-k) times HC0; HC2: w = 1/(1-h_i); HC3:
 * w = 1/(1-h_i)^2 (MacKinnon and White 1985; statsmodels `cov_type="HC*"`).
 *
 * A row with leverage 1 has a zero residual and makes HC2/HC3 0/0: the
 * coefficients that row determines (nonzero entries of (X'X)^{-1}x_i) get
 * NaN and are flagged in `undefinedColumns`; the row is listed in
 * `leverageOneRows`. HC1 with n = k is undefined for every coefficient.
 *
 * @param f The design factorisation.
 * @param residuals e = y - X b, length n.
 * @param covType Which estimator.
 * @returns The covariance and what is undefined.
 *
 * @example HC0 of a one-column design is sum(e^2) / n^2 for an all-ones column
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { robustCovariance } from "./covariance.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 1, 1, 1]), [4, 1]);
 * const c = robustCovariance(f, Float64Array.from([1, -1, 2, -2]), "hc0");
 * ok(Math.abs(c.covariance[0]! - 10 / 16) < 1e-15);
 * ```
 */
export function robustCovariance(
  f: SandwichParts,
  residuals: ArrayLike<number>,
  covType: CovType,
): RobustCovariance {
  return robustCovarianceBlock(f, residuals, covType, 0);
}

/**
 * The trailing block of {@linkcode robustCovariance}: the covariance of
 * coefficients `from..k-1` only (row-major (k-from) x (k-from)), with the
 * same leverage-1 guard, in O(n (k + (k-from)^2)) instead of O(n k^2). The
 * interaction screen uses it for the product columns of a fit extended by
 * rank-one updates.
 *
 * @param f Leverages and influence vectors of the (extended) fit, or only their trailing columns.
 * @param residuals e = y - X b of that fit, length n.
 * @param covType Which estimator.
 * @param from First column of the block.
 * @returns The block, its undefined columns (indexed within the block) and the leverage-1 rows.
 *
 * @example The last coefficient's block equals that entry of the full matrix
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { robustCovariance, robustCovarianceBlock } from "./covariance.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0, 0, 1]), [5, 2]);
 * const e = Float64Array.from([0.1, -0.2, 0.3, -0.1, 0.05]);
 * const full = robustCovariance(f, e, "hc3").covariance;
 * ok(robustCovarianceBlock(f, e, "hc3", 1).covariance[0] === full[3]);
 * ```
 */
export function robustCovarianceBlock(
  f: SandwichParts | TailSandwichParts,
  residuals: ArrayLike<number>,
  covType: CovType,
  from: number,
): RobustCovariance {
  const { n, k, leverage } = f;
  const q = k - from;
  const { values, stride, offset } = blockOf(f, from);
  const cov = new Float64Array(q * q);
  const undefinedColumns = new Uint8Array(q);
  const leverageOneRows: number[] = [];
  const weighted = covType === "hc2" || covType === "hc3";
  // Each row's weight (0 for a row at leverage 1, which adds nothing), then the sums.
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = residuals[i]!;
    const oneMinusH = 1 - leverage[i]!;
    if (weighted && oneMinusH < LEVERAGE_ONE_TOLERANCE) {
      // The row's residual is 0/0: every coefficient the row determines (a nonzero entry of
      // u_i, relative to the row's largest) is undefined.
      leverageOneRows.push(i);
      const [whole, at] = "tail" in f ? [f.influenceRow(i), 0] : [f.influence, i * k];
      let scale = 0;
      for (let j = 0; j < k; j++) scale = Math.max(scale, Math.abs(whole[at + j]!));
      for (let j = from; j < k; j++) {
        if (Math.abs(whole[at + j]!) > 1e-10 * scale) undefinedColumns[j - from] = 1;
      }
      continue;
    }
    let w = e * e;
    if (covType === "hc2") w /= oneMinusH;
    else if (covType === "hc3") w /= oneMinusH * oneMinusH;
    weights[i] = w;
  }
  const simd = q >= OUTER_SUMS_FROM &&
    addOuterSums(values, weights, { rows: n, q, stride, offset }, cov);
  if (!simd) weightedOuterSums(values, weights, stride, offset, n, q, cov);
  const scale = covType === "hc1" ? (n - k > 0 ? n / (n - k) : NaN) : 1;
  if (Number.isNaN(scale)) undefinedColumns.fill(1);
  finish(cov, q, scale, undefinedColumns);
  return { covariance: cov, undefinedColumns, leverageOneRows };
}

/**
 * Cluster-robust covariance CR1:
 * c (X'X)^{-1} [sum_g s_g s_g'] (X'X)^{-1} with s_g = sum_{i in g} x_i e_i and
 * c = G/(G-1) x (N-1)/(N-K), exactly statsmodels'
 * `fit(cov_type="cluster", cov_kwds={"groups": g})` with its default
 * `use_correction=True`. Undefined (all NaN) when G < 2 or N <= K.
 *
 * @param f The design factorisation.
 * @param residuals e = y - X b, length n.
 * @param cluster Cluster index 0..clusterCount-1 of every row.
 * @param clusterCount G, the number of clusters.
 * @returns Row-major k x k covariance.
 *
 * @example One row per cluster: CR1 equals HC1
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { clusterCovariance, robustCovariance } from "./covariance.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 1, 1, 0, 1, 1, 1]), [4, 2]);
 * const e = Float64Array.from([0.1, -0.2, 0.3, -0.1]);
 * const cr1 = clusterCovariance(f, e, Int32Array.from([0, 1, 2, 3]), 4);
 * const hc1 = robustCovariance(f, e, "hc1").covariance;
 * ok(cr1.every((v, i) => Math.abs(v - hc1[i]!) < 1e-15));
 * ```
 */
export function clusterCovariance(
  f: SandwichParts,
  residuals: ArrayLike<number>,
  cluster: ArrayLike<number>,
  clusterCount: number,
): Float64Array {
  return clusterCovarianceBlock(f, residuals, cluster, clusterCount, 0);
}

/**
 * The trailing block (coefficients `from..k-1`) of {@linkcode clusterCovariance}
 * in O(n (k-from) + G (k-from)^2); the small-sample factor uses the full k.
 *
 * @param f Leverages and influence vectors of the (extended) fit, or only their trailing columns.
 * @param residuals e = y - X b of that fit.
 * @param cluster Cluster index 0..clusterCount-1 of every row.
 * @param clusterCount G.
 * @param from First column of the block.
 * @returns Row-major (k-from) x (k-from) covariance; all NaN when G < 2 or N <= K.
 */
export function clusterCovarianceBlock(
  f: SandwichParts | TailSandwichParts,
  residuals: ArrayLike<number>,
  cluster: ArrayLike<number>,
  clusterCount: number,
  from: number,
): Float64Array {
  const { n, k } = f;
  const q = k - from;
  const { values, stride, offset } = blockOf(f, from);
  const cov = new Float64Array(q * q);
  if (clusterCount < 2 || n <= k) return cov.fill(NaN);
  if (
    clusterCount === n && q >= OUTER_SUMS_FROM && inRowOrder(cluster, n) &&
    addOuterSums(values, residuals, { rows: n, q, stride, offset, both: true }, cov)
  ) {
    // One row per cluster, clusters in row order: s_g = 0 + u_g e_g, so the sum over clusters
    // is the sum over rows of (u_i e_i)(u_i e_i)' in the same order (a zero e_i adds signed zeros).
    finish(cov, q, (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - k)), new Uint8Array(q));
    return cov;
  }
  const sums = new Float64Array(clusterCount * q);
  for (let i = 0; i < n; i++) {
    const e = residuals[i]!;
    if (e === 0) continue;
    const g = cluster[i]!;
    if (!(g >= 0 && g < clusterCount)) {
      throw new RangeError(
        `Cannot cluster row ${i}: cluster ${g} is not in 0..${clusterCount - 1}`,
      );
    }
    const base = i * stride + offset;
    for (let j = 0; j < q; j++) sums[g * q + j] = sums[g * q + j]! + values[base + j]! * e;
  }
  const simd = q >= OUTER_SUMS_FROM &&
    addOuterSums(sums, null, { rows: clusterCount, q, stride: q, offset: 0 }, cov);
  if (!simd) {
    for (let g = 0; g < clusterCount; g++) {
      const base = g * q;
      for (let a = 0; a < q; a++) {
        const sa = sums[base + a]!;
        if (sa === 0) continue;
        for (let b = a; b < q; b++) cov[a * q + b] = cov[a * q + b]! + sa * sums[base + b]!;
      }
    }
  }
  const c = (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - k));
  finish(cov, q, c, new Uint8Array(q));
  return cov;
}

/**
 * upper[a q + b] += sum_i (v_ia w_i) v_ib over rows i in order, a <= b, skipping zero weights
 * and zero products (the scalar form of lib/fit/_outer_sums.ts).
 */
function weightedOuterSums(
  values: ArrayLike<number>,
  weights: Float64Array,
  stride: number,
  offset: number,
  n: number,
  q: number,
  cov: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const w = weights[i]!;
    if (w === 0) continue;
    const base = i * stride + offset;
    for (let a = 0; a < q; a++) {
      const ua = values[base + a]! * w;
      if (ua === 0) continue;
      for (let b = a; b < q; b++) cov[a * q + b] = cov[a * q + b]! + ua * values[base + b]!;
    }
  }
}

/** True when cluster[i] is i for every row (one row per cluster, in row order). */
function inRowOrder(cluster: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (cluster[i] !== i) return false;
  return true;
}

/** Scales the upper triangle, mirrors it, and blanks undefined rows/columns. */
function finish(cov: Float64Array, k: number, scale: number, undefinedColumns: Uint8Array): void {
  for (let a = 0; a < k; a++) {
    for (let b = a; b < k; b++) {
      const v = undefinedColumns[a] || undefinedColumns[b] ? NaN : cov[a * k + b]! * scale;
      cov[a * k + b] = v;
      cov[b * k + a] = v;
    }
  }
}
