/**
 * What `gate reward` computes, as one library call: one recipe's rewards
 * and rewards_meta.json, and with labelled groups every recipe's
 * comparison and recipe_comparison.json.
 *
 * @module
 */
import { type BootstrapOptions, resolveBootstrapOptions } from "../core/bootstrap_options.ts";
import { compareResolved } from "./compare.ts";
import {
  recipeComparisonDocument,
  type RewardDocumentOptions,
  rewardsMetaDocument,
} from "./document.ts";
import { type Recipe, RECIPES, type RewardLine } from "./recipe.ts";
import { computeRewards, type Trajectories } from "./rewards.ts";
import type {
  RecipeComparisonDocument,
  RecipeComparisonResult,
  RewardsMetaDocument,
} from "./reward_types.ts";
import type { GroupRecord } from "./schema.ts";

/** Options of {@linkcode rewardRun}: the documents', the recipe comparison's bootstrap and its inputs. */
export interface RewardRunOptions extends RewardDocumentOptions, BootstrapOptions {
  /** Recipe C's PRM weights per trajectory and step order (missing steps weigh 1). */
  readonly weights?: ReadonlyMap<string, ReadonlyMap<number, number>> | undefined;
  /** Labelled groups: compare every recipe on them. */
  readonly groups?: readonly GroupRecord[] | undefined;
}

/** The recipe comparison of a {@linkcode RewardRun}: the result and its document. */
export interface RewardComparison {
  /** Result of `compareRecipes` over recipes A, B, C. */
  readonly result: RecipeComparisonResult;
  /** recipe_comparison.json. */
  readonly doc: RecipeComparisonDocument;
}

/** Everything `gate reward` writes, before it is written. */
export interface RewardRun {
  /** The recipe asked for. */
  readonly recipe: Recipe;
  /** rewards.jsonl's lines of that recipe. */
  readonly lines: readonly RewardLine[];
  /** rewards_meta.json. */
  readonly meta: RewardsMetaDocument;
  /** With groups, the comparison of every recipe; else null. */
  readonly comparison: RewardComparison | null;
}

/**
 * Rewards of one recipe with their meta document and, with groups, the
 * comparison of recipes A, B and C on them (the asked recipe's lines
 * reused) with its document.
 *
 * @param trajectories From `loadSteps`.
 * @param recipe The recipe.
 * @param options Weights, groups, bootstrap, command and inputs.
 * @returns The run.
 * @throws {RangeError} When `draws` is not a positive integer.
 *
 * @example The demo's steps and groups, 200 draws
 * ```ts
 * import { loadGroups, loadSteps, valueOrThrow } from "../mod.ts";
 * import { rewardRun } from "./run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { trajectories } = valueOrThrow(await loadSteps("data/demo/steps/steps.jsonl"), "steps");
 * const { groups } = valueOrThrow(await loadGroups("data/demo/steps/groups.jsonl", trajectories), "groups");
 * const run = rewardRun(trajectories, "A", { groups, draws: 200, seed: 1, command: "gate reward", inputs: [] });
 * deepEqual([run.meta.totals.trajectories, run.comparison?.doc.recipes.A?.difference?.toFixed(3)], [30, "0.305"]);
 * ```
 */
export function rewardRun(
  trajectories: Trajectories,
  recipe: Recipe,
  options: RewardRunOptions,
): RewardRun {
  const { weights, groups } = options;
  const bootstrap = resolveBootstrapOptions(options);
  const lines = computeRewards(trajectories, recipe, weights);
  const meta = rewardsMetaDocument(lines, recipe, options);
  if (!groups) return { recipe, lines, meta, comparison: null };
  const all = Object.fromEntries(
    RECIPES.map((r) => [r, r === recipe ? lines : computeRewards(trajectories, r, weights)]),
  );
  const result = compareResolved(all, groups, bootstrap);
  const doc = recipeComparisonDocument(result, all["C"]!, options);
  return { recipe, lines, meta, comparison: { result, doc } };
}
