/**
 * Study estimates and the paired seeds x tasks bootstrap against an
 * independent numpy re-implementation driven by the same index stream.
 * Reference numbers: `python3 scripts/reference/study_bootstrap.py` writes
 * tests/data/reference/study_bootstrap.json, which this test reads
 * (numpy 2.4, its own Python xoshiro128** from prng_xoshiro.py; the draw
 * statistic there uses explicit fancy indexing of all reps of the sampled
 * cells). Fixture outcomes are that script's RandomState(7) arrays.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { createPrng } from "../lib/math/prng.ts";
import { analyzeStudy, type StudyInput } from "../lib/study/analyze.ts";
import { seedTaskBootstrap } from "../lib/study/bootstrap.ts";
import type { AttemptRecord, SlotRecord } from "../lib/study/schema.ts";
import { referenceJson } from "./reference_data.ts";

interface Reference {
  M: number[][][];
  B: number[][][];
  E: number[][][];
  F: number[][][];
  estimate_M: number;
  estimate_B: number;
  estimate_E: number;
  estimate_F: number;
  M_minus_B_ci_2000_seed20260927: [number, number];
  M_minus_B_first_draws: number[];
  E_minus_F_ci_2000_seed5: [number, number];
  E_minus_F_first_draws: number[];
}
const ref = await referenceJson<Reference>("study_bootstrap");
const { M, B, E, F } = ref;

/** Builds slots and one report attempt per slot from K x N x R outcome arrays. */
function study(
  arms: Record<string, number[][][]>,
  seeds: (number | string)[],
  comparisons: [string, string][],
  bootstrap: { draws: number; seed: number },
): StudyInput {
  const slots: { value: SlotRecord; line: number }[] = [];
  const attempts: { value: AttemptRecord; line: number }[] = [];
  for (const [arm, y] of Object.entries(arms)) {
    y.forEach((row, k) =>
      row.forEach((cell, i) =>
        cell.forEach((resolved, rep) => {
          const slot = { arm, train_seed: seeds[k]!, task_id: `t${i}`, rep };
          slots.push({ value: slot, line: slots.length + 1 });
          attempts.push({
            value: { ...slot, attempt: 0, kind: "report", resolved: resolved as 0 | 1 },
            line: attempts.length + 1,
          });
        })
      )
    );
  }
  return { plan: { format: "gatelab.studyplan/v1", comparisons, bootstrap }, slots, attempts };
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

Deno.test("study: nested means and seeds+tasks bootstrap match numpy", () => {
  const r = analyzeStudy(study({ M, B }, [1, 2, 3], [["M", "B"]], { draws: 2000, seed: 20260927 }));
  ok(r.ok);
  const [m, b] = r.value.arms;
  ok(close(m!.estimate!, ref.estimate_M) && close(b!.estimate!, ref.estimate_B));
  const c = r.value.comparisons[0]!;
  deepEqual([c.complete, c.resample], [true, "seeds+tasks"]);
  ok(close(c.estimate!, ref.estimate_M - ref.estimate_B));
  const [lo, hi] = ref.M_minus_B_ci_2000_seed20260927;
  ok(close(c.ci![0], lo) && close(c.ci![1], hi), `${c.ci}`);
  // Complete arms: the bounds collapse to S/H.
  ok(close(c.bounds[0], c.estimate!) && close(c.bounds[1], c.estimate!));
});

Deno.test("study: first draws equal the numpy draws (same index stream)", () => {
  const cells = (y: number[][][]) =>
    Float64Array.from(y.flat().map((cell) => cell.reduce((s, v) => s + v, 0) / cell.length));
  const diff = (a: number[][][], b: number[][][]) => {
    const ca = cells(a), cb = cells(b);
    return ca.map((v, i) => v - cb[i]!);
  };
  const mb = seedTaskBootstrap(diff(M, B), [3, 6], { draws: 3, prng: createPrng(20260927) });
  ref.M_minus_B_first_draws.forEach((v, i) => ok(close(mb[i]!, v), `draw ${i}: ${mb[i]} vs ${v}`));
  const ef = seedTaskBootstrap(diff(E, F), [1, 8], {
    draws: 3,
    prng: createPrng(5),
    resampleSeeds: false,
  });
  ref.E_minus_F_first_draws.forEach((v, i) => ok(close(ef[i]!, v), `draw ${i}: ${ef[i]} vs ${v}`));
});

Deno.test("study: one training seed per arm resamples tasks only and matches numpy", () => {
  const r = analyzeStudy(study({ E, F }, ["s42"], [["E", "F"]], { draws: 2000, seed: 5 }));
  ok(r.ok);
  const c = r.value.comparisons[0]!;
  deepEqual(c.resample, "tasks");
  ok(close(c.estimate!, ref.estimate_E - ref.estimate_F));
  const [lo, hi] = ref.E_minus_F_ci_2000_seed5;
  ok(close(c.ci![0], lo) && close(c.ci![1], hi), `${c.ci}`);
});

Deno.test("study: same seed gives the same result; bootstrap draws stay within cell range", () => {
  const input = study({ M, B }, [1, 2, 3], [["M", "B"]], { draws: 500, seed: 3 });
  const a = analyzeStudy(input), b = analyzeStudy(input);
  ok(a.ok && b.ok);
  deepEqual(a.value.comparisons, b.value.comparisons);
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 0, max: 1000 }),
      (K, N, seed) => {
        const cells = Float64Array.from({ length: K * N }, (_, i) => ((i * 7919) % 13) / 13 - 0.5);
        const draws = seedTaskBootstrap(cells, [K, N], { draws: 50, prng: createPrng(seed) });
        const lo = Math.min(...cells), hi = Math.max(...cells);
        return draws.every((d) => d >= lo - 1e-12 && d <= hi + 1e-12);
      },
    ),
    { numRuns: 50 },
  );
});
