/**
 * The sandwich sums in WebAssembly SIMD (lib/fit/_outer_sums.ts, used by robustCovarianceBlock and
 * clusterCovarianceBlock from order 4) against the plain loops they replace, bit for bit: every
 * entry of HC0-HC3 and CR1 covariance blocks on random influence vectors and residuals, with zero
 * residuals, rows at leverage 1, orders that are not multiples of two or four, row counts beyond
 * one block of the kernel's memory, and a trailing block.
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import {
  clusterCovarianceBlock,
  type CovType,
  LEVERAGE_ONE_TOLERANCE,
  robustCovarianceBlock,
} from "../lib/fit/covariance.ts";
import { addOuterSums } from "../lib/fit/_outer_sums.ts";

/** The upper-triangle sums of the HC loop as it was written before the kernel. */
function plainRobust(
  f: { n: number; k: number; leverage: Float64Array; influence: Float64Array },
  e: Float64Array,
  covType: CovType,
  from: number,
): Float64Array {
  const { n, k, leverage, influence } = f;
  const q = k - from;
  const cov = new Float64Array(q * q);
  const weighted = covType === "hc2" || covType === "hc3";
  for (let i = 0; i < n; i++) {
    const oneMinusH = 1 - leverage[i]!;
    if (weighted && oneMinusH < LEVERAGE_ONE_TOLERANCE) continue;
    let w = e[i]! * e[i]!;
    if (covType === "hc2") w /= oneMinusH;
    else if (covType === "hc3") w /= oneMinusH * oneMinusH;
    if (w === 0) continue;
    const base = i * k + from;
    for (let a = 0; a < q; a++) {
      const ua = influence[base + a]! * w;
      if (ua === 0) continue;
      for (let b = a; b < q; b++) cov[a * q + b] = cov[a * q + b]! + ua * influence[base + b]!;
    }
  }
  return cov;
}

/** The cluster sums of the CR1 loop as it was written before the kernel. */
function plainCluster(
  f: { n: number; k: number; influence: Float64Array },
  e: Float64Array,
  cluster: Int32Array,
  clusterCount: number,
  from: number,
): Float64Array {
  const { n, k, influence } = f;
  const q = k - from;
  const sums = new Float64Array(clusterCount * q), cov = new Float64Array(q * q);
  for (let i = 0; i < n; i++) {
    if (e[i] === 0) continue;
    for (let j = 0; j < q; j++) {
      const at = cluster[i]! * q + j;
      sums[at] = sums[at]! + influence[i * k + from + j]! * e[i]!;
    }
  }
  for (let g = 0; g < clusterCount; g++) {
    for (let a = 0; a < q; a++) {
      const sa = sums[g * q + a]!;
      if (sa === 0) continue;
      for (let b = a; b < q; b++) cov[a * q + b] = cov[a * q + b]! + sa * sums[g * q + b]!;
    }
  }
  return cov;
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const problems = fc.record({
  n: fc.oneof(fc.integer({ min: 30, max: 60 }), fc.integer({ min: 1000, max: 2600 })),
  k: fc.integer({ min: 4, max: 23 }),
  from: fc.integer({ min: 0, max: 3 }),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
}).map(({ n, k, from, seed }) => {
  const next = lcg(seed);
  const leverage = new Float64Array(n),
    influence = new Float64Array(n * k),
    e = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    leverage[i] = next() < 0.05 ? 1 : next() * 0.9;
    e[i] = next() < 0.1 ? 0 : (next() - 0.5) * 2 ** Math.floor(next() * 6 - 3);
    for (let j = 0; j < k; j++) influence[i * k + j] = next() < 0.2 ? 0 : next() - 0.5;
  }
  const clusterCount = Math.max(2, Math.floor(n / (1 + Math.floor(next() * 4))));
  const cluster = Int32Array.from({ length: n }, (_, i) => i % clusterCount);
  return { f: { n, k, leverage, influence }, e, from, cluster, clusterCount };
});

function sameUpper(name: string, got: Float64Array, want: Float64Array, q: number, scale: number) {
  for (let a = 0; a < q; a++) {
    for (let b = a; b < q; b++) {
      const w = want[a * q + b]! * scale, g = got[a * q + b]!;
      ok(
        Object.is(g, w) || (Number.isNaN(g) && Number.isNaN(w)),
        `${name} (${a}, ${b}): ${g} vs ${w}`,
      );
    }
  }
}

Deno.test("robust and cluster covariance blocks: the plain loops' bits", () => {
  fc.assert(
    fc.property(problems, ({ f, e, from, cluster, clusterCount }) => {
      const q = f.k - from;
      for (const covType of ["hc0", "hc1", "hc2", "hc3"] as const) {
        const got = robustCovarianceBlock(f, e, covType, from);
        const scale = covType === "hc1" ? f.n / (f.n - f.k) : 1;
        const want = plainRobust(f, e, covType, from);
        for (let a = 0; a < q; a++) {
          for (let b = a; b < q; b++) {
            if (got.undefinedColumns[a] || got.undefinedColumns[b]) want[a * q + b] = NaN;
          }
        }
        sameUpper(covType, got.covariance, want, q, scale);
      }
      const c = (clusterCount / (clusterCount - 1)) * ((f.n - 1) / (f.n - f.k));
      const got = clusterCovarianceBlock(f, e, cluster, clusterCount, from);
      sameUpper("cr1", got, plainCluster(f, e, cluster, clusterCount, from), q, c);
    }),
    { numRuns: 60 },
  );
});

Deno.test("addOuterSums: writes the upper triangle only, from zero", () => {
  // Rows (1, 2, 3, 4) and (5, 6, 7, 8) with weights 2 and 0.5.
  const values = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  const upper = new Float64Array(16).fill(-1);
  ok(addOuterSums(values, Float64Array.of(2, 0.5), { rows: 2, q: 4, stride: 4, offset: 0 }, upper));
  const want = (a: number, b: number) =>
    values[a]! * 2 * values[b]! + values[4 + a]! * 0.5 * values[4 + b]!;
  for (let a = 0; a < 4; a++) {
    for (let b = 0; b < 4; b++) ok(upper[a * 4 + b] === (b >= a ? want(a, b) : -1), `(${a}, ${b})`);
  }
});

Deno.test("robust and cluster blocks: a non-finite value in a row the loops skip leaves the bits", () => {
  const n = 40, k = 6, next = lcg(7);
  const leverage = new Float64Array(n),
    influence = new Float64Array(n * k),
    e = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    leverage[i] = next() * 0.5;
    e[i] = next() - 0.5;
    for (let j = 0; j < k; j++) influence[i * k + j] = next() - 0.5;
  }
  e[3] = 0; // row 3 adds nothing in the loops: its weight and its cluster sum are zero
  influence[3 * k + 2] = Infinity;
  const f = { n, k, leverage, influence };
  const cluster = Int32Array.from({ length: n }, (_, i) => i);
  for (const covType of ["hc0", "hc3"] as const) {
    const got = robustCovarianceBlock(f, e, covType, 0).covariance;
    ok(got.every(Number.isFinite), covType);
    sameUpper(covType, got, plainRobust(f, e, covType, 0), k, 1);
  }
  const c = (n / (n - 1)) * ((n - 1) / (n - k));
  const got = clusterCovarianceBlock(f, e, cluster, n, 0);
  ok(got.every(Number.isFinite), "cr1");
  sameUpper("cr1", got, plainCluster(f, e, cluster, n, 0), k, c);
});
