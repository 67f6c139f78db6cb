/**
 * The WebAssembly loops of the bootstrap kernel (lib/infer/bootstrap/_wasm_kernel.ts)
 * do what the scalar loops do, bit for bit: the same task counts from the
 * same stream (FastStream, itself checked against createPrng call for call
 * in infer_bootstrap_test.ts), and the same X'Wy doubles, so the kernel's
 * draws are the same bytes with and without WebAssembly.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { createPrng } from "../lib/math/prng.ts";
import { buildClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapKernel } from "../lib/infer/bootstrap/bootstrap_kernel.ts";
import { FastStream } from "../lib/infer/bootstrap/_fast_stream.ts";
import { simdRemainders, wasmKernel } from "../lib/infer/bootstrap/_wasm_kernel.ts";

/** The rows of a random gate: n rows over g tasks, k 0/1 columns, m metrics. */
function randomSums(seed: number, n: number, g: number, k: number, m: number) {
  const data = createPrng(seed);
  const cluster = Int32Array.from({ length: n }, (_, i) => (i < g ? i : data.nextInt(g)));
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  // Rewards on a 1e-4 grid, as recorded, negative deltas included; some exact zeros.
  const ys = Array.from(
    { length: m },
    () => Float64Array.from({ length: n }, () => Math.round((data.nextFloat() - 0.4) * 1e4) / 1e4),
  );
  return buildClusterSums(design, ys, cluster, { k, clusterCount: g });
}

const bytes = (a: Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

Deno.test("wasm kernel: this runtime has WebAssembly SIMD, so the kernel uses it", () => {
  ok(wasmKernel(randomSums(1, 10, 10, 3, 1), { slots: 2 }) !== null);
});

Deno.test("wasm kernel: counts equal FastStream.drawCounts lane by lane, and the stream ends in the same state", () => {
  // G = 2^k has no rejection (2^32 mod G = 0); G = 100,000 rejects x >= 2^32 - 67,296,
  // about once per 64,000 calls, so its 24 draws below pass through the rejection.
  for (const g of [1, 2, 3, 7, 64, 400, 4096, 4000, 100_000]) {
    const sums = randomSums(g, g, g, 2, 1);
    const wasm = wasmKernel(sums, { slots: 2 })!;
    for (const [seed, lanes] of [[1, 8], [20261201, 3], [2 ** 40 + 5, 8]] as const) {
      const scalar = new FastStream(seed), fast = new FastStream(seed);
      const want = new Float64Array(g * 8);
      for (let l = 0; l < lanes; l++) scalar.drawCounts(want, g, 8, l);
      wasm.draw(fast, lanes);
      deepEqual(bytes(wasm.counts), bytes(want), `G = ${g}, seed ${seed}`);
      deepEqual([fast.s0, fast.s1, fast.s2, fast.s3], [scalar.s0, scalar.s1, scalar.s2, scalar.s3]);
      wasm.skip(fast, 2);
      scalar.skipCounts(g);
      scalar.skipCounts(g);
      equal(fast.nextUint32(), scalar.nextUint32());
    }
  }
});

Deno.test("wasm kernel: eight draws side by side equal drawCounts, blocks with a rejection redrawn from the lane that met it", () => {
  // G = 100,000 meets a rejection about 1.6 times a draw, so nearly every block is redrawn
  // from some lane on; the small G never reject (or G = 2^k: rem = 0).
  for (const g of [1, 2, 3, 5, 64, 400, 4000, 100_000]) {
    const sums = randomSums(g, g, g, 2, 1);
    const wasm = wasmKernel(sums, { slots: 2, sideBySide: true })!;
    const scalar = new FastStream(20261201), fast = new FastStream(20261201);
    const limit = 0x100000000 - (0x100000000 % g), replay = new FastStream(20261201);
    const lanesRejecting = new Set<number>();
    for (let block = 0; block < 3; block++) {
      const want = new Float64Array(g * 8);
      for (let l = 0; l < 8; l++) {
        scalar.drawCounts(want, g, 8, l);
        for (let t = 0; t < g; t++) {
          while (replay.nextUint32() >= limit) lanesRejecting.add(l);
        }
      }
      wasm.draw(fast, 8);
      deepEqual(bytes(wasm.counts), bytes(want), `G = ${g}, block ${block}`);
      deepEqual([fast.s0, fast.s1, fast.s2, fast.s3], [scalar.s0, scalar.s1, scalar.s2, scalar.s3]);
    }
    if (g === 100_000) ok([1, 2, 3, 4, 5, 6, 7].some((l) => lanesRejecting.has(l)));
    if (g < 100_000) equal(lanesRejecting.size, 0);
  }
});

Deno.test("wasm kernel: draws skipped eight at a time side by side leave the stream where skipCounts does", () => {
  // 19 draws: two blocks side by side (at G = 100,000 nearly always redrawn from a rejection
  // on), then three one by one.
  for (const g of [1, 3, 400, 4000, 100_000]) {
    const wasm = wasmKernel(randomSums(g, g, g, 2, 1), { slots: 2, sideBySide: true })!;
    const scalar = new FastStream(77), fast = new FastStream(77);
    for (let d = 0; d < 19; d++) scalar.skipCounts(g);
    wasm.skip(fast, 19);
    deepEqual([fast.s0, fast.s1, fast.s2, fast.s3], [scalar.s0, scalar.s1, scalar.s2, scalar.s3]);
    equal(fast.nextUint32(), scalar.nextUint32(), `G = ${g}`);
  }
});

Deno.test("wasm kernel: the SIMD remainder equals x % G at the edges", () => {
  const gs = [1, 2, 3, 7, 400, 641, 65_535, 65_537, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 3 * 2 ** 30];
  gs.push(2 ** 32 - 2, 2 ** 32 - 1, 4_294_967_291);
  const data = createPrng(5);
  for (const g of gs) {
    const xs: number[] = [0, 1, 2, g - 1, g, g + 1, 2 ** 32 - 1, 2 ** 32 - 2, 2 ** 31, 2 ** 31 - 1];
    const top = Math.floor((2 ** 32 - 1) / g);
    for (const q of [1, 2, 3, top - 1, top, Math.floor(top / 2), Math.floor(top / 3)]) {
      for (const d of [-1, 0, 1]) xs.push(q * g + d);
    }
    for (let i = 0; i < 200; i++) xs.push(data.nextUint32());
    const inRange = Uint32Array.from(xs.filter((x) => x >= 0 && x < 2 ** 32));
    const got = simdRemainders(inRange, g)!;
    deepEqual(Array.from(got), Array.from(inRange, (x) => x % g), `G = ${g}`);
  }
});

Deno.test("wasm kernel: the test above passes through the rejection at G = 100,000", () => {
  // Its three draws under seed 20261201 make at least 3 G calls; count the rejected ones.
  const g = 100_000, limit = 0x100000000 - (0x100000000 % g);
  const stream = createPrng(20261201);
  let rejected = 0;
  for (let t = 0; t < 3 * g; t++) if (stream.nextUint32() >= limit) rejected++;
  ok(rejected >= 1, `${rejected} rejections`);
});

Deno.test("wasm kernel: the kernel's draws are the same bytes with and without WebAssembly (X'WX by pair lists and by histograms, pooled tasks, absent columns, singular draws)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 2, max: 60 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 27 }),
      fc.integer({ min: 0, max: 26 }),
      fc.constantFrom("pairs" as const, "histogram" as const),
      (seed, g, pool, k, m, draws, first, xtx) => {
        const sums = randomSums(seed, g * pool, g, k, m);
        const range = { first: Math.min(first, draws - 1), last: draws, xtx };
        const on = bootstrapKernel(sums, { draws, seed, ...range, wasm: true });
        const off = bootstrapKernel(sums, { draws, seed, ...range, wasm: false });
        deepEqual(bytes(on.coefficients), bytes(off.coefficients));
        deepEqual(on.status, off.status);
      },
    ),
    { numRuns: 120 },
  );
});

Deno.test("wasm kernel: draws in byte tallies (sent back to i32 ones at the limit) and X'WX task by task (push) give the scalar bytes", () => {
  // tallyLimit 1 and 2 send (nearly) every block back to the i32 tallies, as a count of 256
  // would; 256 is the default. push sums X'WX's lists task by task, the default at many tasks.
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 }),
      fc.integer({ min: 2, max: 60 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 19 }),
      fc.constantFrom("pairs" as const, "histogram" as const),
      fc.constantFrom(1, 2, 256),
      fc.boolean(),
      (seed, g, pool, k, m, draws, xtx, tallyLimit, push) => {
        const sums = randomSums(seed, g * pool, g, k, m);
        const wasmOptions = { sideBySide: false, tallyLimit, push };
        const on = bootstrapKernel(sums, { draws, seed, xtx, wasm: true, wasmOptions });
        const off = bootstrapKernel(sums, { draws, seed, xtx, wasm: false });
        deepEqual(bytes(on.coefficients), bytes(off.coefficients));
        deepEqual(on.status, off.status);
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("wasm kernel: byte tallies packed as they are flushed give the scalar bytes at the 26-bit and unpacked layouts", () => {
  // Tasks x rows of the largest task >= 2^13 packs two lanes a double, >= 2^26 one (a task of
  // 65,536 rows among 1,024).
  const big = 1024, giant = 65_536;
  const data = createPrng(12);
  const cluster = Int32Array.from(
    { length: giant + big - 1 },
    (_, i) => (i < big ? i : 0),
  );
  const design = Uint8Array.from(
    { length: cluster.length * 2 },
    () => (data.nextFloat() < 0.6 ? 1 : 0),
  );
  const y = Float64Array.from(cluster, () => Math.round((data.nextFloat() - 0.4) * 1e4) / 1e4);
  const cases = [
    randomSums(5, 9000, 3000, 4, 2),
    buildClusterSums(design, [y], cluster, { k: 2, clusterCount: big }),
  ];
  for (const sums of cases) {
    for (const push of [false, true]) {
      const wasmOptions = { sideBySide: false, push };
      const on = bootstrapKernel(sums, { draws: 11, seed: 3, wasm: true, wasmOptions });
      const off = bootstrapKernel(sums, { draws: 11, seed: 3, wasm: false });
      deepEqual(bytes(on.coefficients), bytes(off.coefficients), `G = ${sums.clusterCount}`);
      deepEqual(on.status, off.status);
    }
  }
});

Deno.test("wasm kernel: byte tallies count as drawCounts at G = 100,000 (rejections), the i32 redraw too", () => {
  const g = 100_000, sums = randomSums(3, g, g, 2, 1);
  for (const tallyLimit of [2, 256]) {
    const wasm = wasmKernel(sums, { slots: 2, sideBySide: false, tallyLimit })!;
    const scalar = new FastStream(17), fast = new FastStream(17);
    const want = new Float64Array(g * 8);
    for (let l = 0; l < 8; l++) scalar.drawCounts(want, g, 8, l);
    wasm.draw(fast, 8);
    deepEqual(bytes(wasm.counts), bytes(want), `limit ${tallyLimit}`);
    deepEqual([fast.s0, fast.s1, fast.s2, fast.s3], [scalar.s0, scalar.s1, scalar.s2, scalar.s3]);
    // The tallies were left zeroed: the next block counts from zero.
    wasm.draw(fast, 8);
    want.fill(0);
    for (let l = 0; l < 8; l++) scalar.drawCounts(want, g, 8, l);
    deepEqual(bytes(wasm.counts), bytes(want), `limit ${tallyLimit}, second block`);
  }
});

Deno.test("wasm kernel: a block mixing lanes solved side by side with absent-column and singular lanes gives the scalar bytes", () => {
  // 12 one-row tasks, k = 4: column 0 always 1; column 2 only in task 0 (absent when task 0
  // is not drawn, status 1); column 3 equals column 1 except in task 5 (singular when task 5
  // is not drawn, status 2). Each is about a third of the draws, so blocks of eight mix them.
  const g = 12, k = 4;
  const data = createPrng(11);
  const design = new Uint8Array(g * k);
  for (let c = 0; c < g; c++) {
    const x1 = data.nextFloat() < 0.5 ? 1 : 0;
    design.set([1, x1, c === 0 ? 1 : 0, c === 5 ? 1 - x1 : x1], c * k);
  }
  const ys = [0, 1].map(() => Float64Array.from({ length: g }, () => data.nextFloat() - 0.3));
  const sums = buildClusterSums(design, ys, Int32Array.from({ length: g }, (_, i) => i), {
    k,
    clusterCount: g,
  });
  const on = bootstrapKernel(sums, { draws: 61, seed: 9, wasm: true });
  const off = bootstrapKernel(sums, { draws: 61, seed: 9, wasm: false });
  deepEqual(bytes(on.coefficients), bytes(off.coefficients));
  deepEqual(on.status, off.status);
  const tally = [0, 0, 0];
  for (const s of on.status) tally[s]!++;
  ok(tally.every((t) => t >= 5), `statuses ${tally}`);
  let mixed = 0;
  for (let d0 = 0; d0 < 61; d0 += 8) {
    if (new Set(on.status.subarray(d0, d0 + 8)).size === 3) mixed++;
  }
  ok(mixed >= 2, `${mixed} blocks with all three statuses`);
});
