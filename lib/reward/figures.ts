/**
 * Figures of a recipe comparison (recipe_comparison.json): the good-minus-
 * bad difference of every recipe with its bootstrap interval, drawn by the
 * generic forest plot.
 *
 * @module
 */
import { forestPlot } from "../figures/forest.ts";
import type { Figure } from "../table/figure.ts";
import type { RecipeComparisonDocument, RecipeComparisonResult } from "./reward_types.ts";

/**
 * The figures of recipe_comparison.json the report shows: `recipe_comparison`,
 * one row per recipe with a difference (file order), none when no recipe
 * has one. A notebook passes the result of `compareRecipes` itself (its
 * recipes listed in the same order): the same figure.
 *
 * @param doc recipe_comparison.json (its recipes), or the result of `compareRecipes`.
 * @returns The figures.
 *
 * @example
 * ```ts
 * import { rewardFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const entry = { n_good: 2, n_bad: 2, mean_good: 0.8, mean_bad: 0.5, difference: 0.3, ci: [0.2, 0.4] as const,
 *   n_reference: 0, spearman_rho: null };
 * deepEqual(rewardFigures({ recipes: { A: entry } }).map((f) => f.name), ["recipe_comparison"]);
 * deepEqual(rewardFigures({ recipes: { A: { ...entry, difference: null } } }), []);
 * deepEqual(rewardFigures({ recipes: [{ recipe: "A", ...entry }] })[0]!.svg,
 *   rewardFigures({ recipes: { A: entry } })[0]!.svg);
 * ```
 */
export function rewardFigures(
  doc: Pick<RecipeComparisonDocument, "recipes"> | Pick<RecipeComparisonResult, "recipes">,
): Figure[] {
  const recipes = Array.isArray(doc.recipes)
    ? doc.recipes.map(({ recipe, ...entry }) => [recipe, entry] as const)
    : Object.entries(doc.recipes);
  const rows = recipes.filter(([, r]) => r.difference !== null).map((
    [recipe, r],
  ) => ({
    label: `recipe ${recipe}`,
    estimate: r.difference,
    lo: r.ci?.[0] ?? null,
    hi: r.ci?.[1] ?? null,
  }));
  if (rows.length === 0) return [];
  return [forestPlot(rows, {
    name: "recipe_comparison",
    title: "Reward recipes: good minus bad mean reward",
    xLabel: "good − bad mean reward",
    intervalText: "95% bootstrap percentile interval (resampled within groups)",
    sort: false,
  })];
}
