/**
 * sortFloat64 (lib/math/sort_float64.ts) gives the bytes of the built-in
 * Float64Array sort: -0 before +0, infinities, subnormals, ties, views at
 * an offset into a larger buffer, and NaN left to the built-in sort.
 */
import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { sortFloat64 } from "../lib/math/sort_float64.ts";

const bytes = (a: Float64Array) =>
  new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));

const special = [
  0,
  -0,
  Infinity,
  -Infinity,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  1,
  -1,
  2 ** -1074 * 3,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
];

Deno.test("sortFloat64: the bytes of Float64Array.prototype.sort on random doubles and special values", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.double({ noNaN: true }),
          fc.constantFrom(...special),
          fc.integer({ min: -3, max: 3 }).map((v) => v / 4),
        ),
        { minLength: 0, maxLength: 3000, size: "max" },
      ),
      (list) => {
        const a = Float64Array.from(list);
        deepEqual(bytes(sortFloat64(a.slice())), bytes(a.slice().sort()));
      },
    ),
    { numRuns: 200, endOnFailure: true },
  );
});

Deno.test("sortFloat64: bootstrap-like draws, a view at an offset, and arrays with NaN", () => {
  // 10,000 draws around 0.05 with spread 0.02 (as a coefficient's bootstrap), sorted in a subarray.
  const buffer = new Float64Array(10_003);
  let x = 12345;
  for (let i = 0; i < buffer.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    buffer[i] = 0.05 + 0.02 * (x / 2 ** 32 - 0.5);
  }
  buffer[5] = -0;
  buffer[6] = 0;
  const view = buffer.subarray(2, 10_002);
  const outside = [buffer[0], buffer[1], buffer[10_002]];
  const want = view.slice().sort();
  sortFloat64(view);
  deepEqual(bytes(view), bytes(want));
  deepEqual([buffer[0], buffer[1], buffer[10_002]], outside);
  const withNaN = Float64Array.from({ length: 2000 }, (_, i) => (i === 700 ? NaN : Math.cos(i)));
  deepEqual(bytes(sortFloat64(withNaN.slice())), bytes(withNaN.slice().sort()));
});
