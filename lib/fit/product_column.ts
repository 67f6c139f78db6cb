/**
 * The interaction screen's one-column tests, fused: for the product column
 * z = x_a x_b of two 0/1 design columns, its coefficient in the fit of y on
 * [X z] and that coefficient's HC3 or CR1 variance, without building the
 * extended fit. Every number is the very bits {@linkcode extendFit} followed
 * by {@linkcode robustCovarianceBlock} or {@linkcode clusterCovarianceBlock}
 * give: the same floating-point operations in the same order, with the work
 * that depends only on a row's 0/1 pattern done once per distinct pattern.
 *
 * @module
 */

import { extendFit, ExtendScratch } from "./augment.ts";
import {
  clusterCovarianceBlock,
  LEVERAGE_ONE_TOLERANCE,
  robustCovarianceBlock,
} from "./covariance.ts";
import type { DesignFactorization } from "./factor.ts";
import { RANK_TOLERANCE } from "./rank.ts";

/** The covariance of the product coefficient: HC3, or CR1 by cluster. */
export type ProductColumnCovariance =
  | { readonly type: "hc3" }
  | {
    readonly type: "cr1";
    /** Cluster index 0..clusterCount-1 of every row. */
    readonly cluster: ArrayLike<number>;
    /** Number of clusters. */
    readonly clusterCount: number;
  };

/** One product column's test, from {@linkcode productColumnTest}. */
export interface ProductColumnTest {
  /** Rows with both columns present (the product column's ones). */
  readonly nBoth: number;
  /** Coefficient of the product column; NaN when [X z] is rank deficient or nBoth is 0. */
  readonly gamma: number;
  /** Its HC3 or CR1 variance (NaN where undefined, as the block covariances give it). */
  readonly variance: number;
  /** Denominator degrees of freedom: n - k - 1 (HC3) or clusters - 1 (CR1); 0 when no fit. */
  readonly df2: number;
}

/**
 * What every product column of one screen shares, from
 * {@linkcode planProductColumns}: the distinct row patterns of the 0/1
 * design (each a list of its present columns) and working memory of their
 * length.
 */
export interface ProductColumnPlan {
  readonly f: DesignFactorization;
  readonly residuals: ArrayLike<number>;
  readonly covariance: ProductColumnCovariance;
  /** Pattern of every row. */
  readonly rowPattern: Int32Array;
  /** Rows of every pattern. */
  readonly patternCount: Float64Array;
  /** Present columns of pattern p: columns[starts[p]..starts[p+1]-1], ascending. */
  readonly starts: Int32Array;
  readonly columns: Int32Array;
  /** Pattern p's 0/1 row, patterns x k. */
  readonly patternRow: Uint8Array;
  /** Per pattern: ez, then ez / s, ez^2 / s and the fitted product term. */
  readonly ez: Float64Array;
  readonly infl: Float64Array;
  readonly lev: Float64Array;
  readonly fitted: Float64Array;
  /** Per cluster sums of CR1. */
  readonly sums: Float64Array;
  /** For the generic path: the product column and extendFit's memory. */
  readonly z: Uint8Array;
  readonly scratch: ExtendScratch;
}

/**
 * Prepares the product-column tests of one main fit: finds the distinct rows
 * of its 0/1 design and lists each one's present columns.
 *
 * @param f Factorisation of the 0/1 design X (n x k).
 * @param residuals Residuals of y on X.
 * @param covariance HC3, or CR1 with the rows' clusters.
 * @returns The plan {@linkcode productColumnTest} reads.
 * @throws {RangeError} When the design has an entry other than 0 or 1.
 */
export function planProductColumns(
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  covariance: ProductColumnCovariance,
): ProductColumnPlan {
  const { n, k, x } = f;
  const rowPattern = new Int32Array(n);
  // A row's key: the sum of 2^j over its present columns (exact up to 53 columns), else their list.
  const ids = new Map<number | string, number>();
  const counts: number[] = [], firstRows: number[] = [];
  const present: number[] = [];
  for (let i = 0; i < n; i++) {
    present.length = 0;
    let bits = 0;
    for (let j = 0; j < k; j++) {
      const v = x[i * k + j]!;
      if (v === 1) {
        present.push(j);
        bits += 2 ** j;
      } else if (v !== 0) {
        throw new RangeError(`Cannot plan product columns: row ${i} column ${j} is ${v}, not 0/1`);
      }
    }
    const key = k <= 53 ? bits : present.join(",");
    let p = ids.get(key);
    if (p === undefined) {
      p = counts.length;
      ids.set(key, p);
      counts.push(0);
      firstRows.push(i);
    }
    counts[p]!++;
    rowPattern[i] = p;
  }
  const patterns = counts.length;
  const starts = new Int32Array(patterns + 1);
  const patternRow = new Uint8Array(patterns * k);
  const columns: number[] = [];
  firstRows.forEach((i, p) => {
    for (let j = 0; j < k; j++) {
      if (x[i * k + j] === 1) {
        columns.push(j);
        patternRow[p * k + j] = 1;
      }
    }
    starts[p + 1] = columns.length;
  });
  return {
    f,
    residuals,
    covariance,
    rowPattern,
    patternCount: Float64Array.from(counts),
    starts,
    columns: Int32Array.from(columns),
    patternRow,
    ez: new Float64Array(patterns),
    infl: new Float64Array(patterns),
    lev: new Float64Array(patterns),
    fitted: new Float64Array(patterns),
    sums: new Float64Array(covariance.type === "cr1" ? covariance.clusterCount : 0),
    z: new Uint8Array(n),
    scratch: new ExtendScratch(),
  };
}

/**
 * Tests the product column x_a x_b of a planned screen: gamma, its variance
 * and df2, bit for bit what extendFit(f, residuals, z, 1) and the product
 * block of robustCovarianceBlock(fit, fit.residuals, "hc3", k) or
 * clusterCovarianceBlock give, in two passes over the rows and none over
 * n-length arrays of its own. The rank rule is extendFit's
 * (||ez|| <= RANK_TOLERANCE ||z|| is not testable). A row at leverage 1
 * under HC3 (rare: it needs that row's whole influence vector) sends the
 * column to the generic path, so it too gets exactly that path's numbers.
 *
 * @param plan From {@linkcode planProductColumns}.
 * @param a First column.
 * @param b Second column.
 * @returns nBoth, gamma, variance and df2 (gamma and variance NaN, df2 0 when there is no fit).
 *
 * @example The same gamma and variance as the extended fit and its HC3 block
 * ```ts
 * import { factorDesign, solveLeastSquares } from "./factor.ts";
 * import { extendFit } from "./augment.ts";
 * import { robustCovarianceBlock } from "./covariance.ts";
 * import { planProductColumns, productColumnTest } from "./product_column.ts";
 * import { equal } from "node:assert/strict";
 * const rows = [[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0], [1, 1, 0], [0, 1, 0]];
 * const x = Uint8Array.from(rows.flat());
 * const y = Float64Array.from([0.3, 0.1, 0.2, 0.35, 0.05, 0.25, 0.15, -0.1]);
 * const f = factorDesign(x, [8, 3]);
 * const beta = solveLeastSquares(f, y);
 * const e = y.map((v, i) => v - rows[i]!.reduce((s, xj, j) => s + xj * beta[j]!, 0));
 * const test = productColumnTest(planProductColumns(f, e, { type: "hc3" }), 0, 1);
 * const z = Uint8Array.from(rows, (r) => r[0]! & r[1]!);
 * const fit = extendFit(f, e, z, 1)!;
 * equal(test.nBoth, 3);
 * equal(test.gamma, fit.gamma[0]);
 * equal(test.variance, robustCovarianceBlock(fit, fit.residuals, "hc3", 3).covariance[0]);
 * equal(test.df2, 4);
 * ```
 */
export function productColumnTest(
  plan: ProductColumnPlan,
  a: number,
  b: number,
): ProductColumnTest {
  const { f, residuals, covariance, rowPattern, patternCount, starts, columns, patternRow } = plan;
  const { n, k, xtxInverse, leverage } = f;
  const patterns = patternCount.length;
  // X'z (exact integers: counts of rows with a, b and j present) and z'z = nBoth.
  const xtz = new Float64Array(k);
  let nBoth = 0;
  for (let p = 0; p < patterns; p++) {
    if (!(patternRow[p * k + a]! & patternRow[p * k + b]!)) continue;
    const c = patternCount[p]!;
    nBoth += c;
    for (let t = starts[p]!; t < starts[p + 1]!; t++) xtz[columns[t]!] = xtz[columns[t]!]! + c;
  }
  const noFit = { nBoth, gamma: NaN, variance: NaN, df2: 0 };
  if (nBoth === 0) return noFit;
  const w = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let l = 0; l < k; l++) s += xtxInverse[j * k + l]! * xtz[l]!;
    w[j] = s;
  }
  if (!w.every(Number.isFinite)) return generic(plan, a, b, nBoth);
  // ez of every pattern: z - x'w over the present columns, in column order.
  const { ez, infl, lev, fitted } = plan;
  for (let p = 0; p < patterns; p++) {
    let s = patternRow[p * k + a]! & patternRow[p * k + b]!;
    for (let t = starts[p]!; t < starts[p + 1]!; t++) s -= w[columns[t]!]!;
    ez[p] = s;
  }
  let s = 0, d = 0;
  for (let i = 0; i < n; i++) {
    const v = ez[rowPattern[i]!]!;
    s += v * v;
    d += v * residuals[i]!;
  }
  if (!(Math.sqrt(s) > RANK_TOLERANCE * Math.sqrt(nBoth))) return noFit;
  const gamma = d / s;
  for (let p = 0; p < patterns; p++) {
    infl[p] = ez[p]! / s;
    lev[p] = ez[p]! * infl[p]!;
    let fit = 0;
    fit += ez[p]! * gamma;
    fitted[p] = fit;
  }
  if (covariance.type === "hc3") {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const p = rowPattern[i]!;
      const e = residuals[i]! - fitted[p]!;
      const oneMinusH = 1 - (leverage[i]! + lev[p]!);
      if (oneMinusH < LEVERAGE_ONE_TOLERANCE) return generic(plan, a, b, nBoth);
      let weight = e * e;
      weight /= oneMinusH * oneMinusH;
      if (weight === 0) continue;
      const u = infl[p]! * weight;
      if (u === 0) continue;
      v = v + u * infl[p]!;
    }
    return { nBoth, gamma, variance: v * 1, df2: n - k - 1 };
  }
  const { cluster, clusterCount } = covariance;
  if (clusterCount < 2 || n <= k + 1) return { nBoth, gamma, variance: NaN, df2: clusterCount - 1 };
  const sums = plan.sums.fill(0);
  for (let i = 0; i < n; i++) {
    const p = rowPattern[i]!;
    const e = residuals[i]! - fitted[p]!;
    if (e === 0) continue;
    const g = cluster[i]!;
    if (!(g >= 0 && g < clusterCount)) {
      throw new RangeError(
        `Cannot cluster row ${i}: cluster ${g} is not in 0..${clusterCount - 1}`,
      );
    }
    sums[g] = sums[g]! + infl[p]! * e;
  }
  let v = 0;
  for (let g = 0; g < clusterCount; g++) {
    const sg = sums[g]!;
    if (sg !== 0) v = v + sg * sg;
  }
  const c = (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - (k + 1)));
  return { nBoth, gamma, variance: v * c, df2: clusterCount - 1 };
}

/** The product column through extendFit and the block covariances (leverage-1 rows, non-finite W). */
function generic(plan: ProductColumnPlan, a: number, b: number, nBoth: number): ProductColumnTest {
  const { f, residuals, covariance, z, scratch } = plan;
  const { n, k, x } = f;
  for (let i = 0; i < n; i++) z[i] = x[i * k + a]! * x[i * k + b]!;
  const fit = extendFit(f, residuals, z, 1, scratch);
  if (!fit) return { nBoth, gamma: NaN, variance: NaN, df2: 0 };
  const variance = covariance.type === "hc3"
    ? robustCovarianceBlock(fit, fit.residuals, "hc3", k).covariance[0]!
    : clusterCovarianceBlock(
      fit,
      fit.residuals,
      covariance.cluster,
      covariance.clusterCount,
      k,
    )[0]!;
  const df2 = covariance.type === "hc3" ? fit.dfResid : covariance.clusterCount - 1;
  return { nBoth, gamma: fit.gamma[0]!, variance, df2 };
}
