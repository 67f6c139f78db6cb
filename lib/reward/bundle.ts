/**
 * The bundle of reward recipes: recipe_comparison.json read back, its
 * table and figures, the files of `gate reward` and the report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { RecipeComparisonSchema } from "../contract/outputs/mod.ts";
import type { RecipeComparisonDocument } from "./reward_types.ts";
import type { RewardRun } from "./run.ts";
import { rewardFiles, type RewardFilesOptions } from "./files.ts";
import { recipeComparisonOfDocument, recipeComparisonTable } from "./tables.ts";
import { rewardFigures } from "./figures.ts";
import { rewardSection } from "./section.ts";

/**
 * Reward recipes as a bundle. `tables` is the comparison table of
 * recipe_comparison.json, the one the report shows and `gate reward`
 * writes; `files` writes what `gate reward` writes from its run: besides
 * the document, the reward lines and their summary table (the run's own,
 * made from rewards.jsonl's lines, which the document does not hold).
 *
 * @example
 * ```ts
 * import { rewardBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([rewardBundle.file, rewardBundle.kind], ["recipe_comparison.json", ["reward"]]);
 * ```
 */
export const rewardBundle: Bundle<
  RecipeComparisonDocument,
  RewardFilesOptions & { readonly run: RewardRun }
> = {
  stage: "reward",
  file: "recipe_comparison.json",
  schema: RecipeComparisonSchema,
  kind: ["reward"],
  commands: ["reward"],
  tidy: ["rewards"],
  read: (dir) => readBundleFile(dir, "recipe_comparison.json", RecipeComparisonSchema),
  tables: (doc) => [recipeComparisonTable(recipeComparisonOfDocument(doc))],
  figures: rewardFigures,
  files: (_doc, { run, ...options }) => rewardFiles(run, options),
  section: rewardSection,
};
