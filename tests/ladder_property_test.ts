/**
 * Properties of the ladder gate (fast-check and Monte Carlo):
 * - under H0 (P(W | discordant) = 1/2) the accept exit fires in at most
 *   alpha of simulated gates, within Monte Carlo error;
 * - splitting the same units into blocks of other sizes never changes the
 *   counts (cumulative counts after a block equal the counts of the units
 *   up to it);
 * - the result does not depend on which arm's lines come first.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { createPrng } from "../lib/math/prng.ts";
import { pairUnits, type UnitOutcome } from "../lib/ladder/pair_units.ts";
import { runLadder } from "../lib/ladder/run_ladder.ts";
import type { Member } from "../lib/ladder/schema.ts";

type Line = { block: number; unit_id: string; arm: "base" | "cand"; members: Member[] };

Deno.test("under H0 the accept exit fires in at most alpha of runs (Monte Carlo)", () => {
  // 4000 gates of up to 256 units in blocks of 8; a unit is discordant with
  // probability 0.4 and then W or L with probability 1/2 each.
  const runs = 4000, alpha = 0.05;
  const prng = createPrng(20261130);
  let accepts = 0;
  for (let r = 0; r < runs; r++) {
    const pairs: { block: number; outcome: UnitOutcome }[] = [];
    for (let i = 0; i < 256; i++) {
      const u = prng.nextFloat();
      pairs.push({ block: Math.floor(i / 8), outcome: u < 0.2 ? "W" : u < 0.4 ? "L" : "E" });
    }
    const run = runLadder({ alpha, n_max: 256, infra_max_rate: 1 }, pairs);
    if (run.exit === "accept") accepts++;
  }
  const rate = accepts / runs;
  const mcError = 3 * Math.sqrt((alpha * (1 - alpha)) / runs);
  ok(rate <= alpha + mcError, `accept rate ${rate} exceeds ${alpha} + ${mcError}`);
  ok(accepts > 0, "the simulation should reach the accept exit sometimes");
});

const outcomes = fc.array(fc.constantFrom<UnitOutcome>("W", "L", "E", "INFRA"), {
  minLength: 1,
  maxLength: 120,
});

Deno.test("splitting the same units into other block sizes never changes the counts", () => {
  fc.assert(
    fc.property(
      outcomes,
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 1, max: 16 }),
      (os, a, b) => {
        const never = { alpha: 1e-300, n_max: 1e9, infra_max_rate: 1 };
        const runA = runLadder(
          never,
          os.map((outcome, i) => ({ block: Math.floor(i / a), outcome })),
        );
        const runB = runLadder(
          never,
          os.map((outcome, i) => ({ block: Math.floor(i / b), outcome })),
        );
        deepEqual(runA.counts, runB.counts);
        // After every block, the counts equal those of the units up to that block.
        for (const blocks of [{ run: runA, size: a }, { run: runB, size: b }]) {
          for (const blk of blocks.run.blocks) {
            const upTo = os.slice(0, Math.min(os.length, (blk.block + 1) * blocks.size));
            deepEqual(
              [blk.W, blk.L, blk.E, blk.INFRA],
              (["W", "L", "E", "INFRA"] as const).map((k) => upTo.filter((o) => o === k).length),
            );
          }
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("the result does not depend on which arm finished first", () => {
  const arm = fc.record({
    correct: fc.option(fc.boolean(), { nil: null }),
    stop_reason: fc.constantFrom("stop", "stop", "stop", "error", "parse_error"),
  });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(arm, arm), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (units, size, seed) => {
        const lines: Line[] = units.flatMap(([base, cand], i) => [
          {
            block: Math.floor(i / size),
            unit_id: `u${i}`,
            arm: "base" as const,
            members: [{ question_id: `q${i}`, ...base }],
          },
          {
            block: Math.floor(i / size),
            unit_id: `u${i}`,
            arm: "cand" as const,
            members: [{ question_id: `q${i}`, ...cand }],
          },
        ]);
        // Shuffle lines within each block (blocks stay in order).
        const prng = createPrng(seed);
        const shuffled = lines.map((l) => ({ l, key: l.block + prng.nextFloat() }))
          .sort((x, y) => x.key - y.key).map((x) => x.l);
        const decide = (ls: Line[]) => {
          const { pairs, issues } = pairUnits(ls.map((l, i) => ({ ...l, line: i + 1 })), "u", size);
          deepEqual(issues, []);
          return runLadder({ alpha: 0.05, n_max: 40, infra_max_rate: 0.3 }, pairs);
        };
        deepEqual(decide(shuffled), decide(lines));
      },
    ),
    { numRuns: 150 },
  );
});
