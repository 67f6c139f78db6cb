/**
 * The shapes of rewards_meta.json and recipe_comparison.json, derived from
 * their zod schemas in lib/contract/outputs/rewards.ts (the schemas are the
 * one declaration), and the recipe comparison `compareRecipes` returns,
 * made of the same fields. Their own file so that the comparison, the
 * documents built from it and the tables import the types without a cycle.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { RecipeComparisonSchema, RewardsMetaSchema } from "../contract/outputs/rewards.ts";
import type { Recipe } from "./recipe.ts";

/**
 * recipe_comparison.json, the document `gate reward --groups` writes
 * (zod-inferred: its schema and docs/reward.md document it).
 *
 * @ignore
 */
export type RecipeComparisonDocument = z.output<typeof RecipeComparisonSchema>;

/**
 * rewards_meta.json, the recipe, its conventions and totals
 * (zod-inferred: its schema and docs/reward.md document it).
 *
 * @ignore
 */
export type RewardsMetaDocument = z.output<typeof RewardsMetaSchema>;

/**
 * One recipe's comparison as recipe_comparison.json records it under the
 * recipe's name: group sizes and means, good - bad with its bootstrap
 * interval, Spearman's rho (zod-inferred).
 *
 * @ignore
 */
export type RecipeComparisonEntry = RecipeComparisonDocument["recipes"][string];

/**
 * One recipe's comparison with the recipe named: an entry of
 * recipe_comparison.json plus its `recipe` (zod-inferred).
 *
 * @ignore
 */
export type RecipeComparison = RecipeComparisonEntry & { readonly recipe: Recipe };

/**
 * Result of `compareRecipes`: draws and seed of the bootstrap, the group
 * members left out (null reward) and one comparison per recipe, in the
 * order given; the fields of recipe_comparison.json (zod-inferred).
 *
 * @ignore
 */
export type RecipeComparisonResult =
  & Pick<RecipeComparisonDocument["bootstrap"], "draws" | "seed">
  & Pick<RecipeComparisonDocument, "excluded_null">
  & { readonly recipes: readonly RecipeComparison[] };
