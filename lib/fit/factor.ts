/**
 * Householder QR factorisation of a no-intercept design, computed once and
 * shared by every metric's fit.
 *
 * @module
 */

import { GatelabError } from "../core/issue.ts";
import { RANK_TOLERANCE } from "../math/rank.ts";

/**
 * A factorised n x k design: the Householder QR of X plus the pieces every
 * covariance estimator needs. Produced by {@linkcode factorDesign}.
 */
export interface DesignFactorization {
  readonly n: number;
  readonly k: number;
  /** X as given, row-major n x k (kept for the sandwich sums). */
  readonly x: Float64Array;
  /** Householder vectors, column-major n x k (vector j lives in rows j..n-1 of column j). */
  readonly householder: Float64Array;
  /** Householder scalars 2 / (v'v), one per column (0 for an identity reflection). */
  readonly beta: Float64Array;
  /** R, row-major k x k upper triangular. */
  readonly r: Float64Array;
  /** (X'X)^{-1} = R^{-1} R^{-T}, row-major k x k. */
  readonly xtxInverse: Float64Array;
  /** Leverage h_i = x_i'(X'X)^{-1}x_i of every row. */
  readonly leverage: Float64Array;
  /** u_i = (X'X)^{-1} x_i for every row, row-major n x k (the row's influence direction). */
  readonly influence: Float64Array;
}

/** Options of {@linkcode factorDesign}. */
export interface FactorDesignOptions {
  /**
   * A column is rank deficient when, after the earlier reflections, the norm
   * of its remaining part is at most `rankTolerance` times its reference norm.
   * @default {RANK_TOLERANCE} (lib/math/rank.ts)
   */
  readonly rankTolerance?: number;
  /**
   * Reference norm of every column (default: its own norm). A design that is
   * already residualised on other columns passes the norms the columns had
   * before, so the rule is the one a factorisation of the whole design applies.
   */
  readonly referenceNorms?: ArrayLike<number>;
}

/**
 * Factorises a design matrix X (n x k, row-major; any numbers, typically the
 * 0/1 mask design) by Householder QR without pivoting, checks its column
 * rank, and precomputes (X'X)^{-1}, leverages and per-row influence vectors.
 * No intercept is ever added.
 *
 * @param design Row-major n x k design (Uint8Array 0/1 or Float64Array).
 * @param shape `[n, k]`.
 * @param options See {@linkcode FactorDesignOptions}.
 * @returns The factorisation.
 * @throws {GatelabError} `not_identifiable` when a column is zero or a linear
 *   combination of earlier columns, with the rank found; or when n < k.
 *
 * @example Two columns, three rows
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { ok, throws } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 0, 1, 1, 1]), [3, 2]);
 * // X'X = [[2,1],[1,2]], inverse = [[2,-1],[-1,2]]/3
 * ok(Math.abs(f.xtxInverse[0]! - 2 / 3) < 1e-15 && Math.abs(f.xtxInverse[1]! + 1 / 3) < 1e-15);
 * throws(() => factorDesign(Uint8Array.from([1, 1, 0, 0]), [2, 2]), /rank deficient \(rank 1 of 2\)/);
 * ```
 */
export function factorDesign(
  design: ArrayLike<number>,
  shape: readonly [number, number],
  options: FactorDesignOptions = {},
): DesignFactorization {
  const [n, k] = shape;
  if (design.length !== n * k) {
    throw new RangeError(`Cannot factor design: ${design.length} values do not form ${n} x ${k}`);
  }
  if (n < k) {
    throw new GatelabError("Cannot fit model", [{
      code: "not_identifiable",
      message: `Cannot fit model: ${n} rows are fewer than ${k} columns`,
    }]);
  }
  const tol = options.rankTolerance ?? RANK_TOLERANCE;
  const x = Float64Array.from(design);
  // Column-major working copy.
  const a = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) a[j * n + i] = x[i * k + j]!;
  const originalNorm = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += a[j * n + i]! * a[j * n + i]!;
    originalNorm[j] = options.referenceNorms?.[j] ?? Math.sqrt(s);
  }
  const beta = new Float64Array(k);
  const r = new Float64Array(k * k);
  const deficient: number[] = [];
  for (let j = 0; j < k; j++) {
    const col = j * n;
    let norm2 = 0;
    for (let i = j; i < n; i++) norm2 += a[col + i]! * a[col + i]!;
    const norm = Math.sqrt(norm2);
    if (!(norm > tol * originalNorm[j]!) || originalNorm[j] === 0) {
      deficient.push(j);
      continue;
    }
    const ajj = a[col + j]!;
    const alpha = ajj >= 0 ? -norm : norm;
    a[col + j] = ajj - alpha; // v = x - alpha e1 (stored in place)
    const vtv = norm2 - ajj * ajj + (ajj - alpha) * (ajj - alpha);
    const b = 2 / vtv;
    beta[j] = b;
    let c = j + 1;
    for (; c + 3 < k; c += 4) reflectFour(a, n, j, c, b);
    for (; c < k; c++) reflectOne(a, n, j, c, b);
    r[j * k + j] = alpha;
    for (let c = j + 1; c < k; c++) r[j * k + c] = a[c * n + j]!;
  }
  if (deficient.length > 0) {
    const rank = k - deficient.length;
    throw new GatelabError("Cannot fit model", [{
      code: "not_identifiable",
      message: `Cannot fit model: design matrix is rank deficient (rank ${rank} of ${k}); ` +
        `column index ${deficient[0]} is zero or a combination of earlier columns`,
    }]);
  }
  // R^{-1}, upper triangular, by back substitution column by column.
  const rInv = new Float64Array(k * k);
  for (let c = 0; c < k; c++) {
    rInv[c * k + c] = 1 / r[c * k + c]!;
    for (let i = c - 1; i >= 0; i--) {
      let s = 0;
      for (let l = i + 1; l <= c; l++) s += r[i * k + l]! * rInv[l * k + c]!;
      rInv[i * k + c] = -s / r[i * k + i]!;
    }
  }
  const xtxInverse = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      let s = 0;
      for (let l = j; l < k; l++) s += rInv[i * k + l]! * rInv[j * k + l]!;
      xtxInverse[i * k + j] = s;
      xtxInverse[j * k + i] = s;
    }
  }
  const leverage = new Float64Array(n);
  const influence = new Float64Array(n * k);
  rowInfluence(x, n, k, xtxInverse, leverage, influence);
  return { n, k, x, householder: a, beta, r, xtxInverse, leverage, influence };
}

/**
 * u_i = (X'X)^{-1} x_i and h_i = x_i'u_i of every row, each u_ij summed over
 * l ascending and h_i over j ascending. Only the columns where x_i is
 * nonzero are visited: a skipped term is a product with 0, a signed zero,
 * and adding a signed zero to a sum that started at +0 changes nothing (no
 * such sum is ever -0), so the bits are those of the sums over every column
 * as long as every product is finite: when (X'X)^{-1} has a non-finite
 * entry, every column is visited.
 */
function rowInfluence(
  x: Float64Array,
  n: number,
  k: number,
  xtxInverse: Float64Array,
  leverage: Float64Array,
  influence: Float64Array,
): void {
  const dense = !allFinite(xtxInverse) || !allFinite(x);
  const present = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    const row = i * k;
    let m = 0;
    for (let l = 0; l < k; l++) if (dense || x[row + l] !== 0) present[m++] = l;
    let h = 0;
    for (let j = 0; j < k; j++) {
      const at = j * k;
      let u = 0;
      for (let t = 0; t < m; t++) {
        const l = present[t]!;
        u += xtxInverse[at + l]! * x[row + l]!;
      }
      influence[row + j] = u;
    }
    for (let t = 0; t < m; t++) {
      const j = present[t]!;
      h += x[row + j]! * influence[row + j]!;
    }
    leverage[i] = h;
  }
}

/** True when no entry is NaN or infinite. */
function allFinite(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

/**
 * Applies reflection j (vector in column j of a, scalar b) to column c: its
 * dot with the vector summed over rows j..n-1 in order, then the update.
 */
function reflectOne(a: Float64Array, n: number, j: number, c: number, b: number): void {
  const col = j * n, cc = c * n;
  let dot = 0;
  for (let i = j; i < n; i++) dot += a[col + i]! * a[cc + i]!;
  const s = b * dot;
  for (let i = j; i < n; i++) a[cc + i] = a[cc + i]! - s * a[col + i]!;
}

/**
 * {@linkcode reflectOne} of columns c..c+3 side by side: four dots as four
 * independent chains in one pass over the rows (each summed in row order),
 * then the four updates in one pass. The same operations per column.
 */
function reflectFour(a: Float64Array, n: number, j: number, c: number, b: number): void {
  const col = j * n, c0 = c * n, c1 = c0 + n, c2 = c1 + n, c3 = c2 + n;
  let d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (let i = j; i < n; i++) {
    const v = a[col + i]!;
    d0 += v * a[c0 + i]!;
    d1 += v * a[c1 + i]!;
    d2 += v * a[c2 + i]!;
    d3 += v * a[c3 + i]!;
  }
  const s0 = b * d0, s1 = b * d1, s2 = b * d2, s3 = b * d3;
  for (let i = j; i < n; i++) {
    const v = a[col + i]!;
    a[c0 + i] = a[c0 + i]! - s0 * v;
    a[c1 + i] = a[c1 + i]! - s1 * v;
    a[c2 + i] = a[c2 + i]! - s2 * v;
    a[c3 + i] = a[c3 + i]! - s3 * v;
  }
}

/**
 * Least-squares coefficients for one response: applies Q' by the stored
 * reflections, then solves R b = (Q'y)[0..k).
 *
 * @param f A factorisation from {@linkcode factorDesign}.
 * @param y Response of length n.
 * @returns The k coefficients.
 * @throws {RangeError} When y has the wrong length.
 *
 * @example y = X b exactly
 * ```ts
 * import { factorDesign, solveLeastSquares } from "./factor.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 0, 1, 1, 1]), [3, 2]);
 * const b = solveLeastSquares(f, Float64Array.from([0.5, -0.25, 0.25]));
 * ok(Math.abs(b[0]! - 0.5) < 1e-15 && Math.abs(b[1]! + 0.25) < 1e-15);
 * ```
 */
export function solveLeastSquares(f: DesignFactorization, y: ArrayLike<number>): Float64Array {
  const { n, k, r } = f;
  if (y.length !== n) {
    throw new RangeError(`Cannot solve least squares: response has ${y.length} values, not ${n}`);
  }
  const z = Float64Array.from(y);
  reflectResponse(f, z);
  const b = new Float64Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let l = i + 1; l < k; l++) s -= r[i * k + l]! * b[l]!;
    b[i] = s / r[i * k + i]!;
  }
  return b;
}

/**
 * {@linkcode solveLeastSquares} of several responses on one factorisation,
 * the very same numbers: the reflections are applied to four responses side
 * by side (four dot products as independent chains in one pass over the
 * rows, each in row order), then each is solved by back substitution.
 *
 * @param f A factorisation from {@linkcode factorDesign}.
 * @param ys Responses, each of length n.
 * @returns The k coefficients of each response, in order.
 * @throws {RangeError} When a response has the wrong length.
 *
 * @example The same coefficients as one response at a time
 * ```ts
 * import { factorDesign, solveLeastSquares, solveLeastSquaresMany } from "./factor.ts";
 * import { deepEqual } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0]), [4, 2]);
 * const ys = [[0.5, -0.25, 0.25, 0.1], [1, 2, 3, 4], [0, 0, 1, 0]].map((y) => Float64Array.from(y));
 * deepEqual(solveLeastSquaresMany(f, ys), ys.map((y) => solveLeastSquares(f, y)));
 * ```
 */
export function solveLeastSquaresMany(
  f: DesignFactorization,
  ys: readonly ArrayLike<number>[],
): Float64Array[] {
  const { n, k, r } = f;
  for (const y of ys) {
    if (y.length !== n) {
      throw new RangeError(`Cannot solve least squares: response has ${y.length} values, not ${n}`);
    }
  }
  const out: Float64Array[] = [];
  for (let from = 0; from < ys.length; from += 4) {
    const group = ys.slice(from, from + 4).map((y) => Float64Array.from(y));
    if (group.length === 4) reflectResponsesFour(f, group);
    else for (const z of group) reflectResponse(f, z);
    for (const z of group) {
      const b = new Float64Array(k);
      for (let i = k - 1; i >= 0; i--) {
        let s = z[i]!;
        for (let l = i + 1; l < k; l++) s -= r[i * k + l]! * b[l]!;
        b[i] = s / r[i * k + i]!;
      }
      out.push(b);
    }
  }
  return out;
}

/** Q'z in place: the stored reflections applied to z, as in {@linkcode solveLeastSquares}. */
function reflectResponse(f: DesignFactorization, z: Float64Array): void {
  const { n, k, householder: a, beta } = f;
  for (let j = 0; j < k; j++) {
    const col = j * n;
    let dot = 0;
    for (let i = j; i < n; i++) dot += a[col + i]! * z[i]!;
    const s = beta[j]! * dot;
    for (let i = j; i < n; i++) z[i] = z[i]! - s * a[col + i]!;
  }
}

/** {@linkcode reflectResponse} of four responses side by side, each with its own operations. */
function reflectResponsesFour(f: DesignFactorization, zs: Float64Array[]): void {
  const { n, k, householder: a, beta } = f;
  const z0 = zs[0]!, z1 = zs[1]!, z2 = zs[2]!, z3 = zs[3]!;
  for (let j = 0; j < k; j++) {
    const col = j * n;
    let d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (let i = j; i < n; i++) {
      const v = a[col + i]!;
      d0 += v * z0[i]!;
      d1 += v * z1[i]!;
      d2 += v * z2[i]!;
      d3 += v * z3[i]!;
    }
    const b = beta[j]!;
    const s0 = b * d0, s1 = b * d1, s2 = b * d2, s3 = b * d3;
    for (let i = j; i < n; i++) {
      const v = a[col + i]!;
      z0[i] = z0[i]! - s0 * v;
      z1[i] = z1[i]! - s1 * v;
      z2[i] = z2[i]! - s2 * v;
      z3[i] = z3[i]! - s3 * v;
    }
  }
}
