/**
 * rowQuadratic (lib/infer/diagnostics/_row_quadratic.ts) against the two-chain loop it replaces, bit for bit:
 * the same chains of adds (each s_a from 0, b ascending; the sum over a ascending), on random
 * symmetric matrices with entries over many magnitudes and random sets of ones, every length
 * from 0 to 40 (every remainder of the eight-chain blocks).
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { rowQuadratic } from "../lib/infer/diagnostics/_row_quadratic.ts";

/** The two-chain form (two indices a at a time). */
function twoChains(idx: Int32Array, m: number, matrix: Float64Array, q: number): number {
  let sum = 0, a = 0;
  for (; a + 1 < m; a += 2) {
    const ta = idx[a]!, at = ta * q, tb = idx[a + 1]!, bt = tb * q;
    let s = 0, t = 0;
    s += matrix[at + tb]!;
    for (let b = a + 2; b < m; b++) {
      const u = idx[b]!;
      s += matrix[at + u]!;
      t += matrix[bt + u]!;
    }
    sum += matrix[at + ta]! + 2 * s;
    sum += matrix[bt + tb]! + 2 * t;
  }
  if (a < m) sum += matrix[idx[a]! * q + idx[a]!]! + 2 * 0;
  return sum;
}

Deno.test("rowQuadratic: the bits of the two-chain loop", () => {
  const problem = fc.record({
    q: fc.integer({ min: 1, max: 40 }),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  });
  fc.assert(
    fc.property(problem, ({ q, share, seed }) => {
      let s = seed;
      const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
      const matrix = new Float64Array(q * q);
      for (let i = 0; i < q; i++) {
        for (let j = i; j < q; j++) {
          const v = (next() - 0.5) * 2 ** Math.floor(20 * next() - 10);
          matrix[i * q + j] = v;
          matrix[j * q + i] = v;
        }
      }
      const idx = new Int32Array(q);
      let m = 0;
      for (let t = 0; t < q; t++) if (next() < share) idx[m++] = t;
      const got = rowQuadratic(idx, m, matrix, q), want = twoChains(idx, m, matrix, q);
      ok(Object.is(got, want), `m = ${m}: ${got} vs ${want}`);
    }),
    { numRuns: 3000 },
  );
});
