import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull } from "./common.ts";

const LadderExitSchema = z.enum(["infra_abort", "accept", "reject", "budget_exhausted"]);
const CountsSchema = z.object({
  W: z.number(),
  L: z.number(),
  E: z.number(),
  INFRA: z.number(),
  /** All units so far (W + L + E + INFRA). */
  units: z.number(),
});

/** Cumulative counts and both e-values after one block of ladder_result.json. */
export const LadderBlockSchema = CountsSchema.extend({
  block: z.number(),
  e_accept: z.number(),
  e_reject: z.number(),
});

/** What a prefilled baseline cache would have done for a ladder's base arm. */
export const PrefillSchema = z.object({
  /** Base-arm units of the ladder (up to and including the exit block). */
  base_units: z.number(),
  /** Of those, units whose key the prefilled cache holds. */
  served: z.number(),
  /** Base-arm inferences (members) of the served units, i.e. rollouts saved. */
  saved: z.number(),
  /** Cache entries built from the baseline (INFRA units never enter). */
  cache_entries: z.number(),
  /** Baseline units left out of the cache because they were INFRA. */
  baseline_infra: z.number(),
});

/**
 * `ladder_result.json` of `gate ladder` (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { LadderResultSchema } from "./ladder.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(LadderResultSchema.safeParse({ format: "gatelab.ladder-result/v1", task_type: "counting" }).success, false);
 * ```
 */
export const LadderResultSchema = z.object({
  format: z.literal("gatelab.ladder-result/v1"),
  task_type: z.string(),
  alpha: z.number(),
  /** 1 / alpha: the level either e-value must reach. */
  threshold: z.number(),
  n_max: z.number(),
  block_size: z.number(),
  infra_max_rate: z.number(),
  prompts_version: z.string(),
  base_skill_sha256: z.string(),
  cand_skill_sha256: z.string(),
  exit: LadderExitSchema.nullable(),
  exit_block: numOrNull,
  counts: CountsSchema,
  /** Cumulative state after each block up to the exit. */
  blocks: list(LadderBlockSchema),
  /** Blocks recorded after the exit (ignored). */
  blocks_after_exit: z.number(),
  recorded_decision: LadderExitSchema.nullable(),
  /** What a cache prefilled from `--prefill`'s baseline would have served; null without one. */
  prefill: PrefillSchema.nullable(),
  conventions: z.record(z.string(), z.string()),
  inputs: list(z.unknown()),
  generator: GeneratorSchema,
});

/**
 * Parsed ladder_result.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type LadderResultJson = z.output<typeof LadderResultSchema>;
