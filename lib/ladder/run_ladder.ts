/**
 * The ladder gate's decision: cumulative W/L/E/INFRA after each block, both
 * e-processes, and the first of the four exits that fires.
 *
 * @module
 */
import { ladderEValues } from "./e_process.ts";
import type { PairedUnit, UnitOutcome } from "./pair_units.ts";
import type { LadderExit } from "./schema.ts";
import type { z } from "npm:zod@4.6.7";
import type { LadderBlockSchema } from "../contract/outputs/ladder.ts";

/** Cumulative counts and e-values after one block (one of ladder_result.json's `blocks`). */
export type LadderBlock = z.output<typeof LadderBlockSchema>;

/** What {@linkcode runLadder} decides. */
export interface LadderRun {
  /** The exit, or null when the recorded units end before any exit. */
  readonly exit: LadderExit | null;
  readonly exit_block: number | null;
  /** Cumulative counts at the exit (at the last block without one). */
  readonly counts: { W: number; L: number; E: number; INFRA: number; units: number };
  /** Cumulative state after each block up to the exit. */
  readonly blocks: LadderBlock[];
  /** Blocks recorded after the exit (ignored). */
  readonly blocks_after_exit: number;
}

/** The gate parameters the decision needs. */
export interface LadderRule {
  readonly alpha: number;
  readonly n_max: number;
  readonly infra_max_rate: number;
}

/**
 * Runs the ladder's decision over paired units. After each block (in block
 * order) the exits are checked in this order: `infra_abort` (INFRA / units
 * so far > infra_max_rate), `accept` (E_accept >= 1/alpha), `reject`
 * (E_reject >= 1/alpha), `budget_exhausted` (units so far >= n_max).
 *
 * @param rule alpha, n_max, infra_max_rate.
 * @param pairs Paired units (any order; grouped by block here).
 * @returns The decision and the per-block path.
 *
 * @example
 * ```ts
 * import { runLadder } from "./run_ladder.ts";
 * import { deepEqual } from "node:assert/strict";
 * // Five wins per block: E_accept is 15.64 after block 0 and 360.79 >= 1/0.05 after block 1.
 * const pairs = [0, 1].flatMap((block) => Array.from({ length: 5 }, () => ({ block, outcome: "W" as const })));
 * // deno-lint-ignore no-explicit-any
 * const r = runLadder({ alpha: 0.05, n_max: 64, infra_max_rate: 0.2 }, pairs as any);
 * deepEqual([r.exit, r.exit_block, r.counts.W, r.blocks.length], ["accept", 1, 10, 2]);
 * ```
 */
export function runLadder(
  rule: LadderRule,
  pairs: readonly Pick<PairedUnit, "block" | "outcome">[],
): LadderRun {
  const byBlock = new Map<number, UnitOutcome[]>();
  for (const p of pairs) {
    const list = byBlock.get(p.block);
    if (list) list.push(p.outcome);
    else byBlock.set(p.block, [p.outcome]);
  }
  const blockIds = [...byBlock.keys()].sort((a, b) => a - b);
  const counts = { W: 0, L: 0, E: 0, INFRA: 0, units: 0 };
  const blocks: LadderBlock[] = [];
  const threshold = 1 / rule.alpha;
  for (let b = 0; b < blockIds.length; b++) {
    for (const o of byBlock.get(blockIds[b]!)!) counts[o]++;
    counts.units = counts.W + counts.L + counts.E + counts.INFRA;
    const e = ladderEValues(counts.W, counts.L);
    blocks.push({ block: blockIds[b]!, ...counts, e_accept: e.accept, e_reject: e.reject });
    const exit: LadderExit | null = counts.INFRA / counts.units > rule.infra_max_rate
      ? "infra_abort"
      : e.accept >= threshold
      ? "accept"
      : e.reject >= threshold
      ? "reject"
      : counts.units >= rule.n_max
      ? "budget_exhausted"
      : null;
    if (exit !== null) {
      return {
        exit,
        exit_block: blockIds[b]!,
        counts: { ...counts },
        blocks,
        blocks_after_exit: blockIds.length - b - 1,
      };
    }
  }
  return { exit: null, exit_block: null, counts: { ...counts }, blocks, blocks_after_exit: 0 };
}
