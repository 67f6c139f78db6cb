/**
 * lib/core/prng.ts against an independent Python implementation of
 * splitmix32-seeded xoshiro128** (scripts/reference/prng_xoshiro.py).
 * Reference numbers: `python3 scripts/reference/prng_xoshiro.py` (Python
 * 3.11), pasted below unchanged.
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import { createPrng } from "../lib/core/prng.ts";

const FIRST_UINT32: Record<number, number[]> = {
  0: [3809008728, 1133695204, 53579671, 2891528803, 139681546, 2203266335],
  1: [2442144158, 3238099751, 3819917871, 2104621829, 2021136066, 4223536128],
  20260927: [1500964473, 3762274207, 2008709996, 3661007696, 4040352291, 3401783673],
  // 2^32 + 7: the high 32 bits enter the seed state.
  4294967303: [3142239856, 2553708286, 2393956051, 857604252, 2106879000, 3899934706],
};

Deno.test("prng: first uint32 outputs match the Python reference for several seeds", () => {
  for (const [seed, expected] of Object.entries(FIRST_UINT32)) {
    const prng = createPrng(Number(seed));
    deepEqual(expected.map(() => prng.nextUint32()), expected, `seed ${seed}`);
  }
});

Deno.test("prng: nextInt and nextFloat follow the reference stream", () => {
  const prng = createPrng(20260927);
  deepEqual(Array.from({ length: 8 }, () => prng.nextInt(400)), [
    73,
    207,
    396,
    96,
    291,
    73,
    195,
    258,
  ]);
  deepEqual(Array.from({ length: 3 }, () => prng.nextFloat()), [
    0.14841428744511675,
    0.3312448642074486,
    0.6651914645577657,
  ]);
  // A bound above 2^31 exercises the rejection branch of nextInt.
  const big = createPrng(42);
  deepEqual(Array.from({ length: 6 }, () => big.nextInt(3000000000)), [
    2837322924,
    544945897,
    479756282,
    339756180,
    113173290,
    65323186,
  ]);
});

Deno.test("prng: ranges of nextInt, nextFloat and nextUint32", () => {
  const prng = createPrng(7);
  for (const n of [1, 2, 3, 10, 1000, 2 ** 32]) {
    for (let i = 0; i < 2000; i++) {
      const x = prng.nextInt(n);
      ok(Number.isInteger(x) && x >= 0 && x < n, `nextInt(${n}) gave ${x}`);
    }
  }
  for (let i = 0; i < 5000; i++) {
    const f = prng.nextFloat();
    ok(f >= 0 && f < 1, `nextFloat gave ${f}`);
    const u = prng.nextUint32();
    ok(Number.isInteger(u) && u >= 0 && u < 2 ** 32, `nextUint32 gave ${u}`);
  }
  deepEqual(createPrng(7).nextInt(1), 0);
});

Deno.test("prng: bad bounds and seeds are rejected", () => {
  const prng = createPrng(1);
  throws(() => prng.nextInt(0), RangeError);
  throws(() => prng.nextInt(1.5), RangeError);
  throws(() => prng.nextInt(2 ** 32 + 1), RangeError);
  throws(() => createPrng(0.5), RangeError);
  throws(() => createPrng(2 ** 53), RangeError);
});

Deno.test("prng: nextInt(10) is uniform by a chi-square bound", () => {
  // 100,000 draws into 10 cells: chi-square with 9 df. Its 0.9999 quantile
  // is 33.7 (scipy.stats.chi2.ppf(0.9999, 9) = 33.72), so a correct
  // generator fails this bound with probability 1e-4 per seed; the seeds are
  // fixed, so the test is deterministic.
  for (const seed of [1, 20260927]) {
    const prng = createPrng(seed);
    const counts = new Array<number>(10).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[prng.nextInt(10)]!++;
    const expected = n / 10;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    ok(chi2 < 33.72, `chi-square ${chi2} for seed ${seed}`);
  }
  // nextFloat into 20 equal bins, same bound for 19 df:
  // scipy.stats.chi2.ppf(0.9999, 19) = 50.80.
  const prng = createPrng(3);
  const bins = new Array<number>(20).fill(0);
  for (let i = 0; i < 100_000; i++) bins[Math.floor(prng.nextFloat() * 20)]!++;
  const chi2 = bins.reduce((s, c) => s + (c - 5000) ** 2 / 5000, 0);
  ok(chi2 < 50.80, `chi-square ${chi2} for nextFloat`);
});
