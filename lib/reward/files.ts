/**
 * Every file `gate reward` writes into `--out`, as bytes: the bundle's
 * pure writer (no I/O), so the command only writes what this returns.
 *
 * @module
 */
import { type FileContents, toJsonText } from "../core/atomic_write.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { rewardsTidy } from "./reward_tidy.ts";
import type { RewardRun } from "./run.ts";
import { recipeComparisonOfDocument, rewardTables } from "./tables.ts";

/** Options of {@linkcode rewardFiles}. */
export interface RewardFilesOptions {
  /** The run's name in LaTeX labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
}

/**
 * The files of a reward run: rewards.jsonl, rewards_meta.json, with groups
 * recipe_comparison.json, the tables as reward_tables.md and .tex (labels
 * scoped to the run): the recipe's summary of its reward lines and, with
 * groups, the recipe comparison of recipe_comparison.json (the bundle's
 * `tables`, the one the report shows); and the tidy table `rewards` as CSV
 * and Parquet.
 *
 * @param run From `rewardRun`.
 * @param options The run's label scope.
 * @returns File name (inside `--out`) to contents.
 *
 * @example
 * ```ts
 * import { rewardFiles } from "./files.ts";
 * import { rewardRun } from "./run.ts";
 * import { loadSteps } from "./load.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const steps = await loadSteps("data/demo/steps/steps.jsonl");
 * if (!steps.ok) throw new Error("cannot read the demo's steps");
 * const run = rewardRun(steps.value.trajectories, "B", { draws: 10, seed: 1, command: "gate reward", inputs: [] });
 * const files = await rewardFiles(run, { scope: { label: "rewards", name: "Rewards" } });
 * deepEqual(Object.keys(files), ["rewards.jsonl", "rewards_meta.json", "reward_tables.md", "reward_tables.tex",
 *   "rewards.csv", "rewards.parquet"]);
 * ok((files["reward_tables.tex"] as string).includes("\\label{tab:rewards:rewards-B}"));
 * ```
 */
export async function rewardFiles(
  run: RewardRun,
  options: RewardFilesOptions,
): Promise<Record<string, FileContents>> {
  const { lines, comparison } = run;
  const files: Record<string, FileContents> = {
    "rewards.jsonl": lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length ? "\n" : ""),
    "rewards_meta.json": toJsonText(run.meta),
  };
  if (comparison) files["recipe_comparison.json"] = toJsonText(comparison.doc);
  // The comparison from recipe_comparison.json, as the bundle's tables and the report read it.
  const tables = scopeTables(
    rewardTables(lines, run.recipe, comparison ? recipeComparisonOfDocument(comparison.doc) : null),
    options.scope,
  );
  Object.assign(files, tableFiles("reward_tables", tables));
  Object.assign(files, await tidyFiles([rewardsTidy(lines)]));
  return files;
}
