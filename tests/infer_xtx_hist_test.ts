/**
 * The histogram X'WX (lib/infer/bootstrap/_xtx_hist.ts) equals the pair-list X'WX
 * exactly, and the kernel gives the same bytes on either path, including
 * at the lane-packing boundaries (tasks x rows of the largest task at
 * 2^13 and 2^26).
 */
import { deepEqual, equal } from "node:assert/strict";
import { createPrng } from "../lib/math/prng.ts";
import { buildClusterSums, type ClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapKernel } from "../lib/infer/bootstrap/bootstrap_kernel.ts";
import {
  accumulateHist,
  buildXtxHistPlan,
  reduceHist,
  xtxHistWins,
} from "../lib/infer/bootstrap/_xtx_hist.ts";
import { packedSize } from "../lib/math/packed.ts";

/** Random 0/1 design (density `share`), `rows[c]` rows for task c, tasks' rows interleaved. */
function randomSums(seed: number, rows: number[], k: number, share = 0.5, m = 1): ClusterSums {
  const data = createPrng(seed);
  const cluster: number[] = [];
  const left = rows.slice();
  while (left.some((r) => r > 0)) {
    for (let c = 0; c < left.length; c++) {
      if (left[c]! > 0) {
        cluster.push(c);
        left[c] = left[c]! - 1;
      }
    }
  }
  const n = cluster.length;
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < share ? 1 : 0));
  const ys = Array.from(
    { length: m },
    () => Float64Array.from({ length: n }, () => data.nextFloat() - 0.5),
  );
  return buildClusterSums(design, ys, Int32Array.from(cluster), { k, clusterCount: rows.length });
}

/** X'WX from the pair lists, in plain doubles. */
function pairXtx(sums: ClusterSums, counts: ArrayLike<number>): number[] {
  const out = new Array<number>(packedSize(sums.k)).fill(0);
  for (let c = 0; c < sums.clusterCount; c++) {
    for (let e = sums.pairStart[c]!; e < sums.pairStart[c + 1]!; e++) {
      const q = sums.pairIndex[e]!;
      out[q] = out[q]! + counts[c]! * sums.pairValue[e]!;
    }
  }
  return out;
}

/** X'WX of `slots` count vectors through the histograms (unpacked: one lane per slot). */
function histXtx(sums: ClusterSums, lanes: number[][]): number[][] {
  const plan = buildXtxHistPlan(sums);
  const slots = lanes.length, g = sums.clusterCount, p = packedSize(sums.k);
  const packed = new Float64Array(g * slots);
  for (let c = 0; c < g; c++) for (let h = 0; h < slots; h++) packed[c * slots + h] = lanes[h]![c]!;
  const hist = new Float64Array(plan.bins * slots);
  const acc = new Float64Array(p * slots);
  accumulateHist(plan, hist, packed, slots);
  reduceHist(plan, hist, slots, acc, new Float64Array(256));
  equal(hist.every((v) => v === 0), true, "histograms are zeroed for the next block");
  return lanes.map((_, h) => Array.from({ length: p }, (_, q) => acc[q * slots + h]!));
}

Deno.test("X'WX from mask-byte histograms equals the pair-list sum exactly", () => {
  const cases: [number, number, number, number][] = [
    // [tasks, rows per task (max), k, density]
    [50, 1, 1, 0.5],
    [60, 1, 3, 0.5],
    [80, 1, 8, 0.5],
    [90, 1, 9, 0.5],
    [200, 1, 16, 0.5],
    [150, 1, 17, 0.3],
    [120, 1, 40, 0.5],
    [100, 4, 16, 0.5],
    [70, 6, 40, 0.4],
    [40, 3, 24, 0.9],
  ];
  let seed = 1;
  for (const [g, maxRows, k, share] of cases) {
    const draw = createPrng(seed * 7);
    const rows = Array.from({ length: g }, () => 1 + Math.floor(draw.nextFloat() * maxRows));
    const sums = randomSums(seed++, rows, k, share);
    for (const slots of [1, 2, 4, 3]) {
      const lanes = Array.from(
        { length: slots },
        (_, h) => Array.from({ length: g }, () => (h === 2 ? 0 : Math.floor(draw.nextFloat() * 4))),
      );
      const got = histXtx(sums, lanes);
      for (let h = 0; h < slots; h++) {
        deepEqual(got[h], pairXtx(sums, lanes[h]!), `g ${g} k ${k} slots ${slots} lane ${h}`);
      }
    }
  }
});

Deno.test("X'WX histograms: the cost rule picks them for many one-row tasks, not for few", () => {
  const many = randomSums(3, new Array(4000).fill(1), 16);
  equal(xtxHistWins(many, buildXtxHistPlan(many)), true);
  const few = randomSums(4, new Array(100).fill(1), 16);
  equal(xtxHistWins(few, buildXtxHistPlan(few)), false);
});

async function sha(values: Float64Array): Promise<string> {
  const h = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new Uint8Array(values.buffer as ArrayBuffer)),
  );
  return Array.from(h, (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("bootstrap kernel: pair lists and histograms, in WebAssembly and in scalar code, give the same draws byte for byte", async () => {
  // [tasks, rows of task 0 (others 1 or 2), k, draws]: tasks x largest rows just below and at
  // 2^13 (four 13-bit lanes, then two 26-bit) and 2^26 (two lanes, then one per double).
  const cases: [number, number, number, number, number][] = [
    [8191, 1, 1, 16, 9],
    [8192, 1, 1, 16, 9],
    [4096, 2, 2, 16, 10],
    [8192, 8191, 1, 6, 3],
    [8192, 8192, 1, 6, 3],
    [300, 5, 3, 40, 17],
    [500, 1, 1, 40, 11],
  ];
  let seed = 20;
  for (const [g, first, otherRows, k, draws] of cases) {
    const rows = Array.from({ length: g }, (_, c) => (c === 0 ? first : otherRows));
    const sums = randomSums(seed++, rows, k, 0.5, 2);
    const pairs = bootstrapKernel(sums, { draws, seed: 5, xtx: "pairs" });
    const hist = bootstrapKernel(sums, { draws, seed: 5, xtx: "histogram" });
    // The scalar loops (no WebAssembly) as the reference of both.
    const scalar = bootstrapKernel(sums, { draws, seed: 5, xtx: "pairs", wasm: false });
    const want = await sha(scalar.coefficients);
    equal(await sha(hist.coefficients), want, `g ${g} first ${first} k ${k}`);
    equal(await sha(pairs.coefficients), want, `g ${g} first ${first} k ${k}`);
    deepEqual(hist.status, scalar.status);
    deepEqual(pairs.status, scalar.status);
    equal(pairs.coefficients.some((v) => Number.isFinite(v)), true);
  }
});
