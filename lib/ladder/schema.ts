/**
 * Schemas of a ladder gate's inputs (docs/FORMAT.md, Extensions: ladder
 * gates): `ladder.json`, the lines of `units.jsonl`, and the lines of a
 * baseline run used to prefill the baseline cache.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a lowercase hex sha256");

/** The four exits of a ladder gate, in the order they are checked after each block. */
export const LADDER_EXITS = ["infra_abort", "accept", "reject", "budget_exhausted"] as const;

/** One exit of a ladder gate. */
export type LadderExit = (typeof LADDER_EXITS)[number];

/**
 * `ladder.json`.
 *
 * @example
 * ```ts
 * import { LadderSpecSchema } from "./schema.ts";
 * import { deepEqual } from "node:assert/strict";
 * const spec = { format: "gatelab.ladder/v1", task_type: "count", alpha: 0.05, n_max: 64, block_size: 8,
 *   infra_max_rate: 0.1, prompts_version: "v1", base_skill_sha256: "a".repeat(64), cand_skill_sha256: "b".repeat(64) };
 * deepEqual(LadderSpecSchema.safeParse(spec).success, true);
 * deepEqual(LadderSpecSchema.safeParse({ ...spec, n_max: 0 }).success, false);
 * deepEqual(LadderSpecSchema.safeParse({ ...spec, alpha: 1 }).success, false);
 * ```
 */
export const LadderSpecSchema = z.looseObject({
  format: z.literal("gatelab.ladder/v1"),
  task_type: z.string().min(1),
  alpha: z.number().gt(0, "alpha must be in (0, 1)").lt(1, "alpha must be in (0, 1)"),
  n_max: z.int().min(1, "n_max must be at least 1 unit"),
  block_size: z.int().min(1),
  infra_max_rate: z.number().min(0).max(1),
  prompts_version: z.string().min(1),
  base_skill_sha256: sha256,
  cand_skill_sha256: sha256,
  decision: z.enum(LADDER_EXITS).optional(),
});

/** A parsed ladder.json. */
export type LadderSpec = z.infer<typeof LadderSpecSchema>;

/** One inference of a unit: a question, its verdict and why generation stopped. */
export const MemberSchema = z.looseObject({
  question_id: z.string().min(1),
  correct: z.boolean().nullable(),
  stop_reason: z.string().min(1),
});

/** One answered question of a unit. */
export type Member = z.infer<typeof MemberSchema>;

/**
 * One line of units.jsonl. `arm` is checked separately (code `arm_unknown`).
 * A unit has one member, or two for an AR pair (both directions).
 */
export const UnitLineSchema = z.looseObject({
  block: z.int().min(0),
  unit_id: z.string().min(1),
  arm: z.string(),
  members: z.array(MemberSchema).min(1).max(2),
});

/** A parsed units.jsonl line with its line number. */
export type UnitLine = z.infer<typeof UnitLineSchema> & {
  readonly arm: "base" | "cand";
  readonly line: number;
};

/**
 * One line of a baseline run for `--prefill`: the unit of a task type, the
 * sha256 of the skill text and the prompts version it ran with.
 */
export const BaselineLineSchema = z.looseObject({
  task_type: z.string().min(1),
  unit_id: z.string().min(1),
  skill_sha256: sha256,
  prompts_version: z.string().min(1),
  members: z.array(MemberSchema).min(1).max(2),
});

/** A parsed baseline line. */
export type BaselineLine = z.infer<typeof BaselineLineSchema>;
