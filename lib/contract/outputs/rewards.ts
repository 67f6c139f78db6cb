import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull, opaque, pair } from "./common.ts";

/**
 * One line of `rewards.jsonl` of `gate reward` (docs/FORMAT.md section 7).
 *
 * @example
 * ```ts
 * import { RewardLineSchema } from "./rewards.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(RewardLineSchema.safeParse({ trajectory_id: "t", recipe: "B", reward: null, n_steps: 2, n_masked: 2,
 *   mask_reasons: {}, verdict_mode: "legacy", penalized: false }).success, true);
 * ```
 */
export const RewardLineSchema = z.object({
  trajectory_id: z.string(),
  recipe: z.enum(["A", "B", "C"]),
  reward: numOrNull,
  n_steps: z.number(),
  n_masked: z.number(),
  mask_reasons: z.record(z.string(), z.number()),
  verdict_mode: z.enum(["session", "legacy"]),
  penalized: z.boolean(),
  /** Recipe C: uniform or PRM weights. */
  weights: z.enum(["uniform", "prm"]).optional(),
  /** Recipe C: whether the reward equals recipe A's. */
  equals_recipe_a: z.boolean().optional(),
});

/** The recipe conventions shared by rewards_meta.json and recipe_comparison.json. */
const recipeConventions = {
  level_rewards: z.record(z.string(), z.number()),
  level_minus_one: z.string(),
  penalty: opaque,
  masking: z.string(),
  all_masked: z.string(),
  prm_weights: opaque,
};

/**
 * `rewards_meta.json` of `gate reward`: the recipe, its conventions and totals.
 *
 * @example
 * ```ts
 * import { RewardsMetaSchema } from "./rewards.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(RewardsMetaSchema.safeParse({ format: "gatelab.rewards_meta/v1", recipe: "D" }).success, false);
 * ```
 */
export const RewardsMetaSchema = z.object({
  format: z.literal("gatelab.rewards_meta/v1"),
  recipe: z.enum(["A", "B", "C"]),
  ...recipeConventions,
  c_equals_a: z.boolean().optional(),
  totals: z.object({
    trajectories: z.number(),
    null_rewards: z.number(),
    penalized: z.number(),
    mask_reasons: z.record(z.string(), z.number()),
  }),
  generator: GeneratorSchema,
  inputs: list(z.object({ file: z.string(), sha256: z.string() })),
});

/**
 * `recipe_comparison.json` of `gate reward --groups` (docs/reward.md).
 *
 * @example
 * ```ts
 * import { RecipeComparisonSchema } from "./rewards.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(RecipeComparisonSchema.safeParse({ format: "gatelab.recipe_comparison/v1", recipes: [] }).success, false);
 * ```
 */
export const RecipeComparisonSchema = z.object({
  format: z.literal("gatelab.recipe_comparison/v1"),
  bootstrap: z.object({
    draws: z.number(),
    seed: z.number(),
    resample: z.string(),
    draw_order: z.string(),
    interval: z.string(),
    quantile_rule: z.string(),
  }),
  spearman: z.string(),
  excluded_null: list(z.string()),
  recipes: z.record(
    z.string(),
    z.object({
      n_good: z.number(),
      n_bad: z.number(),
      mean_good: numOrNull,
      mean_bad: numOrNull,
      difference: numOrNull,
      ci: pair.nullable(),
      n_reference: z.number(),
      spearman_rho: numOrNull,
    }),
  ),
  c_equals_a: z.boolean(),
  ...recipeConventions,
  generator: GeneratorSchema,
  inputs: list(z.object({ file: z.string(), sha256: z.string() })),
});

/**
 * One parsed rewards.jsonl line (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type RewardLineJson = z.output<typeof RewardLineSchema>;
/**
 * Parsed recipe_comparison.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type RecipeComparisonJson = z.output<typeof RecipeComparisonSchema>;
