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
import { RANK_TOLERANCE } from "../math/rank.ts";
import { type LanesKernel, lanesKernel } from "./_lanes_wasm.ts";

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
  /**
   * Per pattern and lane (pattern p, lane c at p * LANES + c; one lane per column tested
   * together): ez.
   */
  readonly ez: Float64Array;
  /**
   * Per pattern, the fitted product term, ez^2 / s and ez / s of each lane, side by side so a
   * row reads them from one place: pattern p's at p * TERMS + c, + LANES + c, + 2 LANES + c.
   */
  readonly terms: Float64Array;
  /** (X'X)^{-1} X'z of each lane, column j lane c at j * LANES + c. */
  readonly w: Float64Array;
  /** The columns a (entries 0..LANES-1) and b (LANES..) of each lane's product. */
  readonly pairs: Int32Array;
  /** Each lane's gamma. */
  readonly gammas: Float64Array;
  /** Per cluster sums of CR1. */
  readonly sums: Float64Array;
  /** For the generic path: the product column and extendFit's memory. */
  readonly z: Uint8Array;
  readonly scratch: ExtendScratch;
  /**
   * The row passes in WebAssembly SIMD (lib/fit/_lanes_wasm.ts) over their own memory, which
   * holds rowPattern, ez and terms (the arrays above are views of it), a copy of the residuals
   * and leverages, and the passes' results; null for the scalar loops.
   */
  readonly kernel: LanesPlan | null;
}

/** Byte addresses of a plan's arrays in its kernel's memory. */
interface LanesPlan {
  readonly run: LanesKernel;
  readonly rowPattern: number;
  readonly starts: number;
  readonly columns: number;
  readonly w: number;
  /** Each lane's s, then its gamma (eight doubles). */
  readonly scale: number;
  readonly residuals: number;
  readonly leverage: number;
  readonly ez: number;
  readonly terms: number;
  readonly out: number;
}

/** Options of {@linkcode planProductColumns}. */
export interface PlanProductColumnsOptions {
  /** Run the row passes in WebAssembly SIMD where the runtime has it. @default {true} */
  readonly simd?: boolean;
}

/** Designs of at most this many columns find a row's pattern in a table of 2^k entries. */
const TABLE_COLUMNS = 20;

/**
 * The sum of 2^j over the columns j where row i of x is 1 (exact up to 53 columns).
 *
 * @throws {RangeError} When an entry is neither 0 nor 1.
 */
function rowBits(x: ArrayLike<number>, i: number, k: number): number {
  let bits = 0;
  for (let j = 0; j < k; j++) {
    const v = x[i * k + j]!;
    if (v === 1) bits += 2 ** j;
    else if (v !== 0) {
      throw new RangeError(`Cannot plan product columns: row ${i} column ${j} is ${v}, not 0/1`);
    }
  }
  return bits;
}

/** The columns where row i of x is 1, as a list (the key of a row beyond 53 columns). */
function presentList(x: ArrayLike<number>, i: number, k: number): string {
  const present: number[] = [];
  for (let j = 0; j < k; j++) if (x[i * k + j] === 1) present.push(j);
  return present.join(",");
}

/**
 * Prepares the product-column tests of one main fit: finds the distinct rows
 * of its 0/1 design and lists each one's present columns.
 *
 * @param f Factorisation of the 0/1 design X (n x k).
 * @param residuals Residuals of y on X.
 * @param covariance HC3, or CR1 with the rows' clusters.
 * @param options See {@linkcode PlanProductColumnsOptions}.
 * @returns The plan {@linkcode productColumnTest} reads.
 * @throws {RangeError} When the design has an entry other than 0 or 1.
 */
export function planProductColumns(
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  covariance: ProductColumnCovariance,
  options: PlanProductColumnsOptions = {},
): ProductColumnPlan {
  const { n, k, x } = f;
  const rowPattern = new Int32Array(n);
  // A row's key: the sum of 2^j over its present columns (exact up to 53 columns), else their
  // list; up to TABLE_COLUMNS columns the key indexes a table instead of a map.
  const table = k <= TABLE_COLUMNS ? new Int32Array(2 ** k).fill(-1) : null;
  const ids = new Map<number | string, number>();
  const counts: number[] = [], firstRows: number[] = [];
  for (let i = 0; i < n; i++) {
    const bits = rowBits(x, i, k);
    let p: number | undefined;
    if (table) {
      p = table[bits]!;
      if (p < 0) {
        p = counts.length;
        table[bits] = p;
        counts.push(0);
        firstRows.push(i);
      }
    } else {
      const key = k <= 53 ? bits : presentList(x, i, k);
      p = ids.get(key);
      if (p === undefined) {
        p = counts.length;
        ids.set(key, p);
        counts.push(0);
        firstRows.push(i);
      }
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
  const columnList = Int32Array.from(columns);
  const lanes = options.simd === false
    ? null
    : lanesPlan(f, residuals, { rowPattern, starts, columns: columnList });
  const buffer = lanes?.run.memory.buffer;
  return {
    f,
    residuals,
    covariance,
    rowPattern,
    patternCount: Float64Array.from(counts),
    starts,
    columns: columnList,
    patternRow,
    ez: lanes
      ? new Float64Array(buffer!, lanes.ez, patterns * LANES)
      : new Float64Array(patterns * LANES),
    terms: lanes
      ? new Float64Array(buffer!, lanes.terms, patterns * TERMS)
      : new Float64Array(patterns * TERMS),
    w: lanes ? new Float64Array(buffer!, lanes.w, k * LANES) : new Float64Array(k * LANES),
    pairs: new Int32Array(2 * LANES),
    gammas: new Float64Array(LANES),
    sums: new Float64Array(covariance.type === "cr1" ? covariance.clusterCount : 0),
    z: new Uint8Array(n),
    scratch: new ExtendScratch(),
    kernel: lanes,
  };
}

/**
 * The kernel's memory for a plan of n rows, with the row patterns, the patterns' column lists,
 * the residuals and the leverages copied in; null where there is no WebAssembly SIMD or a
 * residual or leverage is not finite (the passes' skipped terms are then not sure to be signed
 * zeros).
 */
function lanesPlan(
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  lists: {
    readonly rowPattern: Int32Array;
    readonly starts: Int32Array;
    readonly columns: Int32Array;
  },
): LanesPlan | null {
  const { n, k, leverage } = f;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(residuals[i]!) || !Number.isFinite(leverage[i]!)) return null;
  }
  const patterns = lists.starts.length - 1;
  const align = (bytes: number) => Math.ceil(bytes / 16) * 16;
  const rowPattern = 0, residualsAt = align(4 * n), leverageAt = residualsAt + align(8 * n);
  const starts = leverageAt + align(8 * n), columns = starts + align(4 * (patterns + 1));
  const w = columns + align(4 * lists.columns.length), scale = w + 8 * LANES * k;
  const ez = scale + 16 * LANES, terms = ez + 8 * LANES * patterns;
  const out = terms + 8 * TERMS * patterns;
  const run = lanesKernel(out + 64);
  if (!run) return null;
  const buffer = run.memory.buffer;
  new Int32Array(buffer, rowPattern, n).set(lists.rowPattern);
  new Float64Array(buffer, residualsAt, n).set(residuals);
  new Float64Array(buffer, leverageAt, n).set(leverage);
  new Int32Array(buffer, starts, patterns + 1).set(lists.starts);
  new Int32Array(buffer, columns, lists.columns.length).set(lists.columns);
  return {
    run,
    rowPattern,
    starts,
    columns,
    w,
    scale,
    residuals: residualsAt,
    leverage: leverageAt,
    ez,
    terms,
    out,
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
  return productColumnTests(plan, [{ a, b }])[0]!;
}

/** Product columns tested side by side in {@linkcode productColumnTests}. */
const LANES = 4;

/** A pattern's terms: fitted, leverage and influence of each lane. */
const TERMS = 3 * LANES;

/**
 * {@linkcode productColumnTest} of many pairs, the very same numbers: the
 * columns are tested four at a time, so each pass over the patterns and
 * rows reads them once for four columns and runs four independent chains of
 * sums (each column's sums keep their terms in their order).
 *
 * @param plan From {@linkcode planProductColumns}.
 * @param pairs The pairs of columns (a, b) to test.
 * @returns One test per pair, in order.
 *
 * @example The same tests as one pair at a time
 * ```ts
 * import { factorDesign, solveLeastSquares } from "./factor.ts";
 * import { planProductColumns, productColumnTest, productColumnTests } from "./product_column.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rows = [[1, 0, 1], [1, 1, 0], [0, 1, 1], [1, 1, 1], [0, 0, 1], [1, 0, 0], [1, 1, 0], [0, 1, 0]];
 * const f = factorDesign(Uint8Array.from(rows.flat()), [8, 3]);
 * const y = Float64Array.from([0.3, 0.1, 0.2, 0.35, 0.05, 0.25, 0.15, -0.1]);
 * const beta = solveLeastSquares(f, y);
 * const e = y.map((v, i) => v - rows[i]!.reduce((s, xj, j) => s + xj * beta[j]!, 0));
 * const plan = planProductColumns(f, e, { type: "hc3" });
 * const pairs = [{ a: 0, b: 1 }, { a: 0, b: 2 }, { a: 1, b: 2 }];
 * deepEqual(productColumnTests(plan, pairs), pairs.map(({ a, b }) => productColumnTest(plan, a, b)));
 * ```
 */
export function productColumnTests(
  plan: ProductColumnPlan,
  pairs: readonly { readonly a: number; readonly b: number }[],
): ProductColumnTest[] {
  const out = new Array<ProductColumnTest>(pairs.length);
  const ready: Lane[] = [];
  const counts = allProductCounts(plan, pairs);
  pairs.forEach(({ a, b }, index) => {
    const lane = prepare(plan, a, b, index, counts);
    if ("w" in lane) ready.push(lane);
    else out[index] = lane;
  });
  for (let g = 0; g < ready.length; g += LANES) {
    const group = ready.slice(g, g + LANES);
    fusedTests(plan, group).forEach((test, c) => (out[group[c]!.index] = test));
  }
  return out;
}

/** A pair whose test goes through the fused passes: its X'z solved. */
interface Lane {
  readonly index: number;
  readonly a: number;
  readonly b: number;
  readonly nBoth: number;
  /** (X'X)^{-1} X'z, finite. */
  readonly w: Float64Array;
}

/** nBoth and w of one pair, or its test when it ends there (no rows, or a non-finite w). */
function prepare(
  plan: ProductColumnPlan,
  a: number,
  b: number,
  index: number,
  counts: ProductCounts | null,
): Lane | ProductColumnTest {
  const { k, xtxInverse } = plan.f;
  let xtz: Float64Array, nBoth: number;
  if (counts) {
    xtz = counts.xtz.subarray(index * k, index * k + k);
    nBoth = counts.nBoth[index]!;
  } else {
    xtz = new Float64Array(k);
    nBoth = productCounts(plan, a, b, xtz);
  }
  if (nBoth === 0) return { nBoth, gamma: NaN, variance: NaN, df2: 0 };
  const w = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let l = 0; l < k; l++) s += xtxInverse[j * k + l]! * xtz[l]!;
    w[j] = s;
  }
  if (!w.every(Number.isFinite)) return generic(plan, a, b, nBoth);
  return { index, a, b, nBoth, w };
}

/** X'z (row t of xtz, k entries) and z'z (nBoth[t]) of every pair t, from allProductCounts. */
interface ProductCounts {
  readonly xtz: Float64Array;
  readonly nBoth: Float64Array;
}

/**
 * The counts of {@linkcode productCounts} for every pair at once, in one pass over the patterns
 * visiting each pattern's pairs of present columns (exact integers, so the same numbers in any
 * order). Null when a pair is not a < b < k or appears twice (each pair is then counted alone).
 */
function allProductCounts(
  plan: ProductColumnPlan,
  pairs: readonly { readonly a: number; readonly b: number }[],
): ProductCounts | null {
  const { patternCount, starts, columns } = plan;
  const k = plan.f.k;
  const pairIndex = new Int32Array(k * k).fill(-1);
  for (const [t, { a, b }] of pairs.entries()) {
    if (!(Number.isInteger(a) && Number.isInteger(b) && 0 <= a && a < b && b < k)) return null;
    if (pairIndex[a * k + b]! >= 0) return null;
    pairIndex[a * k + b] = t;
  }
  const xtz = new Float64Array(pairs.length * k), nBoth = new Float64Array(pairs.length);
  const patterns = patternCount.length;
  for (let p = 0; p < patterns; p++) {
    const c = patternCount[p]!, from = starts[p]!, to = starts[p + 1]!;
    for (let u = from; u < to; u++) {
      const row = columns[u]! * k;
      for (let v = u + 1; v < to; v++) {
        const t = pairIndex[row + columns[v]!]!;
        if (t < 0) continue;
        nBoth[t] = nBoth[t]! + c;
        const at = t * k;
        for (let w = from; w < to; w++) xtz[at + columns[w]!] = xtz[at + columns[w]!]! + c;
      }
    }
  }
  return { xtz, nBoth };
}

/**
 * X'z into xtz (exact integers: counts of rows with a, b and j present); returns z'z = nBoth.
 * A function of its own so the loop is optimised as one (V8 otherwise ran it as on-stack
 * replacement code that bailed out at the caller's return on each of hundreds of calls).
 */
function productCounts(plan: ProductColumnPlan, a: number, b: number, xtz: Float64Array): number {
  const { patternCount, starts, columns, patternRow } = plan;
  const k = plan.f.k;
  const patterns = patternCount.length;
  let nBoth = 0;
  for (let p = 0; p < patterns; p++) {
    if (!(patternRow[p * k + a]! & patternRow[p * k + b]!)) continue;
    const c = patternCount[p]!;
    nBoth += c;
    for (let t = starts[p]!; t < starts[p + 1]!; t++) xtz[columns[t]!] = xtz[columns[t]!]! + c;
  }
  return nBoth;
}

/**
 * The tests of up to LANES prepared pairs, one lane each (a short group
 * repeats its last pair in the spare lanes, whose results are dropped).
 */
function fusedTests(plan: ProductColumnPlan, group: readonly Lane[]): ProductColumnTest[] {
  // Each pass is a function of its own, so V8 optimises it as one instead of running it as
  // on-stack-replacement code that bails out where the pass ends, on every call.
  const { f, covariance } = plan;
  const { n, k, leverage } = f;
  const lane = (c: number) => group[Math.min(c, group.length - 1)]!;
  const { w, pairs } = plan;
  for (let c = 0; c < LANES; c++) {
    const { w: wc, a, b } = lane(c);
    for (let j = 0; j < k; j++) w[j * LANES + c] = wc[j]!;
    pairs[c] = a;
    pairs[LANES + c] = b;
  }
  laneResiduals(plan);
  const sums = laneSums(plan);
  const out: (ProductColumnTest | null)[] = [];
  const gammas = plan.gammas;
  for (let c = 0; c < LANES; c++) {
    const { nBoth } = lane(c);
    const s = sums[c]!;
    if (!(Math.sqrt(s) > RANK_TOLERANCE * Math.sqrt(nBoth))) {
      out.push({ nBoth, gamma: NaN, variance: NaN, df2: 0 });
    } else out.push(null);
    gammas[c] = sums[LANES + c]! / s;
  }
  laneInfluence(plan, sums);
  const variances = covariance.type === "hc3" ? hc3Lanes(plan, n, leverage) : null;
  return group.map((g, c) => {
    const done = out[c];
    if (done) return done;
    const { nBoth } = g;
    const gamma = gammas[c]!;
    if (variances) {
      const v = variances[c]!;
      // A row at leverage 1: the test is the generic path's.
      if (v === null) return generic(plan, g.a, g.b, nBoth);
      return { nBoth, gamma, variance: v * 1, df2: n - k - 1 };
    }
    const { clusterCount } = covariance as { readonly clusterCount: number };
    if (clusterCount < 2 || n <= k + 1) {
      return { nBoth, gamma, variance: NaN, df2: clusterCount - 1 };
    }
    const c1 = (clusterCount / (clusterCount - 1)) * ((n - 1) / (n - (k + 1)));
    return { nBoth, gamma, variance: cr1Lane(plan, c) * c1, df2: clusterCount - 1 };
  });
}

/** ez of every pattern and lane: z - x'w over the present columns, in column order. */
function laneResiduals(plan: ProductColumnPlan): void {
  const { patternCount, starts, columns, patternRow, ez, w, pairs } = plan;
  const k = plan.f.k;
  const patterns = patternCount.length;
  const a0 = pairs[0]!, a1 = pairs[1]!, a2 = pairs[2]!, a3 = pairs[3]!;
  const b0 = pairs[4]!, b1 = pairs[5]!, b2 = pairs[6]!, b3 = pairs[7]!;
  const kernel = plan.kernel;
  if (kernel) {
    // z of every pattern and lane, then z minus the present columns' w in the kernel.
    for (let p = 0; p < patterns; p++) {
      const row = p * k, at = p * LANES;
      ez[at] = patternRow[row + a0]! & patternRow[row + b0]!;
      ez[at + 1] = patternRow[row + a1]! & patternRow[row + b1]!;
      ez[at + 2] = patternRow[row + a2]! & patternRow[row + b2]!;
      ez[at + 3] = patternRow[row + a3]! & patternRow[row + b3]!;
    }
    kernel.run.residuals(patterns, kernel.starts, kernel.columns, kernel.w, kernel.ez);
    return;
  }
  for (let p = 0; p < patterns; p++) {
    const row = p * k;
    let s0 = patternRow[row + a0]! & patternRow[row + b0]!;
    let s1 = patternRow[row + a1]! & patternRow[row + b1]!;
    let s2 = patternRow[row + a2]! & patternRow[row + b2]!;
    let s3 = patternRow[row + a3]! & patternRow[row + b3]!;
    for (let t = starts[p]!; t < starts[p + 1]!; t++) {
      const j = columns[t]! * LANES;
      s0 -= w[j]!;
      s1 -= w[j + 1]!;
      s2 -= w[j + 2]!;
      s3 -= w[j + 3]!;
    }
    const at = p * LANES;
    ez[at] = s0;
    ez[at + 1] = s1;
    ez[at + 2] = s2;
    ez[at + 3] = s3;
  }
}

/** ez'ez of each lane (entries 0..3) and ez'e (entries 4..7), summed over the rows in order. */
function laneSums(plan: ProductColumnPlan): Float64Array {
  const { rowPattern, residuals, ez, kernel } = plan;
  const n = plan.f.n;
  if (kernel) {
    kernel.run.sums(n, kernel.rowPattern, kernel.residuals, kernel.ez, kernel.out);
    return new Float64Array(kernel.run.memory.buffer, kernel.out, 2 * LANES).slice();
  }
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  for (let i = 0; i < n; i++) {
    const at = rowPattern[i]! * LANES, r = residuals[i]!;
    const v0 = ez[at]!, v1 = ez[at + 1]!, v2 = ez[at + 2]!, v3 = ez[at + 3]!;
    s0 += v0 * v0;
    d0 += v0 * r;
    s1 += v1 * v1;
    d1 += v1 * r;
    s2 += v2 * v2;
    d2 += v2 * r;
    s3 += v3 * v3;
    d3 += v3 * r;
  }
  return Float64Array.of(s0, s1, s2, s3, d0, d1, d2, d3);
}

/** ez / s, ez^2 / s and the fitted product term of every pattern and lane. */
function laneInfluence(plan: ProductColumnPlan, sums: Float64Array): void {
  const { ez, terms, gammas, kernel } = plan;
  const patterns = plan.patternCount.length;
  if (kernel) {
    const scale = new Float64Array(kernel.run.memory.buffer, kernel.scale, 2 * LANES);
    for (let c = 0; c < LANES; c++) {
      scale[c] = sums[c]!;
      scale[LANES + c] = gammas[c]!;
    }
    kernel.run.influence(patterns, kernel.ez, kernel.terms, kernel.scale);
    return;
  }
  for (let p = 0; p < patterns; p++) {
    for (let c = 0; c < LANES; c++) {
      const at = p * LANES + c, to = p * TERMS + c;
      const infl = ez[at]! / sums[c]!;
      terms[to + 2 * LANES] = infl;
      terms[to + LANES] = ez[at]! * infl;
      let fit = 0;
      fit += ez[at]! * gammas[c]!;
      terms[to] = fit;
    }
  }
}

/**
 * The HC3 sums sum_i w_i infl_i^2 of the four lanes in one pass over the rows; null for a lane
 * with a row at leverage 1.
 */
function hc3Lanes(
  plan: ProductColumnPlan,
  n: number,
  leverage: ArrayLike<number>,
): (number | null)[] {
  const { residuals, rowPattern, terms, kernel } = plan;
  if (kernel) {
    const { run } = kernel;
    run.hc3(n, kernel.rowPattern, kernel.residuals, kernel.leverage, kernel.terms, kernel.out);
    const v = new Float64Array(run.memory.buffer, kernel.out, LANES);
    const flags = new Int32Array(run.memory.buffer, kernel.out + 8 * LANES, 2 * LANES);
    return [0, 1, 2, 3].map((c) => (flags[2 * c] !== 0 ? null : v[c]!));
  }
  let v0 = 0, v1 = 0, v2 = 0, v3 = 0;
  let one = 0; // bit c: lane c met a row at leverage 1
  for (let i = 0; i < n; i++) {
    const at = rowPattern[i]! * TERMS, r = residuals[i]!, h = leverage[i]!;
    const lev = at + LANES, infl = at + 2 * LANES;
    // Each lane as the one-column loop: skip a row whose weight or term is zero.
    {
      const e = r - terms[at]!, oneMinusH = 1 - (h + terms[lev]!);
      if (oneMinusH < LEVERAGE_ONE_TOLERANCE) one |= 1;
      else {
        let weight = e * e;
        weight /= oneMinusH * oneMinusH;
        const u = terms[infl]! * weight;
        if (weight !== 0 && u !== 0) v0 = v0 + u * terms[infl]!;
      }
    }
    {
      const e = r - terms[at + 1]!, oneMinusH = 1 - (h + terms[lev + 1]!);
      if (oneMinusH < LEVERAGE_ONE_TOLERANCE) one |= 2;
      else {
        let weight = e * e;
        weight /= oneMinusH * oneMinusH;
        const u = terms[infl + 1]! * weight;
        if (weight !== 0 && u !== 0) v1 = v1 + u * terms[infl + 1]!;
      }
    }
    {
      const e = r - terms[at + 2]!, oneMinusH = 1 - (h + terms[lev + 2]!);
      if (oneMinusH < LEVERAGE_ONE_TOLERANCE) one |= 4;
      else {
        let weight = e * e;
        weight /= oneMinusH * oneMinusH;
        const u = terms[infl + 2]! * weight;
        if (weight !== 0 && u !== 0) v2 = v2 + u * terms[infl + 2]!;
      }
    }
    {
      const e = r - terms[at + 3]!, oneMinusH = 1 - (h + terms[lev + 3]!);
      if (oneMinusH < LEVERAGE_ONE_TOLERANCE) one |= 8;
      else {
        let weight = e * e;
        weight /= oneMinusH * oneMinusH;
        const u = terms[infl + 3]! * weight;
        if (weight !== 0 && u !== 0) v3 = v3 + u * terms[infl + 3]!;
      }
    }
  }
  return [v0, v1, v2, v3].map((x, c) => (one & (1 << c) ? null : x));
}

/** The CR1 sum over clusters of lane c, before its small-sample factor. */
function cr1Lane(plan: ProductColumnPlan, c: number): number {
  const { f, residuals, covariance, rowPattern, terms } = plan;
  const { n } = f;
  if (covariance.type !== "cr1") return NaN;
  const { cluster, clusterCount } = covariance;
  const sums = plan.sums.fill(0);
  for (let i = 0; i < n; i++) {
    const at = rowPattern[i]! * TERMS + c;
    const e = residuals[i]! - terms[at]!;
    if (e === 0) continue;
    const g = cluster[i]!;
    if (!(g >= 0 && g < clusterCount)) {
      throw new RangeError(
        `Cannot cluster row ${i}: cluster ${g} is not in 0..${clusterCount - 1}`,
      );
    }
    sums[g] = sums[g]! + terms[at + 2 * LANES]! * e;
  }
  let v = 0;
  for (let g = 0; g < clusterCount; g++) {
    const sg = sums[g]!;
    if (sg !== 0) v = v + sg * sg;
  }
  return v;
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
