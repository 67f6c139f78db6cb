/**
 * Sandwich covariance estimators for a no-intercept OLS fit: HC0-HC3
 * (heteroskedasticity-consistent) and CR1 (cluster-robust), as statsmodels
 * computes them.
 *
 * @module
 */

import type { DesignFactorization } from "./factor.ts";

/** Heteroskedasticity-consistent covariance types. */
export type CovType = "hc0" | "hc1" | "hc2" | "hc3";

/** The covariance types, in order. */
export const COV_TYPES: readonly CovType[] = ["hc0", "hc1", "hc2", "hc3"];

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
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  covType: CovType,
): RobustCovariance {
  const { n, k, leverage, influence } = f;
  const cov = new Float64Array(k * k);
  const undefinedColumns = new Uint8Array(k);
  const leverageOneRows: number[] = [];
  const weighted = covType === "hc2" || covType === "hc3";
  for (let i = 0; i < n; i++) {
    const e = residuals[i]!;
    const row = i * k;
    const oneMinusH = 1 - leverage[i]!;
    if (weighted && oneMinusH < LEVERAGE_ONE_TOLERANCE) {
      leverageOneRows.push(i);
      let scale = 0;
      for (let j = 0; j < k; j++) scale = Math.max(scale, Math.abs(influence[row + j]!));
      for (let j = 0; j < k; j++) {
        if (Math.abs(influence[row + j]!) > 1e-10 * scale) undefinedColumns[j] = 1;
      }
      continue;
    }
    let w = e * e;
    if (covType === "hc2") w /= oneMinusH;
    else if (covType === "hc3") w /= oneMinusH * oneMinusH;
    if (w === 0) continue;
    for (let a = 0; a < k; a++) {
      const ua = influence[row + a]! * w;
      if (ua === 0) continue;
      for (let b = a; b < k; b++) cov[a * k + b] = cov[a * k + b]! + ua * influence[row + b]!;
    }
  }
  const scale = covType === "hc1" ? (n - k > 0 ? n / (n - k) : NaN) : 1;
  if (Number.isNaN(scale)) undefinedColumns.fill(1);
  finish(cov, k, scale, undefinedColumns);
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
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  cluster: ArrayLike<number>,
  clusterCount: number,
): Float64Array {
  const { n, k, influence } = f;
  const cov = new Float64Array(k * k);
  if (clusterCount < 2 || n <= k) return cov.fill(NaN);
  const sums = new Float64Array(clusterCount * k);
  for (let i = 0; i < n; i++) {
    const e = residuals[i]!;
    if (e === 0) continue;
    const g = cluster[i]!;
    if (!(g >= 0 && g < clusterCount)) {
      throw new RangeError(
        `Cannot cluster row ${i}: cluster ${g} is not in 0..${clusterCount - 1}`,
      );
    }
    for (let j = 0; j < k; j++) sums[g * k + j] = sums[g * k + j]! + influence[i * k + j]! * e;
  }
  for (let g = 0; g < clusterCount; g++) {
    const base = g * k;
    for (let a = 0; a < k; a++) {
      const sa = sums[base + a]!;
      if (sa === 0) continue;
      for (let b = a; b < k; b++) cov[a * k + b] = cov[a * k + b]! + sa * sums[base + b]!;
    }
  }
  const c = (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - k));
  finish(cov, k, c, new Uint8Array(k));
  return cov;
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
