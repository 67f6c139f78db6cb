/**
 * CancellationSums (lib/infer/diagnostics/_cancellation.ts) on random P and rows: the
 * WebAssembly SIMD path gives the very bits of the scalar path, and both equal
 * the plain per-row formula sum_i w_i (z_it - (P'x_i)_t)^2 and
 * sum_i w_i (z_it + |(P'x_i)_t|)^2 written out with P'x_i summed in the order
 * of x_i's ones (odd and even q, rows with no ones).
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { CancellationSums } from "../lib/infer/diagnostics/_cancellation.ts";
import { denseWasm } from "../lib/math/dense_wasm.ts";

Deno.test("CancellationSums: both paths and the plain formula agree bit for bit", () => {
  ok(denseWasm() !== null, "this runtime has WebAssembly SIMD, so both paths are compared");
  const problem = fc.record({
    k: fc.integer({ min: 1, max: 9 }),
    q: fc.integer({ min: 1, max: 41 }),
    values: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 3, maxLength: 40 }),
    rows: fc.array(
      fc.record({
        x: fc.array(fc.boolean(), { minLength: 9, maxLength: 9 }),
        z: fc.array(fc.boolean(), { minLength: 41, maxLength: 41 }),
        w: fc.double({ min: 0, max: 50, noNaN: true }),
      }),
      { maxLength: 12 },
    ),
  });
  fc.assert(
    fc.property(problem, ({ k, q, values, rows }) => {
      const pm = Float64Array.from(
        { length: k * q },
        (_, i) => values[i % values.length]! * (1 + i / 7),
      );
      const want = { entry: new Float64Array(q), terms: new Float64Array(q) };
      for (const row of rows) {
        for (let t = 0; t < q; t++) {
          let px = 0;
          for (let j = 0; j < k; j++) if (row.x[j]) px = px + pm[j * q + t]!;
          const zt = row.z[t] ? 1 : 0;
          const ez = zt - px, magnitude = zt + Math.abs(px);
          want.entry[t] = want.entry[t]! + row.w * ez * ez;
          want.terms[t] = want.terms[t]! + row.w * magnitude * magnitude;
        }
      }
      for (const simd of [false, true]) {
        const sums = new CancellationSums(pm, k, q, simd);
        sums.begin();
        for (const row of rows) {
          const xIdx = Int32Array.from(row.x.slice(0, k).flatMap((on, j) => (on ? [j] : [])));
          const zIdx = Int32Array.from(row.z.slice(0, q).flatMap((on, t) => (on ? [t] : [])));
          sums.add(xIdx, xIdx.length, zIdx, zIdx.length, row.w);
        }
        const got = sums.sums();
        for (let t = 0; t < q; t++) {
          ok(Object.is(got.entry[t], want.entry[t]), `entry ${t}, simd ${simd}, q ${q}`);
          ok(Object.is(got.terms[t], want.terms[t]), `terms ${t}, simd ${simd}, q ${q}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});
