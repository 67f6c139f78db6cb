/**
 * One metric's no-intercept OLS fit with robust and clustered standard
 * errors, on a shared design factorisation.
 *
 * @module
 */

import type { DesignFactorization } from "./factor.ts";
import { solveLeastSquares } from "./factor.ts";
import { clusterCovariance, type CovType, robustCovariance } from "./covariance.ts";
import { normalTwoSidedP } from "../math/normal.ts";
import { DEFAULTS } from "../core/defaults.ts";

/** Options of {@linkcode fitOls}. */
export interface FitOlsOptions {
  /**
   * Covariance type behind `seRobust`, `t` and `p`. HC3 is always computed
   * as well (`seHc3`).
   * @default {DEFAULTS.covType}
   */
  readonly covType?: CovType;
  /** Cluster index of every row, for CR1 (`seCluster`); omitted: no clustering. */
  readonly cluster?: ArrayLike<number>;
  /** Number of clusters; required with `cluster`. */
  readonly clusterCount?: number;
  /**
   * The least-squares coefficients of y on f when the caller has solved them already
   * (`solveLeastSquares` or `solveLeastSquaresMany` of lib/fit/factor.ts, which give the same
   * numbers); omitted: solved here.
   */
  readonly coefficients?: Float64Array;
}

/**
 * Result of {@linkcode fitOls}. Numbers that are undefined (leverage-1 rows,
 * no residual degrees of freedom, fewer than two clusters) are NaN here;
 * outputs turn them into null.
 */
export interface OlsFit {
  /** Rows. */
  readonly n: number;
  /** Columns. */
  readonly k: number;
  /** n - k. */
  readonly dfResid: number;
  /** Coefficient of each column. */
  readonly coefficients: Float64Array;
  /** Residual of each row. */
  readonly residuals: Float64Array;
  /** Sum of squared residuals. */
  readonly ssr: number;
  /** sqrt(ssr / (n - k)); NaN when n = k. */
  readonly residSe: number;
  /** 1 - ssr / sum(y^2): uncentred, because the model has no intercept. NaN when y = 0. */
  readonly r2Uncentered: number;
  /** Covariance type of seRobust, t and p. */
  readonly covType: CovType;
  /** Standard errors of the chosen `covType`. */
  readonly seRobust: Float64Array;
  /** HC3 standard errors, always. */
  readonly seHc3: Float64Array;
  /** estimate / seRobust. */
  readonly t: Float64Array;
  /** Two-sided normal p-value of t. */
  readonly p: Float64Array;
  /** CR1 standard errors (all NaN without clusters). */
  readonly seCluster: Float64Array;
  /** estimate / seCluster. */
  readonly tCluster: Float64Array;
  /** Two-sided normal p-value of tCluster. */
  readonly pCluster: Float64Array;
  /** Rows with leverage 1 (HC2/HC3 undefined for the coefficients they determine). */
  readonly leverageOneRows: readonly number[];
  /** Columns whose HC3 standard error is undefined. */
  readonly hc3UndefinedColumns: readonly number[];
  /**
   * Columns whose variance is not estimable, on which no selection is made:
   * a leverage-1 row determines them (`hc3UndefinedColumns`: the residual is
   * 0 whatever the noise; no HC error of any type, `seRobust` NaN, and no
   * CR1), or, with two clusters or more, the column is nonzero in the rows
   * of one cluster only (its cluster score is 0 by the normal equations, so
   * CR1 sees none of its noise; `seCluster` NaN). NaN errors give NaN t and
   * p here, null in outputs. In column order.
   */
  readonly varianceUndefinedColumns: readonly number[];
}

/**
 * Fits y = X b + e without intercept by least squares on a shared QR
 * factorisation, with HC standard errors (normal t and p) and CR1
 * clustered standard errors.
 *
 * @param f Factorised design ({@linkcode factorDesign}).
 * @param y Response (here: per-row delta R_i - B_i of one metric).
 * @param options See {@linkcode FitOlsOptions}.
 * @returns The fit.
 * @throws {RangeError} When y or cluster have the wrong length.
 *
 * @example
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { fitOls } from "./ols.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 0, 1, 1, 1, 0, 0]), [4, 2]);
 * const fit = fitOls(f, Float64Array.from([0.5, 0.2, 0.8, 0.1]));
 * // X'X = [[2,1],[1,2]], X'y = [1.3, 1.0], so b = [1.6, 0.7] / 3
 * ok(Math.abs(fit.coefficients[0]! - 1.6 / 3) < 1e-12 && fit.dfResid === 2);
 * ok(fit.covType === "hc3" && fit.seRobust.every((v, i) => v === fit.seHc3[i]));
 * ```
 */
export function fitOls(
  f: DesignFactorization,
  y: ArrayLike<number>,
  options: FitOlsOptions = {},
): OlsFit {
  const { n, k, x } = f;
  const covType = options.covType ?? DEFAULTS.covType;
  if (options.coefficients !== undefined && options.coefficients.length !== k) {
    throw new RangeError(
      `Cannot fit: ${options.coefficients.length} coefficients for ${k} columns`,
    );
  }
  const coefficients = options.coefficients ?? solveLeastSquares(f, y);
  const residuals = new Float64Array(n);
  let ssr = 0;
  let yy = 0;
  for (let i = 0; i < n; i++) {
    let fitted = 0;
    for (let j = 0; j < k; j++) fitted += x[i * k + j]! * coefficients[j]!;
    const e = y[i]! - fitted;
    residuals[i] = e;
    ssr += e * e;
    yy += y[i]! * y[i]!;
  }
  const dfResid = n - k;
  const hc3 = robustCovariance(f, residuals, "hc3");
  const chosen = covType === "hc3" ? hc3 : robustCovariance(f, residuals, covType);
  const seHc3 = diagonalSqrt(hc3.covariance, k);
  const seRobust = covType === "hc3" ? seHc3.slice() : diagonalSqrt(chosen.covariance, k);
  let seCluster: Float64Array = new Float64Array(k).fill(NaN);
  if (options.cluster !== undefined) {
    if (options.cluster.length !== n) {
      throw new RangeError(
        `Cannot cluster: ${options.cluster.length} cluster labels for ${n} rows`,
      );
    }
    const cr1 = clusterCovariance(f, residuals, options.cluster, options.clusterCount ?? 0);
    seCluster = diagonalSqrt(cr1, k);
  }
  // Not estimable: no error of any kind for these (HC0/HC1 and CR1 would give 0 or a number
  // that ignores the column's noise, and with it p = 0 and a zero-width interval).
  const varianceUndefinedColumns = undefinedVarianceColumns(
    f,
    hc3.undefinedColumns,
    options.cluster,
    options.clusterCount ?? 0,
  );
  for (const j of varianceUndefinedColumns) {
    // A leverage-1 column has no HC error of any type; a one-cluster column no clustered one.
    if (hc3.undefinedColumns[j]) seRobust[j] = NaN;
    seCluster[j] = NaN;
  }
  const t = coefficients.map((b, j) => b / seRobust[j]!);
  const tCluster = coefficients.map((b, j) => b / seCluster[j]!);
  const hc3UndefinedColumns: number[] = [];
  hc3.undefinedColumns.forEach((u, j) => u && hc3UndefinedColumns.push(j));
  return {
    n,
    k,
    dfResid,
    coefficients,
    residuals,
    ssr,
    residSe: dfResid > 0 ? Math.sqrt(ssr / dfResid) : NaN,
    r2Uncentered: yy > 0 ? 1 - ssr / yy : NaN,
    covType,
    seRobust,
    seHc3,
    t,
    p: t.map(normalTwoSidedP),
    seCluster,
    tCluster,
    pCluster: tCluster.map(normalTwoSidedP),
    leverageOneRows: hc3.leverageOneRows,
    hc3UndefinedColumns,
    varianceUndefinedColumns,
  };
}

/** See `OlsFit.varianceUndefinedColumns`. */
function undefinedVarianceColumns(
  f: DesignFactorization,
  hc3Undefined: Uint8Array,
  cluster: ArrayLike<number> | undefined,
  clusterCount: number,
): number[] {
  const { n, k, x } = f;
  const out: number[] = [];
  for (let j = 0; j < k; j++) {
    if (hc3Undefined[j]) {
      out.push(j);
      continue;
    }
    if (cluster === undefined || clusterCount < 2) continue;
    let only = -1, one = true;
    for (let i = 0; i < n && one; i++) {
      if (x[i * k + j] === 0) continue;
      const g = cluster[i]!;
      if (only === -1) only = g;
      else if (g !== only) one = false;
    }
    if (one && only !== -1) out.push(j);
  }
  return out;
}

function diagonalSqrt(cov: Float64Array, k: number): Float64Array {
  const out = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const v = cov[j * k + j]!;
    out[j] = v >= 0 ? Math.sqrt(v) : NaN;
  }
  return out;
}
