/**
 * jointWald (lib/infer/diagnostics/joint_wald.ts: the interaction screen's joint Wald
 * statistic from sums over the nonzero entries) against jointWaldExtended
 * (the extended fit and its HC3 / CR1 sandwich block, the route statsmodels
 * is compared with in tests/infer_diagnostics_test.ts) on random 0/1 designs
 * whose extra columns are the products of pairs of design columns, as in the
 * screen: the same statistic to 1e-10 relative, the same null decisions, and
 * the cases the sums leave to the extended fit (a pivot below the Gram rule,
 * a leverage-1 row) give its very bits.
 */
import { deepEqual, ok } from "node:assert/strict";
import { createPrng, type Prng } from "../lib/math/prng.ts";
import { factorDesign, solveLeastSquares } from "../lib/fit/factor.ts";
import {
  jointWald,
  jointWaldExtended,
  type JointWaldOptions,
} from "../lib/infer/diagnostics/joint_wald.ts";

interface Problem {
  readonly n: number;
  readonly k: number;
  readonly q: number;
  readonly x: Uint8Array;
  readonly z: Uint8Array;
  readonly residuals: Float64Array;
}

/**
 * n x k design with entries 1 with probability `density`, y with a few
 * interactions and noise (`tails`: some rows' noise 20 times larger), and Z =
 * the products of every pair of columns that co-occur in at least two rows
 * (at most `maxQ` of them). null when the design is rank deficient.
 */
function problem(
  prng: Prng,
  n: number,
  k: number,
  options: { density?: number; maxQ?: number; tails?: boolean } = {},
): Problem | null {
  const density = options.density ?? 0.5;
  const x = new Uint8Array(n * k);
  for (let i = 0; i < n * k; i++) x[i] = prng.nextFloat() < density ? 1 : 0;
  let factor;
  try {
    factor = factorDesign(x, [n, k]);
  } catch {
    return null;
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = i * k;
    const noise = (prng.nextFloat() - 0.5) * (options.tails && prng.nextFloat() < 0.05 ? 20 : 1);
    y[i] = 0.3 * x[r]! - 0.2 * x[r + 1]! + 0.4 * x[r]! * x[r + 1]! - 0.3 * x[r + 2]! * x[r + 3]! +
      noise;
  }
  const pairs: [number, number][] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      let both = 0;
      for (let i = 0; i < n; i++) both += x[i * k + a]! & x[i * k + b]!;
      if (both >= 2 && pairs.length < (options.maxQ ?? Infinity)) pairs.push([a, b]);
    }
  }
  const q = pairs.length;
  const z = new Uint8Array(n * q);
  for (let i = 0; i < n; i++) {
    pairs.forEach(([a, b], t) => (z[i * q + t] = x[i * k + a]! & x[i * k + b]!));
  }
  const beta = solveLeastSquares(factor, y);
  const residuals = y.map((v, i) => {
    let s = v;
    for (let j = 0; j < k; j++) s -= x[i * k + j]! * beta[j]!;
    return s;
  });
  return { n, k, q, x, z, residuals };
}

/** Compares both routes; returns the relative difference and the fast route's name. */
function compare(
  p: Problem,
  options: JointWaldOptions,
): { route: string; relative: number } {
  const main = { factor: factorDesign(p.x, [p.n, p.k]), residuals: p.residuals };
  const fast = jointWald(main, p, options);
  const slow = jointWaldExtended(main, p, options);
  deepEqual(fast === null, slow === null, `null decisions differ: ${fast?.statistic} vs ${slow}`);
  if (fast === null || slow === null) return { route: "null", relative: 0 };
  const relative = Math.abs(fast.statistic - slow.statistic) / slow.statistic;
  ok(relative <= 1e-10, `${fast.route}: ${fast.statistic} vs ${slow.statistic} (${relative})`);
  if (fast.route === "extension") deepEqual(fast.statistic, slow.statistic);
  return { route: fast.route, relative };
}

function sweep(
  seed: number,
  shapes: readonly [number, number, number][],
  options: (n: number, prng: Prng) => JointWaldOptions,
  tails = false,
): Map<string, number> {
  const prng = createPrng(seed);
  const routes = new Map<string, number>();
  let worst = 0;
  for (const [n, k, repeats] of shapes) {
    for (let r = 0; r < repeats; r++) {
      const density = [0.5, 0.3, 0.7][r % 3]!;
      const p = problem(prng, n, k, { density, tails });
      if (!p || p.q === 0) continue;
      const { route, relative } = compare(p, options(n, prng));
      routes.set(route, (routes.get(route) ?? 0) + 1);
      worst = Math.max(worst, relative);
    }
  }
  ok(worst <= 1e-10, `worst relative difference ${worst}`);
  return routes;
}

Deno.test("jointWald: HC3 from the sums equals the extended fit's sandwich on random 0/1 designs", () => {
  // q from 3 to 28 products, n from 4 to 40 times k + q.
  const routes = sweep(20261201, [[400, 5, 6], [300, 8, 6], [2000, 8, 3]], () => ({}), true);
  deepEqual(routes.get("sums"), 15);
});

Deno.test("jointWald: HC3 with q large relative to n (k + q up to 0.9 n)", () => {
  // 45 products of 10 columns on 60 to 120 rows: leverages near 1 send some designs to the extended
  // fit (route "extension", identical bits); every other one is decided by the sums.
  const routes = sweep(7, [[60, 10, 8], [80, 10, 8], [120, 10, 8]], () => ({}));
  ok((routes.get("sums") ?? 0) >= 8, JSON.stringify([...routes]));
});

Deno.test("jointWald: CR1 from the cluster sums equals the extended fit's clustered block", () => {
  // Rows pooled two to five per cluster, clusters in random order; CR1 needs G - 1 >= q, so G is
  // kept above q.
  const clusters = (n: number, prng: Prng): JointWaldOptions => {
    const size = 2 + prng.nextInt(4);
    const clusterCount = Math.ceil(n / size);
    const relabel = Int32Array.from({ length: clusterCount }, (_, g) => g);
    for (let g = clusterCount - 1; g > 0; g--) {
      const h = prng.nextInt(g + 1);
      [relabel[g], relabel[h]] = [relabel[h]!, relabel[g]!];
    }
    const cluster = Int32Array.from({ length: n }, (_, i) => relabel[Math.floor(i / size)]!);
    return { covariance: "cr1", cluster, clusterCount };
  };
  const routes = sweep(11, [[600, 6, 6], [400, 8, 6], [160, 8, 4]], clusters, true);
  deepEqual(routes.get("sums"), 16);
});

Deno.test("jointWald: a leverage-1 row and a pivot below the Gram rule are left to the extended fit", () => {
  const prng = createPrng(3);
  const p = problem(prng, 2000, 6)!;
  // Row 0 becomes the only row with the product of columns 4 and 5 (leverage 1 in the extended fit).
  const k = p.k, x = Uint8Array.from(p.x);
  for (let i = 1; i < p.n; i++) if (x[i * k + 4]! & x[i * k + 5]!) x[i * k + 5] = 0;
  x[4] = 1;
  x[5] = 1;
  const q = 1, z = Uint8Array.from({ length: p.n }, (_, i) => x[i * k + 4]! & x[i * k + 5]!);
  const factor = factorDesign(x, [p.n, k]);
  const beta = solveLeastSquares(factor, p.residuals);
  const main = {
    factor,
    residuals: p.residuals.map((v, i) =>
      v - x[i * k]! * beta[0]! - x[i * k + 1]! * beta[1]! - x[i * k + 2]! * beta[2]! -
      x[i * k + 3]! * beta[3]! - x[i * k + 4]! * beta[4]! - x[i * k + 5]! * beta[5]!
    ),
  };
  const fast = jointWald(main, { z, q });
  deepEqual(fast, jointWaldExtended(main, { z, q }));
  deepEqual(fast, null); // the only coefficient of the block is undefined: no test, as before
  // A product column repeated with two rows changed (one 1 to 0, one 0 to 1): its pivot, about
  // 2 of the column's 500 or so, is below 1% of its squared norm (and no row has leverage 1).
  const z2 = new Uint8Array(p.n * 2);
  for (let i = 0; i < p.n; i++) z2[2 * i] = z2[2 * i + 1] = x[i * k + 2]! & x[i * k + 3]!;
  const one = z2.indexOf(1, 2) >> 1, zero = z2.indexOf(0, 2) >> 1; // rows other than row 0
  for (const i of [one, zero]) z2[2 * i + 1] = 1 - z2[2 * i + 1]!;
  const both = { z: z2, q: 2 };
  const slow = jointWaldExtended(main, both)!;
  deepEqual(jointWald(main, both), slow);
  deepEqual(slow.route, "extension");
});

Deno.test("jointWald: undefined tests are null on both routes", () => {
  const prng = createPrng(5);
  const p = problem(prng, 200, 6)!;
  const main = { factor: factorDesign(p.x, [p.n, p.k]), residuals: p.residuals };
  // A product equal to a design column: [X Z] is singular.
  const z = Uint8Array.from({ length: p.n * 2 }, (_, i) => (i % 2 === 0 ? p.x[(i / 2) * p.k]! : 0));
  for (let i = 0; i < p.n; i++) z[2 * i + 1] = p.x[i * p.k + 1]! & p.x[i * p.k + 2]!;
  deepEqual([jointWald(main, { z, q: 2 }), jointWaldExtended(main, { z, q: 2 })], [null, null]);
  // CR1 with one cluster; and n <= k + q.
  const one = { covariance: "cr1" as const, cluster: new Int32Array(p.n), clusterCount: 1 };
  deepEqual(jointWald(main, p, one), null);
  deepEqual(jointWaldExtended(main, p, one), null);
  const tiny = problem(createPrng(1), 12, 5)!;
  const tinyMain = { factor: factorDesign(tiny.x, [12, 5]), residuals: tiny.residuals };
  ok(tiny.k + tiny.q >= 12);
  deepEqual([jointWald(tinyMain, tiny), jointWaldExtended(tinyMain, tiny)], [null, null]);
});

Deno.test("jointWald: HC3 weight on a row where z_i and P'x_i nearly cancel is left to the extended fit", () => {
  // Column 1 is present in 95% of the rows with column 0, so their product z is nearly column 0
  // and ez_i = z_i - P'x_i is about 0.0126 on some rows (the Gram pivot is still far above 1%).
  // A large residual there puts the weight of M's diagonal where its terms are about
  // (1 + 1)^2 / 0.0126^2 = 25,000 times their sum: beyond CANCELLATION_LIMIT (1e4).
  const prng = createPrng(9);
  const n = 400, k = 3;
  const x = new Uint8Array(n * k);
  for (let i = 0; i < n; i++) {
    x[i * k] = prng.nextFloat() < 0.5 ? 1 : 0;
    x[i * k + 1] = prng.nextFloat() < (x[i * k] ? 0.95 : 0.5) ? 1 : 0;
    x[i * k + 2] = prng.nextFloat() < 0.5 ? 1 : 0;
  }
  const z = Uint8Array.from({ length: n }, (_, i) => x[i * k]! & x[i * k + 1]!);
  const factor = factorDesign(x, [n, k]);
  const y = Float64Array.from({ length: n }, () => prng.nextFloat() - 0.5);
  const pz = solveLeastSquares(factor, Float64Array.from(z));
  const fitted = (v: ArrayLike<number>, i: number) =>
    x[i * k]! * v[0]! + x[i * k + 1]! * v[1]! + x[i * k + 2]! * v[2]!;
  let row = -1, smallest = Infinity;
  for (let i = 0; i < n; i++) {
    const ez = Math.abs(z[i]! - fitted(pz, i));
    if (ez > 1e-9 && ez < smallest) [row, smallest] = [i, ez];
  }
  ok(smallest > 0.01 && smallest < 0.015, `${smallest}`);
  const residualsOf = (big: number) => {
    const yy = Float64Array.from(y);
    yy[row] = big;
    const b = solveLeastSquares(factor, yy);
    return yy.map((v, i) => v - fitted(b, i));
  };
  const quiet = { factor, residuals: residualsOf(y[row]!) };
  deepEqual(jointWald(quiet, { z, q: 1 })!.route, "sums");
  const loud = { factor, residuals: residualsOf(1000) };
  const slow = jointWaldExtended(loud, { z, q: 1 })!;
  deepEqual(jointWald(loud, { z, q: 1 }), slow);
  deepEqual(slow.route, "extension");
});

/** The (a, b) of every column of Z as `problem` chose them (pairs co-occurring in two rows). */
function productsOf(p: Problem): { a: number; b: number }[] {
  const out: { a: number; b: number }[] = [];
  for (let a = 0; a < p.k; a++) {
    for (let b = a + 1; b < p.k; b++) {
      let both = 0;
      for (let i = 0; i < p.n; i++) both += p.x[i * p.k + a]! & p.x[i * p.k + b]!;
      if (both >= 2) out.push({ a, b });
    }
  }
  return out;
}

/**
 * Whether jointWald reads the product sums from the sets of each row's columns: the work rule of
 * lib/infer/diagnostics/joint_wald.ts productSets, written out again.
 */
function setsCheaper(p: Problem, products: readonly { a: number; b: number }[]): boolean {
  const c = (m: number, r: number) => {
    let v = 1;
    for (let s = 0; s < r; s++) v = (v * (m - s)) / (s + 1);
    return Math.max(0, Math.round(v));
  };
  let pairWork = 0, setWork = 0;
  for (let i = 0; i < p.n; i++) {
    let m = 0, mx = 0;
    for (let j = 0; j < p.k; j++) mx += p.x[i * p.k + j]!;
    for (const { a, b } of products) m += p.x[i * p.k + a]! & p.x[i * p.k + b]!;
    pairWork += (m * (m + 1)) / 2 + m * mx;
    setWork += mx + c(mx, 2) + c(mx, 3) + c(mx, 4);
  }
  const q = products.length;
  setWork += c(p.k, 4) + c(p.k, 3) + (q * (q + 1)) / 2 + p.k * q;
  return setWork < pairWork;
}

Deno.test("jointWald: the products' set sums give the very bits of the pair sums, HC3 and CR1", () => {
  // The same problems as the sweeps above: with `products` the sums of Z'Z, X'Z and the HC3
  // weighted forms are read from the sets of each row's columns when that is less work; every
  // statistic and route is the same as without.
  const prng = createPrng(20261202);
  let viaSets = 0, compared = 0;
  for (
    const [n, k, covariance] of [
      [400, 5, "hc3"],
      [300, 8, "hc3"],
      [120, 10, "hc3"],
      [
        2000,
        8,
        "hc3",
      ],
      [600, 6, "cr1"],
      [400, 8, "cr1"],
    ] as const
  ) {
    for (let r = 0; r < 4; r++) {
      const p = problem(prng, n, k, { density: [0.5, 0.3, 0.7][r % 3]!, tails: r % 2 === 0 });
      if (!p || p.q === 0) continue;
      const products = productsOf(p);
      deepEqual(products.length, p.q);
      const main = { factor: factorDesign(p.x, [p.n, p.k]), residuals: p.residuals };
      const size = 2 + prng.nextInt(3);
      const options: JointWaldOptions = covariance === "hc3" ? {} : {
        covariance,
        cluster: Int32Array.from({ length: n }, (_, i) => Math.floor(i / size)),
        clusterCount: Math.ceil(n / size),
      };
      const plain = jointWald(main, p, options);
      const sets = jointWald(main, { ...p, products }, options);
      deepEqual(sets, plain);
      if (setsCheaper(p, products)) viaSets++;
      if (plain?.route === "sums") compared++;
    }
  }
  ok(viaSets >= 12 && compared >= 12, `${viaSets} read from the sets, ${compared} by the sums`);
});

Deno.test("jointWald: products that are not the columns of Z are refused", () => {
  const p = problem(createPrng(5), 200, 5)!;
  const products = productsOf(p);
  const main = { factor: factorDesign(p.x, [p.n, p.k]), residuals: p.residuals };
  const refused = (list: { a: number; b: number }[], message: RegExp) => {
    let error: unknown = null;
    try {
      jointWald(main, { ...p, products: list });
    } catch (e) {
      error = e;
    }
    ok(error instanceof RangeError && message.test(error.message), String(error));
  };
  refused(products.slice(1), /products for/);
  refused([{ a: 1, b: 1 }, ...products.slice(1)], /product 0 is of columns 1, 1/);
  refused([{ a: 0, b: 5 }, ...products.slice(1)], /product 0 is of columns 0, 5/);
  const swapped = [products[1]!, products[0]!, ...products.slice(2)];
  refused(swapped, /is not the product of columns/);
  // A one missing from Z (every one left is a product, but fewer than the products): the first
  // row and column that differ are named.
  const z = Uint8Array.from(p.z);
  const row = Array.from({ length: p.n }, (_, i) => i).find((i) => z[i * p.q + 1] === 1)!;
  z[row * p.q + 1] = 0;
  let error: unknown = null;
  try {
    jointWald(main, { ...p, z, products });
  } catch (e) {
    error = e;
  }
  ok(
    error instanceof RangeError && error.message.includes(`row ${row} of column 1 is not`),
    String(error),
  );
});
