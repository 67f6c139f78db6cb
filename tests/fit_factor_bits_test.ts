/**
 * factorDesign (lib/fit/factor.ts) against the plain loops it was written as: Householder
 * reflections applied one column at a time, and every row's influence vector and leverage summed
 * over every column. The fast forms (four columns reflected side by side, only a row's nonzero
 * columns visited) must give the very same bits in every output array, on random 0/1 designs and
 * on real-valued designs with zeros, for widths that exercise every remainder of four.
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { factorDesign, solveLeastSquares, solveLeastSquaresMany } from "../lib/fit/factor.ts";

/** The factorisation as the plain loops compute it (the version before the fast forms). */
function plainFactor(design: ArrayLike<number>, n: number, k: number) {
  const x = Float64Array.from(design);
  const a = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) a[j * n + i] = x[i * k + j]!;
  const beta = new Float64Array(k), r = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    const col = j * n;
    let norm2 = 0;
    for (let i = j; i < n; i++) norm2 += a[col + i]! * a[col + i]!;
    const norm = Math.sqrt(norm2);
    const ajj = a[col + j]!;
    const alpha = ajj >= 0 ? -norm : norm;
    a[col + j] = ajj - alpha;
    const vtv = norm2 - ajj * ajj + (ajj - alpha) * (ajj - alpha);
    const b = 2 / vtv;
    beta[j] = b;
    for (let c = j + 1; c < k; c++) {
      const cc = c * n;
      let dot = 0;
      for (let i = j; i < n; i++) dot += a[col + i]! * a[cc + i]!;
      const s = b * dot;
      for (let i = j; i < n; i++) a[cc + i] = a[cc + i]! - s * a[col + i]!;
    }
    r[j * k + j] = alpha;
    for (let c = j + 1; c < k; c++) r[j * k + c] = a[c * n + j]!;
  }
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
  const leverage = new Float64Array(n), influence = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const row = i * k;
    let h = 0;
    for (let j = 0; j < k; j++) {
      let u = 0;
      for (let l = 0; l < k; l++) u += xtxInverse[j * k + l]! * x[row + l]!;
      influence[row + j] = u;
      h += x[row + j]! * u;
    }
    leverage[i] = h;
  }
  return { householder: a, beta, r, xtxInverse, leverage, influence };
}

function sameBits(name: string, got: Float64Array, want: Float64Array): void {
  ok(got.length === want.length, `${name}: length`);
  for (let i = 0; i < want.length; i++) {
    ok(Object.is(got[i], want[i]), `${name}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}

/** A design of full column rank (identity rows first), 0/1 or real with zeros. */
const designs = fc.record({
  k: fc.integer({ min: 1, max: 13 }),
  extra: fc.integer({ min: 1, max: 40 }),
  real: fc.boolean(),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
}).map(({ k, extra, real, seed }) => {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const n = k + extra;
  const design = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) {
      const on = i < k ? i === j : next() < 0.5;
      design[i * k + j] = !on ? 0 : real ? (next() - 0.5) * 2 ** Math.floor(next() * 8) : 1;
    }
  }
  return { n, k, design: real ? design : Uint8Array.from(design) };
});

Deno.test("factorDesign: the bits of the plain loops (reflections, influence, leverage)", () => {
  fc.assert(
    fc.property(designs, ({ n, k, design }) => {
      const got = factorDesign(design, [n, k]);
      const want = plainFactor(design, n, k);
      sameBits("householder", got.householder, want.householder);
      sameBits("beta", got.beta, want.beta);
      sameBits("r", got.r, want.r);
      sameBits("xtxInverse", got.xtxInverse, want.xtxInverse);
      sameBits("influence", got.influence, want.influence);
      sameBits("leverage", got.leverage, want.leverage);
    }),
    { numRuns: 400 },
  );
});

Deno.test("solveLeastSquaresMany: the bits of solveLeastSquares for each response", () => {
  const problems = fc.tuple(
    designs,
    fc.integer({ min: 1, max: 9 }),
    fc.integer({ min: 1, max: 1e6 }),
  );
  fc.assert(
    fc.property(problems, ([{ n, k, design }, count, seed]) => {
      let s = seed;
      const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5);
      const ys = Array.from({ length: count }, () => Float64Array.from({ length: n }, next));
      const f = factorDesign(design, [n, k]);
      const many = solveLeastSquaresMany(f, ys);
      ys.forEach((y, t) => sameBits(`response ${t}`, many[t]!, solveLeastSquares(f, y)));
    }),
    { numRuns: 200 },
  );
});
