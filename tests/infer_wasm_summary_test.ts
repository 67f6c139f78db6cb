/**
 * The WebAssembly summaries of bootstrap draws (lib/infer/bootstrap/_wasm_summary.ts)
 * give the bits of the scalar loops they replace in finishBootstrap: the
 * non-NaN draws of a column summed in draw order, sorted as
 * Float64Array.prototype.sort, and the squared deviations summed in sorted
 * order.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { drawSummaries, scalarDrawSummaries } from "../lib/infer/bootstrap/_wasm_summary.ts";

const bytes = (a: Float64Array) => new Uint8Array(a.slice().buffer);

Deno.test("draw summaries, in WebAssembly and in the scalar fallback: gather, sum, sort and squares equal plain loops bit for bit", () => {
  const value = fc.oneof(
    { weight: 8, arbitrary: fc.double({ min: -1, max: 1, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(NaN, 0, -0, 1e-310, -1e-310, 1e300, -1e300) },
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 1500 }).chain((draws) =>
        fc.tuple(
          fc.constant(draws),
          fc.array(value, { minLength: draws * 3, maxLength: draws * 3 }),
        )
      ),
      (columns, [draws, list]) => {
        const stride = 3, table = Float64Array.from(list);
        for (
          const wasm of [
            drawSummaries(table, draws, stride)!,
            scalarDrawSummaries(table, draws, stride),
          ]
        ) {
          for (let offset = 0; offset < columns; offset++) {
            const want: number[] = [];
            let sum = 0;
            for (let d = 0; d < draws; d++) {
              const v = table[d * stride + offset]!;
              if (Number.isNaN(v)) continue;
              want.push(v);
              sum += v;
            }
            const sorted = Float64Array.from(want).sort();
            const mean = want.length > 0 ? sum / want.length : NaN;
            let ss = 0;
            for (let i = 0; i < sorted.length; i++) ss += (sorted[i]! - mean) ** 2;
            const got = wasm.column(offset);
            deepEqual(bytes(got.sorted), bytes(sorted));
            ok(Object.is(got.sum, sum), `sum ${got.sum} vs ${sum}`);
            ok(Object.is(wasm.squares(mean), ss));
          }
        }
      },
    ),
    { numRuns: 150, endOnFailure: true },
  );
});

Deno.test("wasm summaries: 10,000 draws of a coefficient, sorted as the built-in sort", () => {
  let x = 7;
  const table = Float64Array.from({ length: 20_000 }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return 0.05 + 0.02 * (x / 2 ** 32 - 0.5);
  });
  const wasm = drawSummaries(table, 10_000, 2)!;
  const got = wasm.column(1);
  const want = Float64Array.from({ length: 10_000 }, (_, d) => table[2 * d + 1]!).sort();
  equal(got.sorted.length, 10_000);
  deepEqual(bytes(got.sorted), bytes(want));
});
