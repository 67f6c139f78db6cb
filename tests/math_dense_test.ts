/**
 * The blocked kernels of lib/math/dense.ts, scalar and with their inner loops
 * in WebAssembly SIMD (orders from 16), give the very bits of the plain
 * one-dot-product-per-entry loops they replaced (kept below as the
 * reference, as they stood in lib/fit/augment.ts gramInverse and
 * lib/infer/diagnostics/joint_wald.ts quadraticInverse), on random SPD matrices of every
 * order from 1 to 40 (so every remainder of the 2- and 4-wide blocks) and a
 * few larger, with the same pivot decisions; and L L' and S S^{-1} are the
 * identity to rounding (an independent check of the values).
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  choleskyLower,
  inverseFromLowerInverse,
  lowerInverseByColumns,
  rowDots,
  spdInverse,
} from "../lib/math/dense.ts";
import { denseWasm } from "../lib/math/dense_wasm.ts";

/** The loops the kernels replaced: Cholesky, column-stored L^{-1}, L^{-T} L^{-1}. */
function reference(a: Float64Array, q: number, floor: ArrayLike<number>) {
  const l = a.slice();
  for (let t = 0; t < q; t++) {
    let d = l[t * q + t]!;
    for (let j = 0; j < t; j++) d -= l[t * q + j]! * l[t * q + j]!;
    if (!(d > floor[t]!)) return null;
    const root = Math.sqrt(d);
    l[t * q + t] = root;
    for (let u = t + 1; u < q; u++) {
      let s = l[u * q + t]!;
      for (let j = 0; j < t; j++) s -= l[u * q + j]! * l[t * q + j]!;
      l[u * q + t] = s / root;
    }
  }
  const lt = new Float64Array(q * q);
  for (let c = 0; c < q; c++) {
    const cq = c * q;
    lt[cq + c] = 1 / l[cq + c]!;
    for (let r = c + 1; r < q; r++) {
      const rq = r * q;
      let s = 0;
      for (let j = c; j < r; j++) s += l[rq + j]! * lt[cq + j]!;
      lt[cq + r] = -s / l[rq + r]!;
    }
  }
  const inverse = new Float64Array(q * q);
  for (let x = 0; x < q; x++) {
    for (let y = x; y < q; y++) {
      let s = 0;
      for (let r = y; r < q; r++) s += lt[x * q + r]! * lt[y * q + r]!;
      inverse[x * q + y] = s;
      inverse[y * q + x] = s;
    }
  }
  return { l, lt, inverse };
}

/** A random SPD matrix G'G + ridge (row-major, both triangles), G with n rows of entries in [-1, 1]. */
function spd(values: readonly number[], q: number, ridge: number): Float64Array {
  const n = q + 3;
  const a = new Float64Array(q * q);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < q; t++) {
      const gt = values[(i * q + t) % values.length]! * Math.sin(i * 7 + t * 3 + 1);
      for (let u = 0; u < q; u++) {
        a[t * q + u] = a[t * q + u]! +
          gt * values[(i * q + u) % values.length]! * Math.sin(i * 7 + u * 3 + 1);
      }
    }
  }
  for (let t = 0; t < q; t++) a[t * q + t] = a[t * q + t]! + ridge;
  return a;
}

function same(a: Float64Array, b: Float64Array, q: number, lowerOnly: boolean): boolean {
  for (let r = 0; r < q; r++) {
    for (let c = 0; c < (lowerOnly ? r + 1 : q); c++) {
      if (!Object.is(a[r * q + c], b[r * q + c])) return false;
    }
  }
  return true;
}

function check(a: Float64Array, q: number, floor: Float64Array): "factored" | "refused" {
  const want = reference(a, q, floor);
  let inverse: Float64Array = new Float64Array(0);
  for (const simd of [false, true]) {
    const l = a.slice();
    const passed = choleskyLower(l, q, floor, { simd });
    deepEqual(passed, want !== null, `pivot decision at q = ${q}, simd ${simd}`);
    if (!want) continue;
    ok(same(l, want.l, q, true), `L differs at q = ${q}, simd ${simd}`);
    const lt = lowerInverseByColumns(l, q, { simd });
    ok(same(lt, want.lt, q, false), `L^{-1} differs at q = ${q}, simd ${simd}`);
    inverse = inverseFromLowerInverse(lt, q, { simd });
    ok(same(inverse, want.inverse, q, false), `inverse differs at q = ${q}, simd ${simd}`);
  }
  for (const simd of [false, true]) {
    const whole = spdInverse(a.slice(), q, floor, { simd });
    deepEqual(whole === null, want === null, `spdInverse decision at q = ${q}, simd ${simd}`);
    if (whole && want) ok(same(whole, want.inverse, q, false), `spdInverse at q = ${q}`);
  }
  if (!want) return "refused";
  // Independent check: A A^{-1} = I to rounding.
  let worst = 0;
  for (let r = 0; r < q; r++) {
    for (let c = 0; c < q; c++) {
      let s = 0;
      for (let j = 0; j < q; j++) s += a[r * q + j]! * inverse[j * q + c]!;
      worst = Math.max(worst, Math.abs(s - (r === c ? 1 : 0)));
    }
  }
  ok(worst < 1e-8, `A A^{-1} off the identity by ${worst} at q = ${q}`);
  return "factored";
}

Deno.test("dense kernels: the same bits as the plain loops, every order 1 to 40 and larger", () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 7, maxLength: 60 }),
      fc.constantFrom(1e-3, 0.5, 4),
      (q, values, ridge) => {
        const a = spd(values, q, ridge);
        seen.add(check(a, q, new Float64Array(q)));
      },
    ),
    { numRuns: 300 },
  );
  ok(denseWasm() !== null, "this runtime has WebAssembly SIMD, so both paths were compared");
  for (const q of [61, 97, 130]) {
    check(spd([0.3, -0.7, 0.9, 0.1, -0.2, 0.55, -0.45], q, 0.1), q, new Float64Array(q));
  }
  deepEqual([...seen], ["factored"]);
});

Deno.test("dense kernels: a pivot at or below its floor stops the Cholesky as the plain loop does", () => {
  for (const q of [1, 2, 3, 4, 5, 6, 9, 12]) {
    const a = spd([0.3, -0.7, 0.9, 0.1, -0.2, 0.55, -0.45], q, 0.5);
    // Floors at each position in turn: just above the pivot there (from the reference), and
    // just below it.
    const pivots = reference(a, q, new Float64Array(q))!.l;
    for (let t = 0; t < q; t++) {
      const d = pivots[t * q + t]! ** 2;
      for (const [bound, want] of [[d * (1 + 1e-9), "refused"], [d * (1 - 1e-9), "factored"]]) {
        const floor = new Float64Array(q);
        floor[t] = bound as number;
        deepEqual(check(a, q, floor), want, `q ${q}, t ${t}`);
      }
    }
    // A singular matrix (a repeated row and column) and a NaN are refused.
    const singular = a.slice();
    if (q > 1) {
      for (let u = 0; u < q; u++) singular[(q - 1) * q + u] = singular[u]!;
      for (let u = 0; u < q; u++) singular[u * q + q - 1] = singular[u * q]!;
      singular[(q - 1) * q + q - 1] = singular[0]!;
      deepEqual(check(singular, q, new Float64Array(q).fill(1e-9)), "refused");
    }
    const nan = a.slice();
    nan[q * q - 1] = NaN;
    deepEqual(check(nan, q, new Float64Array(q)), "refused");
  }
});

Deno.test("rowDots: A B' entry by entry as the plain dot products of rows, both paths", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: 1, max: 11 }),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 5, maxLength: 50 }),
      (rowsA, rowsB, width, values) => {
        const at = (i: number) => values[i % values.length]! * Math.cos(i);
        const a = Float64Array.from({ length: rowsA * width }, (_, i) => at(i));
        const b = Float64Array.from({ length: rowsB * width }, (_, i) => at(3 * i + 1));
        const want = new Float64Array(rowsA * rowsB);
        for (let i = 0; i < rowsA; i++) {
          for (let r = 0; r < rowsB; r++) {
            let s = 0;
            for (let j = 0; j < width; j++) s += a[i * width + j]! * b[r * width + j]!;
            want[i * rowsB + r] = s;
          }
        }
        for (const simd of [false, true]) {
          const got = rowDots(a, rowsA, b, rowsB, width, { simd });
          ok(
            got.every((v, i) => Object.is(v, want[i])),
            `simd ${simd}`,
          );
        }
      },
    ),
    { numRuns: 300 },
  );
  // A known product: [[1, 2], [3, 4]] times the transpose of [[5, 6], [7, 8]].
  const small = rowDots(Float64Array.of(1, 2, 3, 4), 2, Float64Array.of(5, 6, 7, 8), 2, 2);
  deepEqual([...small], [17, 23, 39, 53]);
});
