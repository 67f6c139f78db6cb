/**
 * extendFit against a refit of the wide design [X Z] by the Householder QR of
 * lib/fit/factor.ts (the path statsmodels is compared with in
 * tests/infer_diagnostics_test.ts): coefficients, leverages and influence
 * vectors agree to 1e-12 on the Gram route (well-separated product columns),
 * on the QR fallback (a nearly dependent column), and a dependent column gives
 * null on both. The block covariances read from the stored product columns
 * of the influence vectors give the very bits they give from the whole
 * n x (k + q) matrix, with and without a leverage-1 row.
 */
import { deepEqual, ok } from "node:assert/strict";
import { extendFit, ExtendScratch } from "../lib/fit/augment.ts";
import { factorDesign, solveLeastSquares } from "../lib/fit/factor.ts";
import { clusterCovarianceBlock, robustCovarianceBlock } from "../lib/fit/covariance.ts";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** n x k 0/1 design, response, and the q = 3 products (0,1), (1,2), (0,2) plus a tweak of column 2 of Z. */
function problem(n: number, tweak: (zi: number[], u: () => number) => void) {
  const k = 4, q = 3, u = lcg(7);
  const x = new Float64Array(n * k), y = new Float64Array(n), z = new Float64Array(n * q);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) x[i * k + j] = u() < 0.5 ? 1 : 0;
    const r = i * k;
    y[i] = 0.3 * x[r]! - 0.2 * x[r + 1]! + 0.1 * x[r + 2]! + 0.4 * x[r]! * x[r + 1]! + (u() - 0.5);
    const zi = [x[r]! * x[r + 1]!, x[r + 1]! * x[r + 2]!, x[r]! * x[r + 2]!];
    tweak(zi, u);
    for (let t = 0; t < q; t++) z[i * q + t] = zi[t]!;
  }
  return { n, k, q, x, y, z };
}

function compare(p: ReturnType<typeof problem>, scratch?: ExtendScratch): void {
  const { n, k, q, x, y, z } = p;
  const f = factorDesign(x, [n, k]);
  const b = solveLeastSquares(f, y);
  const e = y.map((v, i) => {
    let s = v;
    for (let j = 0; j < k; j++) s -= x[i * k + j]! * b[j]!;
    return s;
  });
  const ext = extendFit(f, e, z, q, scratch)!;
  const wide = new Float64Array(n * (k + q));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) wide[i * (k + q) + j] = x[i * k + j]!;
    for (let t = 0; t < q; t++) wide[i * (k + q) + k + t] = z[i * q + t]!;
  }
  const full = factorDesign(wide, [n, k + q]);
  const coef = solveLeastSquares(full, y);
  const near = (a: number, c: number, what: string) =>
    ok(Math.abs(a - c) <= 1e-12 * Math.max(1, Math.abs(c)), `${what}: ${a} vs ${c}`);
  for (let t = 0; t < q; t++) near(ext.gamma[t]!, coef[k + t]!, `gamma ${t}`);
  for (let i = 0; i < n; i++) near(ext.leverage[i]!, full.leverage[i]!, `leverage ${i}`);
  for (let i = 0; i < n * (k + q); i++) {
    near(ext.influence[i]!, full.influence[i]!, `influence ${i}`);
  }
  ok(ext.dfResid === n - k - q);
}

Deno.test("extendFit: Gram route equals the refit of [X Z]", () => {
  compare(problem(200, () => {}));
  compare(problem(200, () => {}), new ExtendScratch());
});

Deno.test("extendFit: a nearly dependent product column (QR fallback) equals the refit", () => {
  // Column 2 of Z is column 0 plus a little noise: its pivot is about 1e-3 of its squared norm,
  // below the Gram route's share, above the rank rule.
  compare(problem(200, (zi, u) => (zi[2] = zi[0]! + 0.05 * (u() - 0.5))));
});

Deno.test("extendFit: a dependent product column gives null", () => {
  const p = problem(200, (zi) => (zi[2] = zi[0]!));
  const f = factorDesign(p.x, [p.n, p.k]);
  ok(extendFit(f, new Float64Array(p.n), p.z, p.q) === null);
});

/** The IEEE bits of each value (NaN and -0 included). */
const bits = (a: Float64Array) => new BigUint64Array(Float64Array.from(a).buffer);

Deno.test("extendFit: block covariances from the stored product columns have the bits of the whole influence matrix", () => {
  // The second problem's column 1 of Z is nonzero in row 0 only: that row has leverage 1.
  const cases = [problem(200, () => {}), problem(200, (zi, u) => (zi[1] = u() < 0 ? 1 : 0))];
  cases[1]!.z[1] = 1;
  for (const [c, p] of cases.entries()) {
    const f = factorDesign(p.x, [p.n, p.k]);
    const e = p.y.map((v, i) => v - 0.1 * (i % 3));
    for (const q of [1, p.q]) {
      const z = q === 1 ? p.z.filter((_, x) => x % p.q === 1) : p.z;
      const ext = extendFit(f, e, z, q)!;
      const whole = { n: ext.n, k: ext.k, leverage: ext.leverage, influence: ext.influence };
      for (const covType of ["hc0", "hc1", "hc3"] as const) {
        const lean = robustCovarianceBlock(ext, ext.residuals, covType, p.k);
        const full = robustCovarianceBlock(whole, ext.residuals, covType, p.k);
        deepEqual(bits(lean.covariance), bits(full.covariance));
        deepEqual(lean.undefinedColumns, full.undefinedColumns);
        deepEqual(lean.leverageOneRows, covType === "hc3" && c === 1 ? [0] : []);
      }
      const cluster = Int32Array.from({ length: p.n }, (_, i) => i >> 1);
      deepEqual(
        bits(clusterCovarianceBlock(ext, ext.residuals, cluster, p.n / 2, p.k)),
        bits(clusterCovarianceBlock(whole, ext.residuals, cluster, p.n / 2, p.k)),
      );
    }
  }
});
