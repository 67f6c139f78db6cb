import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull } from "./common.ts";

const LadderExitSchema = z.enum(["infra_abort", "accept", "reject", "budget_exhausted"]);
const CountsSchema = z.object({
  W: z.number(),
  L: z.number(),
  E: z.number(),
  INFRA: z.number(),
  units: z.number(),
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
  blocks: list(CountsSchema.extend({
    block: z.number(),
    e_accept: z.number(),
    e_reject: z.number(),
  })),
  blocks_after_exit: z.number(),
  recorded_decision: LadderExitSchema.nullable(),
  prefill: z.object({
    base_units: z.number(),
    served: z.number(),
    saved: z.number(),
    cache_entries: z.number(),
    baseline_infra: z.number(),
  }).nullable(),
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
