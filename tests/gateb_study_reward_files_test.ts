/**
 * The bundles' pure writers against the commands: `gate compare`, `gate
 * study` and `gate reward` write exactly the files their stage's
 * `files(...)` returns, byte for byte (Parquet included), so a notebook or
 * another tool gets the command's outputs without the command. Gate B's
 * files are rebuilt from comparison.json and validation.json as read back
 * through their zod schemas (the document type is the schema's), the
 * study's from study.json read back and the analysis recomputed, the
 * reward's by recomputing the run with the command line it recorded.
 *
 * The numbers these files hold are checked elsewhere against independent
 * references (tests/gateb_compare_test.ts, tests/study_cli_test.ts,
 * tests/reward_recipes_test.ts); here only names and bytes are compared.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { run as compare } from "../lib/cli/compare.ts";
import { run as study } from "../lib/cli/study.ts";
import { run as reward } from "../lib/cli/reward.ts";
import {
  ComparisonSchema,
  RecipeComparisonSchema,
  RewardsMetaSchema,
  StudySchema,
  ValidationSchema,
} from "../lib/contract/outputs/mod.ts";
import { DEFAULTS } from "../lib/core/defaults.ts";
import { runScope } from "../lib/table/run_scope.ts";
import { type ComparisonDocument, comparisonFiles } from "../lib/gateb/mod.ts";
import { type StudyDocument, studyFiles } from "../lib/study/mod.ts";
import {
  loadGroups,
  loadSteps,
  type RecipeComparisonDocument,
  rewardFiles,
  rewardRun,
  type RewardsMetaDocument,
} from "../lib/reward/mod.ts";
import { quiet, tempDir } from "./fixtures.ts";
import { sameAsWritten } from "./file_bytes.ts";

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("gate compare writes exactly comparisonFiles(comparison.json read back)", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "gate-b");
  const code = await quiet(() =>
    compare([
      "--bare",
      "data/demo/gate-b/bare-test",
      "--equipped",
      "data/demo/gate-b/equipped-test",
      "--out",
      out,
      "--bootstrap",
      "50",
      "--quiet",
    ])
  );
  equal(code, 0);
  const doc: ComparisonDocument = ComparisonSchema.parse(
    await readJson(join(out, "comparison.json")),
  );
  const validation = ValidationSchema.parse(await readJson(join(out, "validation.json")));
  ok(validation.ok);
  const files = await comparisonFiles(doc, { validation, scope: runScope(out) });
  deepEqual(Object.keys(files), [
    "validation.json",
    "comparison.json",
    "comparison.md",
    "comparison.tex",
    "comparison.csv",
    "comparison.parquet",
  ]);
  await sameAsWritten(files, out);
  // The run's name scopes the LaTeX labels; the tidy table has one row per quantity.
  ok((files["comparison.tex"] as string).includes("\\label{tab:gate-b:gate-b-metrics}"));
  const csv = (await Deno.readTextFile(join(out, "comparison.csv"))).split("\n");
  equal(
    csv[0],
    "kind,quantity,bare,equipped,difference,ci_low,ci_high,bare_ci_low,bare_ci_high,equipped_ci_low,equipped_ci_high",
  );
  equal(csv.filter((l) => l.startsWith("metric,")).length, Object.keys(doc.metrics).length);
});

Deno.test("gate study writes exactly studyFiles(study.json read back): its tables are the document's", async () => {
  await using dir = await tempDir();
  const plan = join(dir.path, "plan");
  await Deno.mkdir(plan);
  for (const f of ["slots.jsonl", "attempts.jsonl"]) {
    await Deno.copyFile(`data/demo/study/${f}`, join(plan, f));
  }
  await Deno.writeTextFile(
    join(plan, "study.json"),
    JSON.stringify({
      format: "gatelab.studyplan/v1",
      comparisons: [["M", "B"], ["M", "O"]],
      bootstrap: { draws: 100, seed: 7 },
    }),
  );
  const out = join(dir.path, "study-out");
  equal(await quiet(() => study([plan, "--out", out, "--quiet"])), 0);
  const doc: StudyDocument = StudySchema.parse(await readJson(join(out, "study.json")));
  const files = await studyFiles(doc, { scope: runScope(out) });
  deepEqual(Object.keys(files), [
    "study.json",
    "study_tables.md",
    "study_tables.tex",
    "comparisons.csv",
    "comparisons.parquet",
  ]);
  await sameAsWritten(files, out);
  ok((files["study_tables.tex"] as string).includes("\\label{tab:study-out:study-costs}"));
  equal(doc.bootstrap.draws, 100);
});

Deno.test("gate reward writes exactly rewardFiles(rewardRun(...)) with and without groups", async () => {
  await using dir = await tempDir();
  const stepsPath = "data/demo/steps/steps.jsonl", groupsPath = "data/demo/steps/groups.jsonl";
  const steps = await loadSteps(stepsPath);
  ok(steps.ok);
  const { trajectories } = steps.value;
  const loadedGroups = await loadGroups(groupsPath, trajectories);
  ok(loadedGroups.ok);
  for (const withGroups of [false, true]) {
    const out = join(dir.path, withGroups ? "rewards-b" : "rewards-c");
    const recipe = withGroups ? "B" : "C";
    const args = [stepsPath, "--recipe", recipe, "--out", out, "--bootstrap", "60", "--quiet"];
    if (withGroups) args.push("--groups", groupsPath);
    equal(await quiet(() => reward(args)), 0);
    const meta: RewardsMetaDocument = RewardsMetaSchema.parse(
      await readJson(join(out, "rewards_meta.json")),
    );
    const result = rewardRun(trajectories, recipe, {
      draws: 60,
      seed: DEFAULTS.seed,
      command: meta.generator.command,
      inputs: meta.inputs,
      ...(withGroups ? { groups: loadedGroups.value.groups } : {}),
    });
    const files = await rewardFiles(result, { scope: runScope(out) });
    deepEqual(Object.keys(files), [
      "rewards.jsonl",
      "rewards_meta.json",
      ...(withGroups ? ["recipe_comparison.json"] : []),
      "reward_tables.md",
      "reward_tables.tex",
      "rewards.csv",
      "rewards.parquet",
    ]);
    await sameAsWritten(files, out);
    if (withGroups) {
      const doc: RecipeComparisonDocument = RecipeComparisonSchema.parse(
        await readJson(join(out, "recipe_comparison.json")),
      );
      deepEqual(Object.keys(doc.recipes), ["A", "B", "C"]);
      equal(doc.bootstrap.draws, 60);
    } else {
      equal(meta.c_equals_a, true);
    }
  }
});
