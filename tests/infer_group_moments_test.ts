/**
 * rowsMean and rowsSampleVariance (lib/infer/diagnostics/group_moments.ts) against simple-statistics' mean
 * and sampleVariance of the same values as a list, bit for bit, on random rows of random values
 * spanning many magnitudes (where the compensated sum's branches and corrections matter).
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { mean, sampleVariance } from "simple-statistics";
import {
  rowsMean,
  rowsSampleVariance,
  valuesMean,
} from "../lib/infer/diagnostics/group_moments.ts";

Deno.test("rowsMean and rowsSampleVariance: the bits of simple-statistics on the listed values", () => {
  const value = fc.tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.integer({ min: -30, max: 30 }),
  )
    .map(([v, e]) => v * 2 ** e);
  const problem = fc.array(value, { minLength: 2, maxLength: 60 }).chain((values) =>
    fc.tuple(
      fc.constant(values),
      fc.array(fc.integer({ min: 0, max: values.length - 1 }), { minLength: 1, maxLength: 80 }),
    )
  );
  fc.assert(
    fc.property(problem, ([values, picked]) => {
      const all = Float64Array.from(values), rows = Int32Array.from(picked);
      const list = picked.map((i) => all[i]!);
      const m = rowsMean(all, rows);
      ok(Object.is(m, mean(list)), `mean of ${list}`);
      ok(Object.is(valuesMean(Float64Array.from(list)), mean(list)), `valuesMean of ${list}`);
      if (list.length > 1) {
        ok(
          Object.is(rowsSampleVariance(all, rows, m), sampleVariance(list)),
          `variance of ${list}`,
        );
      }
    }),
    { numRuns: 3000 },
  );
});
