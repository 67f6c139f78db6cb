/**
 * rewards_meta.json and recipe_comparison.json assembled from their parts
 * (no computation here), in their documented field order.
 *
 * @module
 */
import { generatorMeta } from "../core/meta.ts";
import { QUANTILE_RULE } from "../math/quantile.ts";
import { PENALTY_GAMMA, REWARD_BY_LEVEL } from "./levels.ts";
import { MASK_REASONS } from "./mask.ts";
import type { Recipe, RewardLine } from "./recipe.ts";
import type {
  RecipeComparisonDocument,
  RecipeComparisonResult,
  RewardsMetaDocument,
} from "./reward_types.ts";

/** An input file as both documents record it. */
export interface RewardInput {
  /** The path as given. */
  readonly file: string;
  /** sha256 of its bytes. */
  readonly sha256: string;
}

/**
 * The recipe conventions both documents record: level rewards, the
 * penalty, masking, all-masked trajectories and the PRM weights' source.
 *
 * @param weightsPath The `--prm-weights` file, if any.
 * @returns The conventions, in their documented order.
 *
 * @example
 * ```ts
 * import { recipeConventions } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(recipeConventions(undefined).prm_weights.source, "default");
 * ```
 */
export function recipeConventions(weightsPath: string | undefined) {
  return {
    level_rewards: REWARD_BY_LEVEL,
    level_minus_one: "masked",
    penalty: {
      recipe: "B",
      gamma: PENALTY_GAMMA,
      rule: "x gamma once if any unmasked step is level 0",
    },
    masking: "session mode (any verdict): revoked -> revoked, provisional -> " +
      "provisional_not_final, no verdict -> no_verdict_record; legacy mode: every step final; " +
      "then level -1 -> level_minus_one; one reason per masked step",
    all_masked: "reward null, never 0",
    prm_weights: weightsPath === undefined
      ? { source: "default", weight: 1.0, note: "with uniform weights recipe C equals recipe A" }
      : { source: weightsPath, default_weight: 1.0, key: "<trajectory_id>:<order>" },
  };
}

/** What {@linkcode rewardsMetaDocument} and {@linkcode recipeComparisonDocument} record besides the numbers. */
export interface RewardDocumentOptions {
  /** The `--prm-weights` file, if any. */
  readonly weightsPath?: string | undefined;
  /** The command line (recorded as `generator.command`). */
  readonly command: string;
  /** The input files with their hashes. */
  readonly inputs: readonly RewardInput[];
}

/**
 * rewards_meta.json: the recipe, its conventions and the totals over its
 * lines (trajectories, null rewards, penalised, masked steps per reason).
 *
 * @param lines rewards.jsonl's lines of the recipe.
 * @param recipe The recipe.
 * @param options Weights file, command and inputs.
 * @returns The document.
 *
 * @example
 * ```ts
 * import { rewardsMetaDocument } from "./document.ts";
 * import { trajectoryReward } from "./recipe.ts";
 * import { deepEqual } from "node:assert/strict";
 * const lines = [trajectoryReward([{ trajectory_id: "a", order: 0, level: -1 }], "A")];
 * const meta = rewardsMetaDocument(lines, "A", { command: "gate reward", inputs: [] });
 * deepEqual([meta.totals.null_rewards, meta.totals.mask_reasons.level_minus_one], [1, 1]);
 * ```
 */
export function rewardsMetaDocument(
  lines: readonly RewardLine[],
  recipe: Recipe,
  options: RewardDocumentOptions,
): RewardsMetaDocument {
  const masked = Object.fromEntries(
    MASK_REASONS.map((r) => [r, lines.reduce((s, l) => s + l.mask_reasons[r], 0)]),
  );
  return {
    format: "gatelab.rewards_meta/v1",
    recipe,
    ...recipeConventions(options.weightsPath),
    ...(recipe === "C" ? { c_equals_a: lines.every((l) => l.equals_recipe_a) } : {}),
    totals: {
      trajectories: lines.length,
      null_rewards: lines.filter((l) => l.reward === null).length,
      penalized: lines.filter((l) => l.penalized).length,
      mask_reasons: masked,
    },
    generator: generatorMeta(options.command),
    inputs: options.inputs,
  };
}

/**
 * recipe_comparison.json: the bootstrap's conventions, Spearman's rule,
 * the members left out, per recipe its comparison (keyed by recipe),
 * whether recipe C equals A, the recipe conventions, generator and inputs.
 *
 * @param comparison Result of `compareRecipes` over every recipe.
 * @param cLines Recipe C's lines (for `c_equals_a`).
 * @param options Weights file, command and inputs.
 * @returns The document.
 *
 * @example
 * ```ts
 * import { recipeComparisonDocument } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = recipeComparisonDocument({ draws: 10, seed: 1, excluded_null: [], recipes: [{ recipe: "A",
 *   n_good: 1, n_bad: 1, mean_good: 1, mean_bad: 0, difference: 1, ci: [1, 1], n_reference: 0, spearman_rho: null }] },
 *   [], { command: "gate reward", inputs: [] });
 * deepEqual([Object.keys(doc.recipes), doc.bootstrap.draws, doc.c_equals_a], [["A"], 10, true]);
 * ```
 */
export function recipeComparisonDocument(
  comparison: RecipeComparisonResult,
  cLines: readonly RewardLine[],
  options: RewardDocumentOptions,
): RecipeComparisonDocument {
  return {
    format: "gatelab.recipe_comparison/v1",
    bootstrap: {
      draws: comparison.draws,
      seed: comparison.seed,
      resample: "within groups",
      draw_order: "one xoshiro128** createPrng(seed) stream; per draw n_good nextInt(n_good) " +
        "then n_bad nextInt(n_bad), members in groups.jsonl order; same indices for every recipe",
      interval: "percentile, q = 0.025 and 0.975",
      quantile_rule: QUANTILE_RULE,
    },
    spearman: "rho of reward against reference over scored group members with a reference; " +
      "average ranks for ties",
    excluded_null: comparison.excluded_null,
    recipes: Object.fromEntries(comparison.recipes.map(({ recipe: r, ...rest }) => [r, rest])),
    c_equals_a: cLines.every((l) => l.equals_recipe_a),
    ...recipeConventions(options.weightsPath),
    generator: generatorMeta(options.command),
    inputs: options.inputs,
  };
}
