/**
 * SubsetSums (lib/infer/diagnostics/_subset_sums.ts) against the direct sums over the rows (the same weights
 * in the same row order, so the same bits): every product-by-product, column-by-product and
 * column-by-column entry, on random 0/1 rows of 1 to 9 columns (fast-check).
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { SubsetSums } from "../lib/infer/diagnostics/_subset_sums.ts";

Deno.test("SubsetSums: each set's sum is the direct sum of the weights of the rows holding it", () => {
  const row = (k: number) => fc.array(fc.boolean(), { minLength: k, maxLength: k });
  const problem = fc.integer({ min: 1, max: 9 }).chain((k) =>
    fc.tuple(
      fc.constant(k),
      fc.array(fc.tuple(row(k), fc.double({ min: -5, max: 5, noNaN: true })), { maxLength: 30 }),
    )
  );
  fc.assert(
    fc.property(problem, ([k, rows]) => {
      const sums = new SubsetSums(k);
      const columns = new Int32Array(k);
      for (const [present, w] of rows) {
        let m = 0;
        present.forEach((p, j) => p && (columns[m++] = j));
        sums.add(columns, m, w);
      }
      /** The direct sum of w over the rows holding every column of `set`, in row order. */
      const direct = (set: readonly number[]) => {
        let s = 0;
        for (const [present, w] of rows) if (set.every((j) => present[j])) s += w;
        return s;
      };
      for (let a = 0; a < k; a++) {
        deepEqual(sums.one(a), direct([a]));
        for (let b = 0; b < k; b++) {
          deepEqual(sums.pair(a, b), direct([a, b]));
          if (a >= b) continue;
          for (let j = 0; j < k; j++) deepEqual(sums.withPair(j, a, b), direct([j, a, b]));
          for (let c = 0; c < k; c++) {
            for (let d = c + 1; d < k; d++) {
              deepEqual(sums.pairs(a, b, c, d), direct([a, b, c, d]), `${a} ${b} ${c} ${d}`);
            }
          }
        }
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("SubsetSums: set counts and the work of a row", () => {
  deepEqual([0, 1, 2, 3, 4, 5].map((r) => SubsetSums.sets(40, r)), [
    1,
    40,
    780,
    9880,
    91390,
    658008,
  ]);
  deepEqual(SubsetSums.sets(3, 4), 0);
  deepEqual([0, 1, 4, 17].map(SubsetSums.rowWork), [0, 1, 15, 17 + 136 + 680 + 2380]);
  // One row holding columns 1, 3, 4 of 5 with weight 2: the sets of its columns only.
  const sums = new SubsetSums(5);
  sums.add(Int32Array.from([1, 3, 4]), 3, 2);
  deepEqual([sums.pairs(1, 3, 3, 4), sums.pairs(1, 3, 0, 4), sums.withPair(4, 1, 3)], [2, 0, 2]);
  ok(sums.pair(3, 3) === 2 && sums.pair(0, 3) === 0);
});
