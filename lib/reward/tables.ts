/**
 * Reward tables as {@linkcode Table} models for Markdown and LaTeX: a
 * summary of one recipe's rewards and the recipe comparison, from
 * `compareRecipes` or from recipe_comparison.json. Rewards and differences
 * print as lib/table/format.ts says.
 *
 * @module
 */
import { type Recipe, RECIPES, type RewardLine } from "./recipe.ts";
import type {
  RecipeComparisonDocument,
  RecipeComparisonEntry,
  RecipeComparisonResult,
} from "./reward_types.ts";
import {
  formatCount,
  formatEstimate,
  formatStatistic,
  formatWithInterval,
  intervalHeader,
} from "../table/format.ts";
import type { Table } from "../table/table.ts";

/**
 * What {@linkcode recipeComparisonTable} reads: a `compareRecipes` result,
 * whose recipes may also be named by any string (as recipe_comparison.json
 * keys them).
 */
export type RecipeComparisonTableInput =
  & Omit<RecipeComparisonResult, "recipes">
  & { readonly recipes: readonly (RecipeComparisonEntry & { readonly recipe: string })[] };

/**
 * Summary of one recipe's rewards: trajectories, null rewards, penalised
 * trajectories, mean reward over scored trajectories and masked steps per
 * reason.
 *
 * @param lines rewards.jsonl lines of one recipe.
 * @param recipe The recipe.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { rewardSummaryTable } from "./tables.ts";
 * import { trajectoryReward } from "./recipe.ts";
 * import { deepEqual } from "node:assert/strict";
 * const lines = [trajectoryReward([{ trajectory_id: "a", order: 0, level: 3 }], "A"),
 *   trajectoryReward([{ trajectory_id: "b", order: 0, level: -1 }], "A")];
 * deepEqual(rewardSummaryTable(lines, "A").rows, [["A", "2", "1", "0", "0.850", "0", "0", "0", "1"]]);
 * ```
 */
export function rewardSummaryTable(lines: readonly RewardLine[], recipe: Recipe): Table {
  const scored = lines.filter((l) => l.reward !== null);
  const sum = (f: (l: RewardLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  return {
    caption: `Trajectory rewards, recipe ${recipe}`,
    label: `tab:rewards-${recipe}`,
    columns: [
      { label: "Recipe" },
      { label: "Trajectories", align: "right" },
      { label: "Null reward", align: "right" },
      { label: "Penalised", align: "right" },
      { label: "Mean reward", align: "right" },
      { label: "Masked: revoked", align: "right" },
      { label: "provisional", align: "right" },
      { label: "no verdict", align: "right" },
      { label: "level −1", align: "right" },
    ],
    rows: [[
      recipe,
      formatCount(lines.length),
      formatCount(lines.length - scored.length),
      formatCount(lines.filter((l) => l.penalized).length),
      formatEstimate(
        scored.length === 0 ? null : scored.reduce((s, l) => s + l.reward!, 0) / scored.length,
      ),
      formatCount(sum((l) => l.mask_reasons.revoked)),
      formatCount(sum((l) => l.mask_reasons.provisional_not_final)),
      formatCount(sum((l) => l.mask_reasons.no_verdict_record)),
      formatCount(sum((l) => l.mask_reasons.level_minus_one)),
    ]],
    notes: [
      "Level rewards 4: 1.00, 3: 0.85, 2: 0.60, 1: 0.30, 0: 0.00; level -1 masked. " +
      "A: mean of unmasked steps; B: A x 0.30 if any unmasked step is level 0; C: PRM-weighted " +
      "mean. Null: every step masked (never scored 0). Mean over scored trajectories.",
      ...(recipe === "C"
        ? [
          lines.every((l) => l.equals_recipe_a)
            ? "Recipe C with uniform weights (1.0): identical to recipe A."
            : "Recipe C with PRM weights from a file; steps without a weight weigh 1.0.",
        ]
        : []),
    ],
  };
}

/**
 * The recipe comparison: per recipe the good-minus-bad mean difference,
 * its bootstrap interval, the group means and Spearman's rho.
 *
 * @param result Result of `compareRecipes` (or {@linkcode recipeComparisonOfDocument} of recipe_comparison.json).
 * @returns The table.
 * @example Recipes A and B on the demo's labelled groups, 200 draws
 * ```ts
 * import {
 *   compareRecipes, computeRewards, loadGroups, loadSteps, recipeComparisonTable, valueOrThrow,
 * } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { trajectories } = valueOrThrow(await loadSteps("data/demo/steps/steps.jsonl"), "steps");
 * const { groups } = valueOrThrow(await loadGroups("data/demo/steps/groups.jsonl", trajectories), "groups");
 * const rewards = { A: computeRewards(trajectories, "A"), B: computeRewards(trajectories, "B") };
 * const table = recipeComparisonTable(compareRecipes(rewards, groups, { draws: 200, seed: 1 }));
 * deepEqual(table.rows[0], ["A", "0.305 [0.246, 0.372]", "0.812", "0.507", "15 / 14", "0.67", "29"]);
 * ```
 */
export function recipeComparisonTable(result: RecipeComparisonTableInput): Table {
  return {
    caption: "Recipe comparison on labelled trajectory groups",
    label: "tab:recipe-comparison",
    columns: [
      { label: "Recipe" },
      { label: intervalHeader("Good − bad", "bootstrap, percentile"), align: "right" },
      { label: "Mean good", align: "right" },
      { label: "Mean bad", align: "right" },
      { label: "n good / bad", align: "right" },
      { label: "Spearman rho", align: "right" },
      { label: "n ref", align: "right" },
    ],
    rows: result.recipes.map((r) => [
      r.recipe,
      formatWithInterval(r.difference, r.ci),
      formatEstimate(r.mean_good),
      formatEstimate(r.mean_bad),
      `${r.n_good} / ${r.n_bad}`,
      formatStatistic(r.spearman_rho),
      formatCount(r.n_reference),
    ]),
    notes: [
      `Percentile intervals from ${result.draws} draws, seed ${result.seed}, resampling within ` +
      "each group (same indices for every recipe); ends are sorted draws at zero-based index " +
      "floor(q(B-1)), q = 0.025, 0.975.",
      "Spearman's rho of reward against the reference score, average ranks for ties. " +
      `Trajectories with a null reward left out: ${result.excluded_null.length}.`,
    ],
  };
}

/**
 * recipe_comparison.json as the comparison {@linkcode recipeComparisonTable}
 * reads: draws and seed of its bootstrap, the members left out, and its
 * recipes in file order, each named.
 *
 * @param doc recipe_comparison.json.
 * @returns The table's input.
 *
 * @example
 * ```ts
 * import { recipeComparisonOfDocument } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const entry = { n_good: 1, n_bad: 1, mean_good: 1, mean_bad: 0, difference: 1, ci: null, n_reference: 0, spearman_rho: null };
 * const r = recipeComparisonOfDocument({ bootstrap: { draws: 10, seed: 1 }, excluded_null: [], recipes: { B: entry } });
 * deepEqual([r.draws, r.recipes[0]!.recipe], [10, "B"]);
 * ```
 */
export function recipeComparisonOfDocument(
  doc:
    & Pick<RecipeComparisonDocument, "excluded_null" | "recipes">
    & { readonly bootstrap: Pick<RecipeComparisonDocument["bootstrap"], "draws" | "seed"> },
): RecipeComparisonTableInput {
  return {
    draws: doc.bootstrap.draws,
    seed: doc.bootstrap.seed,
    excluded_null: doc.excluded_null,
    recipes: Object.entries(doc.recipes).map(([recipe, r]) => ({ recipe, ...r })),
  };
}

/**
 * The tables `gate reward` writes: the recipe's summary and, with groups,
 * the recipe comparison.
 *
 * @param lines rewards.jsonl's lines of the recipe.
 * @param recipe The recipe.
 * @param comparison The recipe comparison, or null without groups.
 * @returns The tables, summary first.
 *
 * @example
 * ```ts
 * import { rewardTables } from "./tables.ts";
 * import { trajectoryReward } from "./recipe.ts";
 * import { deepEqual } from "node:assert/strict";
 * const lines = [trajectoryReward([{ trajectory_id: "a", order: 0, level: 3 }], "A")];
 * deepEqual(rewardTables(lines, "A", null).map((t) => t.label), ["tab:rewards-A"]);
 * ```
 */
export function rewardTables(
  lines: readonly RewardLine[],
  recipe: Recipe,
  comparison: RecipeComparisonTableInput | null,
): Table[] {
  return recipesTables({ [recipe]: lines }, comparison);
}

/**
 * The tables of several recipes at once (a notebook's, or a paper
 * appendix's): each recipe's summary, in the order A, B, C, then the recipe
 * comparison; {@linkcode rewardTables} of one recipe is this with that
 * recipe alone.
 *
 * @param rewards rewards.jsonl's lines per recipe (`computeRewards`).
 * @param comparison The recipe comparison (`compareRecipes`), or null without groups.
 * @returns The tables, summaries first.
 *
 * @example
 * ```ts
 * import { recipesTables } from "./tables.ts";
 * import { trajectoryReward } from "./recipe.ts";
 * import { deepEqual } from "node:assert/strict";
 * const steps = [{ trajectory_id: "a", order: 0, level: 0 }];
 * const tables = recipesTables({ B: [trajectoryReward(steps, "B")], A: [trajectoryReward(steps, "A")] }, null);
 * deepEqual(tables.map((t) => t.label), ["tab:rewards-A", "tab:rewards-B"]);
 * ```
 */
export function recipesTables(
  rewards: Readonly<Partial<Record<Recipe, readonly RewardLine[]>>>,
  comparison: RecipeComparisonTableInput | null,
): Table[] {
  return [
    ...RECIPES.flatMap((r) => {
      const lines = rewards[r];
      return lines ? [rewardSummaryTable(lines, r)] : [];
    }),
    ...(comparison ? [recipeComparisonTable(comparison)] : []),
  ];
}
