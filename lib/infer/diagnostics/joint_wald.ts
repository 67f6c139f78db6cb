/**
 * The joint Wald statistic of extra columns Z (the interaction screen's
 * product columns) added to a fitted no-intercept OLS of y on X, with the
 * HC3 or CR1 covariance of their coefficients, computed from sums over the
 * nonzero entries of the rows instead of the n x q influence matrix and its
 * O(n q^2) sandwich.
 *
 * @module
 */

import { choleskyLower, rowDots } from "../../math/dense.ts";
import { extendFit, gramInverse, projectionOnX } from "../../fit/augment.ts";
import { clusterCovarianceBlock, robustCovarianceBlock } from "../../fit/covariance.ts";
import type { DesignFactorization } from "../../fit/factor.ts";
import { PIVOT_TOLERANCE, solveSpd } from "../../math/packed.ts";
import { CancellationSums } from "./_cancellation.ts";
import { SubsetSums } from "./_subset_sums.ts";
import { rowQuadratic } from "./_row_quadratic.ts";

/** The fit of y on X that Z extends. */
export interface JointWaldMain {
  /** Factorisation of X (n x k). */
  readonly factor: DesignFactorization;
  /** Residuals of y on X, length n. */
  readonly residuals: ArrayLike<number>;
}

/** The extra columns. */
export interface JointWaldColumns {
  /** Row-major n x q (typically 0/1 products of design columns, mostly zero). */
  readonly z: ArrayLike<number>;
  /** Number of columns q. */
  readonly q: number;
  /**
   * The pair of X's columns each column of Z is the product of (z_t = x_a x_b, a < b), when Z
   * is made of such products. The sums of Z'Z, X'Z and their HC3-weighted forms are then read
   * from sums over the sets of up to four columns of each row of X (lib/infer/diagnostics/_subset_sums.ts),
   * the same sums in the same order, whenever that is less work.
   */
  readonly products?: readonly { readonly a: number; readonly b: number }[];
}

/** Options of {@linkcode jointWald}. */
export interface JointWaldOptions {
  /**
   * `hc3` (when absent), or `cr1` clustered by `cluster` (statsmodels
   * `cov_type="cluster"`: c = G/(G-1) x (N-1)/(N-K) with K = k + q).
   */
  readonly covariance?: "hc3" | "cr1";
  /** Cluster 0..clusterCount-1 of every row (CR1 only). */
  readonly cluster?: ArrayLike<number>;
  /** Number of clusters G (CR1 only). */
  readonly clusterCount?: number;
  /**
   * Told as each of the {@linkcode JOINT_WALD_STEPS} passes over the rows of
   * the sums' route ends (listing the rows' ones, summing them, the middle
   * matrix); the extended fit's route is not divided into steps.
   */
  readonly onStep?: () => void;
}

/** Passes over the rows {@linkcode JointWaldOptions.onStep} is told of. */
export const JOINT_WALD_STEPS = 3;

/** Result of {@linkcode jointWald}. */
export interface JointWald {
  /** W = gamma' V^{-1} gamma; the Wald F is W / q. */
  readonly statistic: number;
  /**
   * `sums`: computed from the sums of {@linkcode jointWald}; `extension`: by
   * the extended fit and its sandwich block ({@linkcode jointWaldExtended}).
   */
  readonly route: "sums" | "extension";
}

/**
 * A row whose extended leverage is within this of 1 sends the test to
 * {@linkcode jointWaldExtended}, whose leverage-1 guard (LEVERAGE_ONE_TOLERANCE,
 * 1e-10) then decides which coefficients are undefined exactly as before:
 * four orders of magnitude above the guard, far beyond the rounding of either
 * route's leverages.
 */
const LEVERAGE_DOUBT = 1e-6;

/**
 * HC3: a diagonal entry of M whose terms, sum_i w_i (|z_it| + |(P'x_i)_t|)^2,
 * exceed this multiple of the entry itself, sum_i w_i ez_it^2 (both summed
 * row by row), sends the test to {@linkcode jointWaldExtended}: the
 * expansion of M then loses more than 4 of its 16 digits to cancellation.
 */
const CANCELLATION_LIMIT = 1e4;

/**
 * Joint Wald statistic W = gamma' V^{-1} gamma of the coefficients gamma of
 * Z in the OLS of y on [X Z], V their HC3 (MacKinnon and White 1985) or
 * CR1 covariance block, without forming the n x q influence vectors.
 *
 * With EZ = Z - X P (P = (X'X)^{-1} X'Z) and S = EZ'EZ, V = S^{-1} M S^{-1}
 * where M = sum_i w_i ez_i ez_i' (HC3: w_i = r_i^2 / (1 - h_i)^2 with r and h
 * the extended residuals and leverages) or M = c sum_g t_g t_g' (CR1:
 * t_g = sum_{i in g} ez_i r_i). Since S gamma = EZ'e (e the residuals on X),
 * W = (EZ'e)' M^{-1} (EZ'e), and
 *
 * - S = Z'Z - (X'Z)' P and EZ'e = Z'e - P'X'e,
 * - h_i = h_i(X) + z_i'S^{-1}z_i - 2 z_i'S^{-1}P'x_i + x_i'P S^{-1}P'x_i,
 * - r_i = e_i - z_i'gamma + x_i'(P gamma),
 * - M = Z'ΩZ - Z'ΩX P - P'X'ΩZ + P'(X'ΩX)P (HC3), or t_g = sum z_i r_i - P' sum x_i r_i (CR1),
 *
 * each summed over the nonzero entries of z_i and x_i: O(n nnz(z)^2 + q^3)
 * instead of the O(n q (q + nnz(z) + nnz(x))) of the extended fit and its sandwich.
 * When Z is made of products of pairs of X's columns (`columns.products`), the
 * sums of Z'Z, X'Z, Z'ΩZ, X'ΩZ and X'ΩX are read from sums over the sets of up
 * to four columns of each row of X, O(n nnz(x)^4 / 24) instead of
 * O(n nnz(z)^2 / 2), whenever that is less work: the same terms added in the
 * same order, so the same bits.
 *
 * Precision. The expansions subtract the projection of Z on X from Z inside
 * sums instead of row by row. S and its Cholesky factor are those of the
 * extended fit's Gram route (lib/fit/augment.ts), whose pivot rule bounds the
 * cancellation: every pivot of S keeps more than GRAM_PIVOT_SHARE (1%) of its
 * column's squared norm, so ||ez_t||^2 > 0.01 ||z_t||^2 while
 * ||X p_t|| <= ||z_t||, and a column's terms exceed its result by at most
 * (1 + 1) / 0.1 = 20 in norm, 400 in squares: at most about 2.6 of the 16
 * digits. The extended fit's own influence vectors g_i = S^{-1}z_i - (P S^{-1})'x_i
 * carry the same subtraction, and so do the leverages. The weighted sums of
 * M are not bounded by that rule (the weights w_i may sit on the rows where
 * z_i and P'x_i nearly cancel), so they are measured: the terms of each
 * diagonal entry of M are summed beside the entry itself, row by row in
 * O(n q nnz(x_i)), and more than CANCELLATION_LIMIT (1e4, 4 digits) between
 * them leaves the test to the extended fit. By Cauchy-Schwarz the terms of
 * an off-diagonal entry are then at most 1e4 sqrt(M_tt M_uu): M is exact to
 * about 1e-12 on the scale of its correlations, the scale on which its
 * Cholesky factor (as V's on the extended route) loses what its
 * conditioning costs. CR1 subtracts P' sum x_i r_i from sum z_i r_i once per
 * cluster, as the extended route sums g_i r_i per cluster.
 *
 * Every case the sums do not decide as the extended fit would goes to
 * {@linkcode jointWaldExtended} (route `extension`): a pivot of S below the
 * Gram rule (the extended fit then factors EZ by Householder QR and takes its
 * rank decision), a non-finite P, and, for HC3, any row with extended
 * leverage within LEVERAGE_DOUBT of 1 (where the leverage-1 guard decides
 * which coefficients are undefined) or a diagonal entry of M beyond
 * CANCELLATION_LIMIT.
 *
 * @param main Factorisation of X and the residuals of y on X.
 * @param columns Z and q.
 * @param options Covariance (see {@linkcode JointWaldOptions}).
 * @returns The statistic and its route; null when the test is undefined: n <= k + q, a singular
 *   [X Z] or M (the Cholesky rule of lib/math/packed.ts), a non-finite covariance or statistic,
 *   or for CR1 fewer than two clusters.
 * @throws {RangeError} When z does not have n x q entries, or (CR1) a cluster index is out of range.
 *
 * @example The same statistic as the extended fit's sandwich
 * ```ts
 * import { factorDesign, solveLeastSquares } from "../../fit/factor.ts";
 * import { jointWald, jointWaldExtended } from "./joint_wald.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const x = Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0]);
 * const y = Float64Array.from([0.3, 0.1, 0.2, 0.35, 0.05, 0.25, 0.1, 0.4, 0.15, 0]);
 * const z = Uint8Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1, 0]); // the product of the two columns
 * const factor = factorDesign(x, [10, 2]);
 * const b = solveLeastSquares(factor, y);
 * const residuals = y.map((v, i) => v - x[2 * i]! * b[0]! - x[2 * i + 1]! * b[1]!);
 * const fast = jointWald({ factor, residuals }, { z, q: 1 })!;
 * const slow = jointWaldExtended({ factor, residuals }, { z, q: 1 })!;
 * deepEqual([fast.route, slow.route, fast.statistic.toFixed(6)], ["sums", "extension", "18.666667"]);
 * ok(Math.abs(fast.statistic - slow.statistic) < 1e-12 * slow.statistic);
 * ```
 */
export function jointWald(
  main: JointWaldMain,
  columns: JointWaldColumns,
  options: JointWaldOptions = {},
): JointWald | null {
  const { factor: f, residuals } = main;
  const { z, q } = columns;
  const { n, k, x, xtxInverse } = f;
  checkShapes(n, residuals, z, q);
  const cr1 = options.covariance === "cr1";
  const p = k + q;
  if (n - p <= 0) return null;
  const cluster = options.cluster, clusterCount = options.clusterCount ?? 0;
  if (cr1 && (!cluster || clusterCount < 2)) return null;
  const fallback = (): JointWald | null => jointWaldExtended(main, columns, options);
  if (!cr1) {
    for (let i = 0; i < n; i++) if (!(1 - f.leverage[i]! >= LEVERAGE_DOUBT)) return fallback();
  }
  if (!isBinary(z) || !isBinary(x)) return fallback();
  const rows = new RowEntries(z, q, x, k, n);
  const sets = columns.products ? productSets(columns.products, rows, n) : null;
  options.onStep?.();
  // Z'Z (upper), X'Z (k x q), Z'e, X'e.
  const ztz = new Float64Array(q * q), xtz = new Float64Array(k * q);
  const zte = new Float64Array(q), xte = new Float64Array(k);
  const { zIdx, xIdx } = rows;
  const counts = sets ? new SubsetSums(k) : null;
  // With the set sums, rows of one 0/1 pattern add their count once: the sums are integers, exact
  // in any grouping. Each pattern's first row and its number of rows.
  const patterns = new Map<number | string, number>(),
    firstRows: number[] = [],
    rowsOf: number[] = [];
  for (let i = 0; i < n; i++) {
    rows.load(i);
    const { m, mx } = rows;
    const e = residuals[i]!;
    addAt(zIdx, m, e, zte);
    addAt(xIdx, mx, e, xte);
    if (counts) {
      const key = patternKey(xIdx, mx, k);
      const p = patterns.get(key);
      if (p === undefined) {
        patterns.set(key, firstRows.length);
        firstRows.push(i);
        rowsOf.push(1);
      } else rowsOf[p]!++;
    } else rowPairCounts(xIdx, mx, zIdx, m, q, ztz, xtz);
  }
  if (counts) {
    firstRows.forEach((i, p) => {
      rows.load(i);
      counts.add(xIdx, rows.mx, rowsOf[p]!);
    });
    readProducts(counts, sets!, ztz, xtz, null);
  }
  options.onStep?.();
  // P = (X'X)^{-1} X'Z, k x q.
  const pm = projectionOnX(xtxInverse, xtz, k, q);
  if (!pm.every(Number.isFinite)) return fallback();
  const sInv = gramInverse(ztz, xtz, pm, k, q);
  if (!sInv) return fallback();
  // EZ'e = Z'e - P'X'e, gamma = S^{-1} EZ'e, P gamma.
  const eze = new Float64Array(q);
  for (let t = 0; t < q; t++) {
    let s = zte[t]!;
    for (let j = 0; j < k; j++) s -= pm[j * q + t]! * xte[j]!;
    eze[t] = s;
  }
  const gamma = new Float64Array(q);
  for (let a = 0; a < q; a++) {
    let s = 0;
    for (let b = 0; b < q; b++) s += sInv[a * q + b]! * eze[b]!;
    gamma[a] = s;
  }
  const pGamma = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let t = 0; t < q; t++) s += pm[j * q + t]! * gamma[t]!;
    pGamma[j] = s;
  }
  // Extended residuals r_i = e_i - z_i'gamma + x_i'(P gamma) of the row last loaded.
  const residual = (i: number): number => {
    let r = residuals[i]!;
    for (let a = 0; a < rows.m; a++) r -= gamma[zIdx[a]!]!;
    for (let c = 0; c < rows.mx; c++) r += pGamma[xIdx[c]!]!;
    return r;
  };
  const middle = cr1
    ? clusteredMiddle(f, q, pm, rows, residual, cluster!, clusterCount)
    : hc3Middle(f, q, pm, sInv, rows, residual, sets);
  if (middle === null) return fallback();
  options.onStep?.();
  const statistic = quadraticInverse(middle, eze, q);
  return statistic === null ? null : { statistic, route: "sums" };
}

/**
 * The columns of the ones of every row of Z and of X (both 0/1, as jointWald checks before it
 * builds this), listed once
 * (rows after rows, columns ascending) and loaded row by row.
 */
class RowEntries {
  /** Columns of z_i's ones (the first m). */
  readonly zIdx: Int32Array;
  /** Columns of x_i's ones (the first mx). */
  readonly xIdx: Int32Array;
  /** Ones in z_i. */
  m = 0;
  /** Ones in x_i. */
  mx = 0;
  /** Columns of Z. */
  readonly q: number;
  /** Columns of X. */
  readonly k: number;
  /** Row i's columns of Z are zList[zStart[i] .. zStart[i + 1]). */
  readonly zStart: Int32Array;
  /** The columns of Z's ones, row after row. */
  readonly zList: Int32Array;
  readonly #xStart: Int32Array;
  readonly #xList: Int32Array;
  readonly #z: ArrayLike<number>;
  constructor(z: ArrayLike<number>, q: number, x: ArrayLike<number>, k: number, n: number) {
    this.#z = z;
    this.q = q;
    this.k = k;
    this.zIdx = new Int32Array(q);
    this.xIdx = new Int32Array(k);
    [this.zStart, this.zList] = ones(z, n, q);
    [this.#xStart, this.#xList] = ones(x, n, k);
  }
  /** Z, row-major n x q. */
  get z(): ArrayLike<number> {
    return this.#z;
  }
  /** Loads row i into zIdx, xIdx, m and mx. */
  load(i: number): void {
    // Copied entry by entry: a subarray per row and list would be two allocations per row.
    const from = this.zStart[i]!, to = this.zStart[i + 1]!;
    const zIdx = this.zIdx, zList = this.zList;
    for (let t = from; t < to; t++) zIdx[t - from] = zList[t]!;
    this.m = to - from;
    const xFrom = this.#xStart[i]!, xTo = this.#xStart[i + 1]!;
    const xIdx = this.xIdx, xList = this.#xList;
    for (let t = xFrom; t < xTo; t++) xIdx[t - xFrom] = xList[t]!;
    this.mx = xTo - xFrom;
  }
}

/** Appends to list from e the columns t < width with values[at + t] nonzero; returns the new end. */
function listOnes(
  values: ArrayLike<number>,
  at: number,
  width: number,
  list: Int32Array,
  e: number,
): number {
  for (let t = 0; t < width; t++) if (values[at + t] !== 0) list[e++] = t;
  return e;
}

/**
 * {@linkcode ones} of a matrix of bytes that are all 0 or 1 (jointWald checks that first):
 * sized by one pass, then each column written and kept by adding its byte, without a branch.
 */
function binaryByteOnes(values: Uint8Array, n: number, width: number): [Int32Array, Int32Array] {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  const start = new Int32Array(n + 1), list = new Int32Array(total + width);
  let e = 0;
  for (let i = 0; i < n; i++) {
    const at = i * width;
    for (let t = 0; t < width; t++) {
      list[e] = t;
      e += values[at + t]!;
    }
    start[i + 1] = e;
  }
  return [start, list.subarray(0, e)];
}

/** The columns of the nonzero entries of a row-major n x width matrix, row after row. */
function ones(values: ArrayLike<number>, n: number, width: number): [Int32Array, Int32Array] {
  if (values instanceof Uint8Array) return binaryByteOnes(values, n, width);
  const start = new Int32Array(n + 1);
  let list = new Int32Array(Math.max(16, n * 4));
  let e = 0;
  for (let i = 0; i < n; i++) {
    const at = i * width;
    if (e + width > list.length) {
      const grown = new Int32Array(Math.max(2 * list.length, e + width));
      grown.set(list.subarray(0, e));
      list = grown;
    }
    e = listOnes(values, at, width, list, e);
    start[i + 1] = e;
  }
  return [start, list.slice(0, e)];
}

/** The pairs of X's columns of the columns of Z (z_t = x_{a[t]} x_{b[t]}). */
interface ProductSets {
  readonly a: Int32Array;
  readonly b: Int32Array;
}

/**
 * The products as ProductSets when the sums over the sets of each row's columns are less work
 * than the sums over the pairs of its products (counting the reads of every product pair and
 * the sets' arrays), else null.
 *
 * @throws {RangeError} When a pair is not a < b < k, or a column of Z is not its product.
 */
function productSets(
  products: readonly { readonly a: number; readonly b: number }[],
  rows: RowEntries,
  n: number,
): ProductSets | null {
  const { q, k } = rows;
  if (products.length !== q) {
    throw new RangeError(`Cannot test the columns: ${products.length} products for ${q} columns`);
  }
  const a = new Int32Array(q), b = new Int32Array(q);
  products.forEach((p, t) => {
    if (!(Number.isInteger(p.a) && Number.isInteger(p.b) && 0 <= p.a && p.a < p.b && p.b < k)) {
      throw new RangeError(`Cannot test the columns: product ${t} is of columns ${p.a}, ${p.b}`);
    }
    a[t] = p.a;
    b[t] = p.b;
  });
  // How many columns of Z are the product of each pair of X's columns.
  const multiplicity = new Int32Array(k * k);
  for (let t = 0; t < q; t++) multiplicity[a[t]! * k + b[t]!]!++;
  const present = new Uint8Array(k);
  let pairWork = 0, setWork = 0;
  for (let i = 0; i < n; i++) {
    rows.load(i);
    const { m, mx, xIdx, zIdx } = rows;
    for (let c = 0; c < mx; c++) present[xIdx[c]!] = 1;
    // z_i is the row of products when each of its ones is a product of present columns and
    // it has as many ones as there are such products; else find the first column that is not.
    const t = productsMatch(zIdx, m, xIdx, mx, present, a, b, multiplicity, k)
      ? -1
      : firstMismatch(rows.z, i * q, present, a, b);
    if (t >= 0) {
      throw new RangeError(
        `Cannot test the columns: row ${i} of column ${t} is not the product of columns ${
          a[t]
        } and ${b[t]}`,
      );
    }
    for (let c = 0; c < mx; c++) present[xIdx[c]!] = 0;
    pairWork += (m * (m + 1)) / 2 + m * mx;
    setWork += SubsetSums.rowWork(mx);
  }
  setWork += SubsetSums.sets(k, 4) + SubsetSums.sets(k, 3) + (q * (q + 1)) / 2 + k * q;
  return setWork < pairWork ? { a, b } : null;
}

/** Row t of Z'Z (from column t on) and column t of X'Z, from the set sums. */
function readProductRow(
  sums: SubsetSums,
  sets: ProductSets,
  t: number,
  ztz: Float64Array,
  xtz: Float64Array,
): void {
  const { a, b } = sets;
  const q = a.length, k = sums.k;
  const at = a[t]!, bt = b[t]!, tq = t * q;
  for (let u = t; u < q; u++) ztz[tq + u] = sums.pairs(at, bt, a[u]!, b[u]!);
  for (let j = 0; j < k; j++) xtz[j * q + t] = sums.withPair(j, at, bt);
}

/**
 * True when the ones of z_i (zIdx[0..m)) are exactly the columns t with both a_t and b_t present:
 * each of them is such a column, and there are as many as the products of the pairs of present
 * columns (xIdx[0..mx)), counted with their multiplicity.
 */
function productsMatch(
  zIdx: Int32Array,
  m: number,
  xIdx: Int32Array,
  mx: number,
  present: Uint8Array,
  a: Int32Array,
  b: Int32Array,
  multiplicity: Int32Array,
  k: number,
): boolean {
  for (let e = 0; e < m; e++) {
    const t = zIdx[e]!;
    if (!(present[a[t]!]! & present[b[t]!]!)) return false;
  }
  let products = 0;
  for (let c = 0; c < mx; c++) {
    const row = xIdx[c]! * k;
    for (let d = c + 1; d < mx; d++) products += multiplicity[row + xIdx[d]!]!;
  }
  return products === m;
}

/** The first t with z[at + t] not present[a_t] & present[b_t], or -1. */
function firstMismatch(
  z: ArrayLike<number>,
  at: number,
  present: Uint8Array,
  a: Int32Array,
  b: Int32Array,
): number {
  for (let t = 0; t < a.length; t++) {
    if (z[at + t] !== (present[a[t]!]! & present[b[t]!]!)) return t;
  }
  return -1;
}

/**
 * Z'Z (upper triangle), X'Z (k x q) and, when asked, X'X (upper triangle) with the weights of
 * `sums`: every entry the sum over the rows holding the set of columns it names.
 */
function readProducts(
  sums: SubsetSums,
  sets: ProductSets,
  ztz: Float64Array,
  xtz: Float64Array,
  xtx: Float64Array | null,
): void {
  const q = sets.a.length, k = sums.k;
  for (let t = 0; t < q; t++) readProductRow(sums, sets, t, ztz, xtz);
  if (xtx) {
    for (let j = 0; j < k; j++) for (let l = j; l < k; l++) xtx[j * k + l] = sums.pair(j, l);
  }
}

/** True when every entry is 0 or 1. */
function isBinary(values: ArrayLike<number>): boolean {
  // Bytes (the screen's products) apart, so each loop reads one kind of array.
  if (values instanceof Uint8Array) return bytesBinary(values);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== 0 && v !== 1) return false;
  }
  return true;
}

/** True when every byte is 0 or 1: four bytes at a time where they are aligned. */
function bytesBinary(values: Uint8Array): boolean {
  const head = Math.min(values.length, (4 - (values.byteOffset & 3)) & 3);
  for (let i = 0; i < head; i++) if (values[i]! > 1) return false;
  const words = (values.length - head) >> 2;
  const packed = new Uint32Array(values.buffer, values.byteOffset + head, words);
  for (let w = 0; w < words; w++) if ((packed[w]! & 0xfefefefe) !== 0) return false;
  for (let i = head + 4 * words; i < values.length; i++) if (values[i]! > 1) return false;
  return true;
}

/** r_i of the row last loaded into the RowEntries. */
type Residual = (i: number) => number;

/**
 * M = sum_i w_i ez_i ez_i' (upper triangle), w_i = r_i^2 / (1 - h_i)^2, as
 * Z'ΩZ + P'F + F'P with F = (X'ΩX) P / 2 - X'ΩZ. Null when a row's extended
 * leverage is within LEVERAGE_DOUBT of 1 (or not finite), or a diagonal
 * entry's terms exceed CANCELLATION_LIMIT times the entry.
 */
function hc3Middle(
  f: DesignFactorization,
  q: number,
  pm: Float64Array,
  sInv: Float64Array,
  rows: RowEntries,
  residual: Residual,
  sets: ProductSets | null,
): Float64Array | null {
  const { n, k, leverage } = f;
  const weighted = sets ? new SubsetSums(k) : null;
  const { zIdx, xIdx } = rows;
  // B = P S^{-1} (k x q) and C = P S^{-1} P' (k x k) for the leverages.
  // B_ja = sum_b P_jb S^{-1}_ab (b ascending): S^{-1} is symmetric, so its rows serve as columns.
  const bm = rowDots(pm, k, sInv, q, q);
  const cm = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    for (let l = j; l < k; l++) {
      let s = 0;
      for (let a = 0; a < q; a++) s += bm[j * q + a]! * pm[l * q + a]!;
      cm[j * k + l] = s;
      cm[l * k + j] = s;
    }
  }
  const ztoz = new Float64Array(q * q),
    xtoz = new Float64Array(k * q),
    xtox = new Float64Array(k * k);
  // Row by row for the cancellation check: P'x_i, z_i (dense), and per column the entry
  // sum_i w_i ez_it^2 and its terms' magnitude sum_i w_i (|z_it| + |(P'x_i)_t|)^2.
  const check = new CancellationSums(pm, k, q);
  check.begin();
  for (let i = 0; i < n; i++) {
    rows.load(i);
    const { m, mx } = rows;
    // z_i'S^{-1}z_i - 2 z_i'S^{-1}P'x_i + x_i'P S^{-1}P'x_i. Each row's loops are small
    // functions of their own, so they are optimised after a few rows (the one call of this
    // function would otherwise run them in its on-stack-replacement tiers).
    const zz = rowQuadratic(zIdx, m, sInv, q);
    const zx = rowCross(xIdx, mx, zIdx, m, bm, q);
    const xx = rowQuadratic(xIdx, mx, cm, k);
    const oneMinusH = 1 - (leverage[i]! + (zz - 2 * zx + xx));
    if (!(oneMinusH >= LEVERAGE_DOUBT)) return null;
    const r = residual(i);
    let w = r * r;
    w /= oneMinusH * oneMinusH;
    if (w === 0) continue;
    check.add(xIdx, mx, zIdx, m, w);
    if (weighted) weighted.add(xIdx, mx, w);
    else rowPairSums(xIdx, mx, zIdx, m, q, k, w, ztoz, xtoz, xtox);
  }
  const { entry, terms } = check.sums();
  for (let t = 0; t < q; t++) if (!(terms[t]! <= CANCELLATION_LIMIT * entry[t]!)) return null;
  if (weighted) readProducts(weighted, sets!, ztoz, xtoz, xtox);
  for (let j = 0; j < k; j++) for (let l = 0; l < j; l++) xtox[j * k + l] = xtox[l * k + j]!;
  // F' = (P'(X'ΩX) / 2 - Z'ΩX), and P', both q x k so the sums below run along rows.
  const ft = new Float64Array(q * k), pt = new Float64Array(q * k);
  for (let t = 0; t < q; t++) {
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let l = 0; l < k; l++) s += xtox[j * k + l]! * pm[l * q + t]!;
      ft[t * k + j] = s / 2 - xtoz[j * q + t]!;
      pt[t * k + j] = pm[j * q + t]!;
    }
  }
  // Four entries of a row at once, each summed in the order of j.
  for (let t = 0; t < q; t++) {
    const tk = t * k, tq = t * q;
    let u = t;
    for (; u + 3 < q; u += 4) {
      const u0 = u * k, u1 = u0 + k, u2 = u1 + k, u3 = u2 + k;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let j = 0; j < k; j++) {
        const p = pt[tk + j]!, g = ft[tk + j]!;
        s0 += p * ft[u0 + j]! + g * pt[u0 + j]!;
        s1 += p * ft[u1 + j]! + g * pt[u1 + j]!;
        s2 += p * ft[u2 + j]! + g * pt[u2 + j]!;
        s3 += p * ft[u3 + j]! + g * pt[u3 + j]!;
      }
      ztoz[tq + u] = ztoz[tq + u]! + s0;
      ztoz[tq + u + 1] = ztoz[tq + u + 1]! + s1;
      ztoz[tq + u + 2] = ztoz[tq + u + 2]! + s2;
      ztoz[tq + u + 3] = ztoz[tq + u + 3]! + s3;
    }
    for (; u < q; u++) {
      const uk = u * k;
      let s = 0;
      for (let j = 0; j < k; j++) s += pt[tk + j]! * ft[uk + j]! + ft[tk + j]! * pt[uk + j]!;
      ztoz[tq + u] = ztoz[tq + u]! + s;
    }
  }
  return ztoz;
}

/** A key of the set of columns idx[0..m): the sum of 2^c (exact up to 53 columns), else their list. */
function patternKey(idx: Int32Array, m: number, k: number): number | string {
  if (k > 53) return idx.subarray(0, m).join(",");
  let key = 0;
  for (let c = 0; c < m; c++) key += 2 ** idx[c]!;
  return key;
}

/** Adds v to into[idx[0..m)]. */
function addAt(idx: Int32Array, m: number, v: number, into: Float64Array): void {
  for (let a = 0; a < m; a++) into[idx[a]!] = into[idx[a]!]! + v;
}

/** Adds 1 to Z'Z (upper) and X'Z at row i's pairs of ones. */
function rowPairCounts(
  xIdx: Int32Array,
  mx: number,
  zIdx: Int32Array,
  m: number,
  q: number,
  ztz: Float64Array,
  xtz: Float64Array,
): void {
  for (let a = 0; a < m; a++) {
    const row = zIdx[a]! * q;
    for (let b = a; b < m; b++) ztz[row + zIdx[b]!] = ztz[row + zIdx[b]!]! + 1;
  }
  for (let c = 0; c < mx; c++) {
    const row = xIdx[c]! * q;
    for (let a = 0; a < m; a++) xtz[row + zIdx[a]!] = xtz[row + zIdx[a]!]! + 1;
  }
}

/** x_i'B z_i: sum over x_i's ones j (ascending) of the sum over z_i's ones t of B_jt, one chain. */
function rowCross(
  xIdx: Int32Array,
  mx: number,
  zIdx: Int32Array,
  m: number,
  bm: Float64Array,
  q: number,
): number {
  let zx = 0;
  for (let c = 0; c < mx; c++) {
    const bj = xIdx[c]! * q;
    for (let a = 0; a < m; a++) zx += bm[bj + zIdx[a]!]!;
  }
  return zx;
}

/** Adds w to Z'ΩZ (upper), X'ΩZ and X'ΩX (upper) at row i's pairs of ones. */
function rowPairSums(
  xIdx: Int32Array,
  mx: number,
  zIdx: Int32Array,
  m: number,
  q: number,
  k: number,
  w: number,
  ztoz: Float64Array,
  xtoz: Float64Array,
  xtox: Float64Array,
): void {
  for (let a = 0; a < m; a++) {
    const at = zIdx[a]! * q;
    for (let b = a; b < m; b++) ztoz[at + zIdx[b]!] = ztoz[at + zIdx[b]!]! + w;
  }
  for (let c = 0; c < mx; c++) {
    const j = xIdx[c]!, at = j * q, ak = j * k;
    for (let a = 0; a < m; a++) xtoz[at + zIdx[a]!] = xtoz[at + zIdx[a]!]! + w;
    for (let d = c; d < mx; d++) xtox[ak + xIdx[d]!] = xtox[ak + xIdx[d]!]! + w;
  }
}

/**
 * M = c sum_g t_g t_g' (upper triangle), t_g = sum_{i in g} z_i r_i - P' sum_{i in g} x_i r_i,
 * c = G/(G-1) x (N-1)/(N-K) as statsmodels' cluster covariance with K = k + q.
 */
function clusteredMiddle(
  f: DesignFactorization,
  q: number,
  pm: Float64Array,
  rows: RowEntries,
  residual: Residual,
  cluster: ArrayLike<number>,
  clusterCount: number,
): Float64Array {
  const { n, k } = f;
  const { zIdx, xIdx } = rows;
  const tz = new Float64Array(clusterCount * q), tx = new Float64Array(clusterCount * k);
  for (let i = 0; i < n; i++) {
    rows.load(i);
    const { m, mx } = rows;
    const r = residual(i);
    if (r === 0) continue;
    const g = cluster[i]!;
    if (!(g >= 0 && g < clusterCount)) {
      throw new RangeError(
        `Cannot cluster row ${i}: cluster ${g} is not in 0..${clusterCount - 1}`,
      );
    }
    for (let a = 0; a < m; a++) tz[g * q + zIdx[a]!] = tz[g * q + zIdx[a]!]! + r;
    for (let c = 0; c < mx; c++) tx[g * k + xIdx[c]!] = tx[g * k + xIdx[c]!]! + r;
  }
  const middle = new Float64Array(q * q);
  const t = new Float64Array(q);
  for (let g = 0; g < clusterCount; g++) {
    t.set(tz.subarray(g * q, g * q + q));
    for (let j = 0; j < k; j++) {
      const sj = tx[g * k + j]!;
      if (sj === 0) continue;
      for (let u = 0; u < q; u++) t[u] = t[u]! - sj * pm[j * q + u]!;
    }
    for (let a = 0; a < q; a++) {
      const ta = t[a]!;
      if (ta === 0) continue;
      for (let b = a; b < q; b++) middle[a * q + b] = middle[a * q + b]! + ta * t[b]!;
    }
  }
  const c = (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - k - q));
  for (let a = 0; a < q; a++) {
    for (let b = a; b < q; b++) middle[a * q + b] = middle[a * q + b]! * c;
  }
  return middle;
}

/**
 * s' M^{-1} s = ||L^{-1} s||^2 with M = L L' (upper triangle of M given);
 * null when M has a non-finite entry, a zero diagonal, or a pivot at most
 * PIVOT_TOLERANCE times its diagonal (the rule of lib/math/packed.ts
 * solveSpd), or the result is not finite.
 */
function quadraticInverse(middle: Float64Array, s: Float64Array, q: number): number | null {
  const l = new Float64Array(q * q);
  for (let t = 0; t < q; t++) {
    for (let u = t; u < q; u++) {
      const v = middle[t * q + u]!;
      if (!Number.isFinite(v)) return null;
      l[u * q + t] = v;
    }
  }
  const floor = new Float64Array(q);
  for (let t = 0; t < q; t++) {
    const diagonal = l[t * q + t]!;
    if (diagonal === 0) return null;
    floor[t] = PIVOT_TOLERANCE * diagonal;
  }
  if (!choleskyLower(l, q, floor)) return null;
  let w = 0;
  const y = new Float64Array(q);
  for (let t = 0; t < q; t++) {
    let v = s[t]!;
    for (let j = 0; j < t; j++) v -= l[t * q + j]! * y[j]!;
    y[t] = v / l[t * q + t]!;
    w += y[t]! * y[t]!;
  }
  return Number.isFinite(w) ? w : null;
}

function checkShapes(n: number, residuals: ArrayLike<number>, z: ArrayLike<number>, q: number) {
  if (z.length !== n * q || residuals.length !== n) {
    throw new RangeError(`Cannot test the columns: ${z.length} values do not form ${n} x ${q}`);
  }
}

/**
 * The same statistic through the extended fit (lib/fit/augment.ts
 * extendFit) and its covariance block (robustCovarianceBlock "hc3" with its
 * leverage-1 guard, or clusterCovarianceBlock), solved by Cholesky: the route
 * {@linkcode jointWald} leaves to it, and the reference it is tested against.
 *
 * @param main Factorisation of X and the residuals of y on X.
 * @param columns Z and q.
 * @param options Covariance (see {@linkcode JointWaldOptions}).
 * @returns The statistic (route `extension`), or null when the test is undefined.
 * @throws {RangeError} When z does not have n x q entries, or (CR1) a cluster index is out of range.
 */
export function jointWaldExtended(
  main: JointWaldMain,
  columns: JointWaldColumns,
  options: JointWaldOptions = {},
): JointWald | null {
  const { factor, residuals } = main;
  const { z, q } = columns;
  const k = factor.k;
  checkShapes(factor.n, residuals, z, q);
  if (factor.n - k - q <= 0) return null;
  const fit = extendFit(factor, residuals, z, q);
  if (!fit) return null;
  const v = options.covariance === "cr1"
    ? clusterCovarianceBlock(
      fit,
      fit.residuals,
      options.cluster ?? [],
      options.clusterCount ?? 0,
      k,
    )
    : robustCovarianceBlock(fit, fit.residuals, "hc3", k).covariance;
  if (v.some((x) => !Number.isFinite(x))) return null;
  const g = Float64Array.from(fit.gamma);
  const solved = solveSpd(v, g, q);
  if (!solved) return null;
  let w = 0;
  for (let s = 0; s < q; s++) w += g[s]! * solved[s]!;
  if (!Number.isFinite(w)) return null;
  return { statistic: w, route: "extension" };
}
