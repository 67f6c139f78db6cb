/**
 * The report's section of reward recipes (recipe_comparison.json).
 *
 * @module
 */
import { type ReportSection, sectionItems } from "../table/section.ts";
import { rewardFigures } from "./figures.ts";
import type { RecipeComparisonDocument } from "./reward_types.ts";
import { recipeComparisonOfDocument, recipeComparisonTable } from "./tables.ts";

/**
 * The section "Reward recipes": the bundle's table, the recipe comparison
 * of recipe_comparison.json (the one `gate reward` writes), then its forest
 * of good-minus-bad differences (when a recipe has one).
 *
 * @param doc recipe_comparison.json.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { rewardSection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const entry = { n_good: 2, n_bad: 2, mean_good: 0.8, mean_bad: 0.5, difference: 0.3, ci: [0.2, 0.4] as const,
 *   n_reference: 0, spearman_rho: null };
 * const s = rewardSection({ bootstrap: { draws: 10, seed: 1 }, excluded_null: [], recipes: { A: entry } }, "out");
 * deepEqual([s.kind, s.heading, s.items.length, s.files], ["reward", "Reward recipes", 2, ["recipe_comparison.json"]]);
 * ```
 */
export function rewardSection(
  doc:
    & Pick<RecipeComparisonDocument, "excluded_null" | "recipes">
    & { readonly bootstrap: Pick<RecipeComparisonDocument["bootstrap"], "draws" | "seed"> },
  dir: string,
): ReportSection {
  return {
    kind: "reward",
    heading: "Reward recipes",
    items: sectionItems(
      [recipeComparisonTable(recipeComparisonOfDocument(doc))],
      rewardFigures(doc),
    ),
    dir,
    files: ["recipe_comparison.json"],
  };
}
