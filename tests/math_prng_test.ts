/**
 * lib/math/prng.ts against an implementation of xoshiro128** in C written
 * from the public-domain reference algorithm (scripts/reference/xoshiro128ss.c),
 * which checks itself against published test vectors of the reference
 * implementation before printing anything. `python3
 * scripts/reference/prng_xoshiro.py` compiles and runs it with cc, checks
 * that its independent Python port agrees, and writes
 * tests/data/reference/prng_xoshiro.json, read here (CI re-runs the script
 * and fails when the JSON changes).
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import { createPrng } from "../lib/math/prng.ts";

const REFERENCE: {
  readonly published_vectors: string;
  readonly published_outputs: readonly number[];
  readonly [stream: string]: unknown;
} = JSON.parse(
  await Deno.readTextFile(new URL("./data/reference/prng_xoshiro.json", import.meta.url)),
).reference;

/** A stream of the reference output by name. */
function stream(name: string): number[] {
  const value = REFERENCE[name];
  ok(Array.isArray(value) && value.length > 0, `no reference stream ${name}`);
  return value as number[];
}

Deno.test("prng: the C reference passed the published test vectors of xoshiro128**", () => {
  deepEqual(REFERENCE.published_vectors, "hold");
  // edorfaus/xoshiro-6502 test-rom/testdata.asm (made with the reference
  // C implementation): state 964D4A0C D40AB895 AD7FDECB 3006F0F0 gives
  // F1391922 6FE53806 A5BE2840 F510EE70.
  deepEqual(REFERENCE.published_outputs.slice(0, 4), [
    0xF1391922,
    0x6FE53806,
    0xA5BE2840,
    0xF510EE70,
  ]);
});

Deno.test("prng: first uint32 outputs match the C reference for several seeds", () => {
  // 2^32 + 7: the high 32 bits enter the seed state.
  for (const seed of [0, 1, 20260927, 4294967303]) {
    const expected = stream(`seed_${seed}`);
    const prng = createPrng(seed);
    deepEqual(expected.map(() => prng.nextUint32()), expected, `seed ${seed}`);
  }
  const prng = createPrng(7);
  const long = stream("stream_7_first_1000");
  deepEqual(long.map(() => prng.nextUint32()), long);
});

Deno.test("prng: nextInt and nextFloat follow the reference stream", () => {
  const prng = createPrng(20260927);
  deepEqual(Array.from({ length: 8 }, () => prng.nextInt(400)), stream("ints_20260927_n400"));
  deepEqual(Array.from({ length: 3 }, () => prng.nextFloat()), stream("floats_after"));
  // A bound above 2^31 exercises the rejection branch of nextInt.
  const big = createPrng(42);
  deepEqual(
    Array.from({ length: 6 }, () => big.nextInt(3000000000)),
    stream("ints_42_n3000000000"),
  );
  // The numbers pasted before the C reference existed still hold.
  deepEqual(stream("ints_20260927_n400"), [73, 207, 396, 96, 291, 73, 195, 258]);
  deepEqual(stream("floats_after"), [0.14841428744511675, 0.3312448642074486, 0.6651914645577657]);
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
