/**
 * productColumnTest (lib/fit/product_column.ts) against the generic path it
 * replaces in the interaction screen: extendFit(f, e, z, 1) followed by the
 * product block of robustCovarianceBlock (HC3) or clusterCovarianceBlock
 * (CR1). Every field must be the very same bits (deepEqual compares numbers
 * with Object.is, so NaN and -0 count), on random 0/1 designs, a pair that
 * never co-occurs, a dependent product column and a leverage-1 row.
 */
import { deepEqual, equal, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { extendFit } from "../lib/fit/augment.ts";
import { clusterCovarianceBlock, robustCovarianceBlock } from "../lib/fit/covariance.ts";
import { type DesignFactorization, factorDesign, solveLeastSquares } from "../lib/fit/factor.ts";
import {
  planProductColumns,
  type ProductColumnCovariance,
  type ProductColumnTest,
  productColumnTest,
  productColumnTests,
} from "../lib/fit/product_column.ts";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Problem {
  readonly f: DesignFactorization;
  readonly e: Float64Array;
  readonly x: Uint8Array;
}

/** Factorisation of x and the residuals of y on it, as the screen's main fit computes them. */
function mainFit(x: Uint8Array, y: Float64Array, n: number, k: number): Problem {
  const f = factorDesign(x, [n, k]);
  const b = solveLeastSquares(f, y);
  const e = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let fitted = 0;
    for (let j = 0; j < k; j++) fitted += f.x[i * k + j]! * b[j]!;
    e[i] = y[i]! - fitted;
  }
  return { f, e, x };
}

/** Random n x k 0/1 design with a random response, or null when it is rank deficient. */
function randomProblem(seed: number, n: number, k: number, density: number): Problem | null {
  const u = lcg(seed);
  const x = new Uint8Array(n * k), y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) x[i * k + j] = u() < density ? 1 : 0;
    y[i] = 0.3 * x[i * k]! - 0.2 * x[i * k + 1]! + 0.5 * x[i * k]! * x[i * k + 1]! + u() - 0.5;
  }
  try {
    return mainFit(x, y, n, k);
  } catch {
    return null;
  }
}

/** The interaction screen's former per-pair code. */
function generic(
  p: Problem,
  a: number,
  b: number,
  covariance: ProductColumnCovariance,
): ProductColumnTest & { leverageOneRows: number } {
  const { f, e, x } = p;
  const { n, k } = f;
  const z = new Uint8Array(n);
  let nBoth = 0;
  for (let i = 0; i < n; i++) nBoth += z[i] = x[i * k + a]! & x[i * k + b]!;
  const fit = nBoth > 0 ? extendFit(f, e, z, 1) : null;
  if (!fit) return { nBoth, gamma: NaN, variance: NaN, df2: 0, leverageOneRows: 0 };
  if (covariance.type === "hc3") {
    const block = robustCovarianceBlock(fit, fit.residuals, "hc3", k);
    return {
      nBoth,
      gamma: fit.gamma[0]!,
      variance: block.covariance[0]!,
      df2: fit.dfResid,
      leverageOneRows: block.leverageOneRows.length,
    };
  }
  const { cluster, clusterCount } = covariance;
  const v = clusterCovarianceBlock(fit, fit.residuals, cluster, clusterCount, k)[0]!;
  return { nBoth, gamma: fit.gamma[0]!, variance: v, df2: clusterCount - 1, leverageOneRows: 0 };
}

/** Checks every pair of p; returns how many pairs had a fit and how many a leverage-1 row. */
function compareAll(p: Problem, covariance: ProductColumnCovariance): [number, number] {
  const plan = planProductColumns(p.f, p.e, covariance);
  let fitted = 0, leverageOne = 0;
  const pairs: { a: number; b: number }[] = [], wants: ProductColumnTest[] = [];
  for (let a = 0; a < p.f.k; a++) {
    for (let b = a + 1; b < p.f.k; b++) {
      const { leverageOneRows, ...want } = generic(p, a, b, covariance);
      deepEqual(productColumnTest(plan, a, b), want, `pair ${a} x ${b}`);
      pairs.push({ a, b });
      wants.push(want);
      if (want.df2 > 0) fitted++;
      if (leverageOneRows > 0) leverageOne++;
    }
  }
  // All pairs at once: four side by side, whatever mix of fits, no fits and leverage-1 pairs;
  // the row passes in WebAssembly SIMD (the default) and in the scalar loops.
  const scalar = planProductColumns(p.f, p.e, covariance, { simd: false });
  deepEqual(productColumnTests(plan, pairs), wants, "all pairs at once");
  deepEqual(productColumnTests(scalar, pairs), wants, "all pairs at once, scalar loops");
  deepEqual(productColumnTests(plan, [...pairs].reverse()), [...wants].reverse(), "reversed");
  return [fitted, leverageOne];
}

Deno.test("productColumnTest: HC3 bits equal extendFit + robustCovarianceBlock on random designs", () => {
  let fitted = 0, leverageOne = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 3, max: 8 }),
      fc.integer({ min: 0, max: 80 }),
      fc.double({ min: 0.2, max: 0.8, noNaN: true }),
      (seed, k, extra, density) => {
        const p = randomProblem(seed, k + 2 + extra, k, density);
        if (p === null) return;
        const [f, l] = compareAll(p, { type: "hc3" });
        fitted += f;
        leverageOne += l;
      },
    ),
    { numRuns: 150, seed: 20261201 },
  );
  // The fast path and the leverage-1 fallback were both exercised.
  ok(fitted > 500, `${fitted} pairs with a fit`);
  ok(leverageOne > 10, `${leverageOne} pairs with a leverage-1 row`);
});

Deno.test("productColumnTest: CR1 bits equal extendFit + clusterCovarianceBlock on random designs", () => {
  let fitted = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 3, max: 8 }),
      fc.integer({ min: 0, max: 80 }),
      fc.integer({ min: 1, max: 4 }),
      (seed, k, extra, perCluster) => {
        const n = k + 2 + extra;
        const p = randomProblem(seed, n, k, 0.5);
        if (p === null) return;
        const clusterCount = Math.ceil(n / perCluster);
        const cluster = Int32Array.from({ length: n }, (_, i) => (i * 7) % clusterCount);
        fitted += compareAll(p, { type: "cr1", cluster, clusterCount })[0];
      },
    ),
    { numRuns: 150, seed: 20261202 },
  );
  ok(fitted > 500, `${fitted} pairs with a fit`);
});

Deno.test("productColumnTest: large designs with repeated rows (shared patterns) keep the bits", () => {
  // 60 columns: rows are keyed by their column lists instead of a 2^j sum.
  for (const [seed, n, k] of [[1, 3000, 6], [2, 2000, 12], [3, 500, 16], [4, 150, 60]] as const) {
    const p = randomProblem(seed, n, k, 0.4)!;
    compareAll(p, { type: "hc3" });
    const cluster = Int32Array.from({ length: n }, (_, i) => i % 97);
    compareAll(p, { type: "cr1", cluster, clusterCount: 97 });
  }
});

Deno.test("productColumnTest: never co-occurring, dependent and leverage-1 product columns", () => {
  // Columns 0 and 1 never co-occur; 2 x 3 is present exactly where 3 is (dependent on column 3);
  // 0 x 4 co-occurs in one row only, which then has leverage 1 in [X z].
  const rows = [
    [1, 0, 1, 0, 1],
    [1, 0, 0, 0, 0],
    [0, 1, 1, 1, 1],
    [0, 1, 0, 0, 0],
    [1, 0, 1, 1, 0],
    [0, 1, 1, 1, 0],
    [0, 0, 1, 0, 1],
    [1, 0, 0, 0, 0],
    [0, 1, 0, 0, 1],
    [0, 0, 1, 0, 0],
    [0, 0, 0, 0, 1],
  ];
  const n = rows.length, k = 5;
  const x = Uint8Array.from(rows.flat());
  const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1) / 3);
  const p = mainFit(x, y, n, k);
  const plan = planProductColumns(p.f, p.e, { type: "hc3" });
  deepEqual(productColumnTest(plan, 0, 1), { nBoth: 0, gamma: NaN, variance: NaN, df2: 0 });
  deepEqual(productColumnTest(plan, 2, 3), { nBoth: 3, gamma: NaN, variance: NaN, df2: 0 });
  const one = generic(p, 0, 4, { type: "hc3" });
  equal(one.leverageOneRows, 1);
  const { leverageOneRows: _, ...want } = one;
  deepEqual(productColumnTest(plan, 0, 4), want);
  equal(want.nBoth, 1);
  ok(Number.isNaN(want.variance)); // the only row with the product determines gamma
  const [fitted] = compareAll(p, { type: "hc3" });
  ok(fitted > 0);
  compareAll(p, { type: "cr1", cluster: Int32Array.from(rows, (_, i) => i % 4), clusterCount: 4 });
});

Deno.test("planProductColumns: refuses a design entry other than 0 or 1", () => {
  const f = factorDesign(Float64Array.from([1, 0, 0, 2, 1, 1, 1, 0]), [4, 2]);
  throws(
    () => planProductColumns(f, new Float64Array(4), { type: "hc3" }),
    /Cannot plan product columns: row 1 column 1 is 2, not 0\/1/,
  );
});
