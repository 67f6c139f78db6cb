/**
 * `deno task gate reward <steps.jsonl> --recipe A|B|C [--prm-weights FILE]
 * [--groups groups.jsonl] [--bootstrap B] [--seed S] --out <dir>`: reward
 * recipes of docs/reward.md. Writes rewards.jsonl,
 * rewards_meta.json and reward tables; with --groups also
 * recipe_comparison.json. All in one atomic step; on input issues only
 * validation.json, exit 2.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { RecipeComparisonSchema, RewardsMetaSchema } from "../contract/outputs/mod.ts";
import { type FileContents, toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { rewardsTidy } from "../reward/rewards_tidy.ts";
import type { Issue } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import { stderrProgress } from "../core/progress.ts";
import { QUANTILE_RULE } from "../math/quantile.ts";
import { recipeComparisonTable, rewardSummaryTable } from "../report/reward_tables.ts";
import { toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { compareRecipes } from "../reward/compare.ts";
import { PENALTY_GAMMA, REWARD_BY_LEVEL } from "../reward/levels.ts";
import { loadGroups, loadPrmWeights, loadSteps } from "../reward/load.ts";
import { MASK_REASONS } from "../reward/mask.ts";
import { type Recipe, RECIPES } from "../reward/recipe.ts";
import type { GroupRecord } from "../reward/schema.ts";
import { computeRewards } from "../reward/rewards.ts";
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { bootstrapOptions, choiceOption, parseCommand } from "./args.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { inputFile, outputDir } from "./paths.ts";

const HELP =
  `usage: deno task gate reward <steps.jsonl> --recipe A|B|C --out <dir> [--prm-weights FILE]
         [--groups groups.jsonl] [--bootstrap ${DEFAULTS.draws}] [--seed ${DEFAULTS.seed}] [--quiet]

Writes <out>/rewards.jsonl, rewards_meta.json, reward_tables.md and .tex; with
--groups also recipe_comparison.json (all recipes A, B, C) and its table.
--prm-weights: JSON object {"<trajectory_id>:<order>": weight > 0}; missing steps weigh 1.
Input issues: <out>/validation.json only, exit 2.

${LABEL_PREFIX_HELP}`;

/** Runs the `reward` command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "reward",
    help: HELP,
    options: {
      recipe: { type: "string" },
      "prm-weights": { type: "string" },
      groups: { type: "string" },
      bootstrap: { type: "string" },
      seed: { type: "string" },
      out: { type: "string" },
      quiet: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, max: 1, what: "steps file" },
    required: { recipe: "A|B|C", out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  // --recipe is required, so the reader never falls back.
  const recipe: Recipe = choiceOption("recipe", values.recipe, RECIPES, undefined)!;
  const { draws, seed } = bootstrapOptions(values, { minDraws: 1 });
  const stepsPath = positionals[0]!, out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const given = [
    { label: "steps file", path: stepsPath, what: "a steps file (JSONL)" },
    ...(values.groups !== undefined
      ? [{ label: "--groups", path: values.groups, what: "a groups file (JSONL)" }]
      : []),
    ...(values["prm-weights"] !== undefined
      ? [{ label: "--prm-weights", path: values["prm-weights"], what: "a PRM weights file (JSON)" }]
      : []),
  ];
  for (const f of given) await inputFile(f, f.what);
  await outputDir({ label: "--out", path: out }, given);

  const steps = await loadSteps(stepsPath);
  if (!steps.ok) return await refuse(out, validationDocument(steps.issues, command), values);
  const { trajectories } = steps.value;
  const inputs = [{ file: stepsPath, sha256: steps.value.sha256 }];
  const issues: Issue[] = [];

  let weights: Map<string, Map<number, number>> | undefined;
  const weightsPath = values["prm-weights"];
  if (weightsPath !== undefined) {
    const loaded = await loadPrmWeights(weightsPath, trajectories);
    if (loaded.ok) {
      weights = loaded.value.weights;
      inputs.push({ file: weightsPath, sha256: loaded.value.sha256 });
    } else issues.push(...loaded.issues);
  }
  let groups: GroupRecord[] | undefined;
  if (values.groups !== undefined) {
    const loaded = await loadGroups(values.groups, trajectories);
    if (loaded.ok) {
      groups = loaded.value.groups;
      inputs.push({ file: values.groups, sha256: loaded.value.sha256 });
    } else issues.push(...loaded.issues);
  }
  if (issues.length > 0) {
    return await refuse(out, validationDocument(issues, command, inputs), values);
  }

  const lines = computeRewards(trajectories, recipe, weights);
  const conventions = {
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
  const masked = Object.fromEntries(
    MASK_REASONS.map((r) => [r, lines.reduce((s, l) => s + l.mask_reasons[r], 0)]),
  );
  const files: Record<string, FileContents> = {
    "rewards.jsonl": lines.map((l) => JSON.stringify(l)).join("\n") + (lines.length ? "\n" : ""),
    "rewards_meta.json": toJsonText(
      {
        format: "gatelab.rewards_meta/v1",
        recipe,
        ...conventions,
        ...(recipe === "C" ? { c_equals_a: lines.every((l) => l.equals_recipe_a) } : {}),
        totals: {
          trajectories: lines.length,
          null_rewards: lines.filter((l) => l.reward === null).length,
          penalized: lines.filter((l) => l.penalized).length,
          mask_reasons: masked,
        },
        generator: generatorMeta(command),
        inputs,
      } satisfies z.input<typeof RewardsMetaSchema>,
    ),
  };
  const tables = [rewardSummaryTable(lines, recipe)];

  if (groups) {
    const all = Object.fromEntries(
      RECIPES.map((r) => [r, r === recipe ? lines : computeRewards(trajectories, r, weights)]),
    );
    const comparison = compareRecipes(all, groups, {
      draws,
      seed,
      ...(values.quiet ? {} : { onProgress: stderrProgress("recipe bootstrap") }),
    });
    const cLines = all["C"]!;
    files["recipe_comparison.json"] = toJsonText(
      {
        format: "gatelab.recipe_comparison/v1",
        bootstrap: {
          draws,
          seed,
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
        ...conventions,
        generator: generatorMeta(command),
        inputs,
      } satisfies z.input<typeof RecipeComparisonSchema>,
    );
    tables.push(recipeComparisonTable(comparison));
  }
  const scoped = scopeTables(tables, scope);
  files["reward_tables.md"] = scoped.map(toMarkdown).join("\n");
  files["reward_tables.tex"] = scoped.map(toLatex).join("\n");
  Object.assign(files, await tidyFiles([rewardsTidy(lines)]));
  await writeFilesAtomic(out, files);
  if (!values.quiet) {
    console.error(`reward: recipe ${recipe}, ${lines.length} trajectories; outputs in ${out}/`);
  }
  return 0;
}
