/**
 * `deno task bench-libraries`: the measurements behind README's library choices and the
 * interaction screen's rank-one update, as ratios in one run (never test assertions).
 *
 * 1. Descriptive statistics off the hot path: simple-statistics `mean` + `sampleStandardDeviation`
 *    against a hand-written two-pass loop, 10,000 values.
 * 2. The bootstrap's per-draw solve: ml-matrix `solve` (LU on a dense 16 x 16 Matrix) against the
 *    packed Cholesky of lib/math/packed.ts, 10,000 solves.
 * 3. Naming aliased columns (lib/validate/aliases.ts, ml-matrix) on a 200,000 x 16 design.
 * 4. The interaction screen's 120 pairs at M = 16: the rank-one update of the main fit
 *    (lib/fit `extendFit`) against a Householder refit of [X z] per pair, N = 4,000 and 40,000.
 *
 * Usage: deno task bench-libraries [--repeats 3]
 *
 * @module
 */
import { parseArgs } from "node:util";
import { mean, sampleStandardDeviation } from "simple-statistics";
import { Matrix, solve } from "ml-matrix";
import { createPrng } from "../lib/math/prng.ts";
import { choleskyPacked, choleskySolvePacked, packDense } from "../lib/math/packed.ts";
import { columnAliases } from "../lib/validate/aliases.ts";
import { designRank } from "../lib/validate/rank.ts";
import { factorDesign, solveLeastSquares } from "../lib/fit/factor.ts";
import { extendFit } from "../lib/fit/augment.ts";
import { robustCovarianceBlock } from "../lib/fit/covariance.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { repeats: { type: "string", default: "3" } },
});
const repeats = Number(values.repeats);
const prng = createPrng(20260927);

function best(f: () => void): number {
  let ms = Infinity;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    f();
    ms = Math.min(ms, performance.now() - t0);
  }
  return ms;
}
const rows: string[][] = [];
const report = (what: string, a: number, b: number, la: string, lb: string) =>
  rows.push([what, `${la} ${a.toFixed(2)} ms`, `${lb} ${b.toFixed(2)} ms`, (a / b).toFixed(2)]);

// 1. Descriptive statistics.
const xs = Array.from({ length: 10000 }, () => prng.nextFloat());
let sink = 0;
report(
  "mean + sd (ddof 1), 10,000 values, x100",
  best(() => {
    for (let r = 0; r < 100; r++) sink += mean(xs) + sampleStandardDeviation(xs);
  }),
  best(() => {
    for (let r = 0; r < 100; r++) {
      let s = 0;
      for (const v of xs) s += v;
      const m = s / xs.length;
      let q = 0;
      for (const v of xs) q += (v - m) * (v - m);
      sink += m + Math.sqrt(q / (xs.length - 1));
    }
  }),
  "simple-statistics",
  "hand loop",
);

// 2. 16 x 16 SPD solves.
const k = 16;
const design = Uint8Array.from({ length: 400 * k }, () => (prng.nextFloat() < 0.5 ? 1 : 0));
const xtx = new Float64Array(k * k), rhs = new Float64Array(k).fill(1);
for (let i = 0; i < 400; i++) {
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      xtx[a * k + b] = xtx[a * k + b]! + design[i * k + a]! * design[i * k + b]!;
    }
  }
}
const dense = new Matrix(
  Array.from({ length: k }, (_, a) => Array.from(xtx.subarray(a * k, a * k + k))),
);
const rhsM = Matrix.columnVector(Array.from(rhs));
const packed = packDense(xtx, k),
  absent = new Uint8Array(k),
  work = new Float64Array(packed.length);
const b = new Float64Array(k);
report(
  "16 x 16 normal-equation solve, x10,000",
  best(() => {
    for (let r = 0; r < 10000; r++) sink += solve(dense, rhsM).get(0, 0);
  }),
  best(() => {
    for (let r = 0; r < 10000; r++) {
      work.set(packed);
      choleskyPacked(work, k, absent);
      b.set(rhs);
      choleskySolvePacked(work, k, absent, b);
      sink += b[0]!;
    }
  }),
  "ml-matrix",
  "packed Cholesky",
);

// 3. Aliases of a 200,000 x 16 design (b = a, d = c1 + c2).
{
  const n = 200000;
  const x = new Uint8Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) x[i * k + j] = prng.nextFloat() < 0.5 ? 1 : 0;
    x[i * k + 3] = x[i * k + 2]!;
    x[i * k + 1] = x[i * k + 0]! ? 0 : x[i * k + 1]!;
    x[i * k + 4] = x[i * k + 0]! + x[i * k + 1]!;
  }
  const rankMs = best(() => void designRank(x, n, k));
  const dependent = designRank(x, n, k).dependent;
  const aliasMs = best(() => void columnAliases(x, n, k, dependent));
  report(
    "naming aliases after the rank check, N = 200,000",
    aliasMs,
    rankMs,
    "ml-matrix aliases",
    "rank check",
  );
}

// 4. Interaction screen: rank-one update vs per-pair refit.
for (const n of [4000, 40000]) {
  const x = Uint8Array.from({ length: n * k }, () => (prng.nextFloat() < 0.5 ? 1 : 0));
  const y = Float64Array.from({ length: n }, () => prng.nextFloat());
  const f = factorDesign(x, [n, k]);
  const beta = solveLeastSquares(f, y);
  const e = y.map((v, i) => {
    let s = v;
    for (let j = 0; j < k; j++) s -= x[i * k + j]! * beta[j]!;
    return s;
  });
  const z = new Float64Array(n);
  const xz = new Float64Array(n * (k + 1));
  const update = best(() => {
    for (let a = 0; a < k; a++) {
      for (let c = a + 1; c < k; c++) {
        for (let i = 0; i < n; i++) z[i] = x[i * k + a]! & x[i * k + c]!;
        const ext = extendFit(f, e, z, 1)!;
        sink += robustCovarianceBlock(ext, ext.residuals, "hc3", k).covariance[0]!;
      }
    }
  });
  const refit = best(() => {
    for (let a = 0; a < k; a++) {
      for (let c = a + 1; c < k; c++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < k; j++) xz[i * (k + 1) + j] = x[i * k + j]!;
          xz[i * (k + 1) + k] = x[i * k + a]! & x[i * k + c]!;
        }
        const g = factorDesign(xz, [n, k + 1]);
        const bz = solveLeastSquares(g, y);
        const ez = y.map((v, i) => {
          let s = v;
          for (let j = 0; j <= k; j++) s -= xz[i * (k + 1) + j]! * bz[j]!;
          return s;
        });
        sink += robustCovarianceBlock(g, ez, "hc3", k).covariance[0]!;
      }
    }
  });
  report(
    `interaction screen, 120 pairs, N = ${n}, M = 16`,
    update,
    refit,
    "rank-one update",
    "QR refit per pair",
  );
}

console.log("| measurement | gatelab choice | alternative | ratio |");
console.log("| --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (Number.isNaN(sink)) console.log("(sink)");
