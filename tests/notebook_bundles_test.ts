/**
 * The notebooks call each stage's own tables and figures (docs/notebooks.md, "Thin notebooks"):
 * what a notebook shows of an in-memory result is what the report's section shows of the file the
 * command writes. Each test builds both from the demo and compares the rendered tables (Markdown)
 * and figures (SVG bytes).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  againstLaterGate,
  analysisPaperTables,
  analyzeStudy,
  compareRecipes,
  computeRewards,
  heldoutCheck,
  heldoutFigures,
  heldoutTables,
  loadGroups,
  loadSteps,
  loadStudyDir,
  recipesTables,
  rewardFigures,
  runAnalysis,
  studyFigures,
  studyTables,
  validateGates,
  valueOrThrow,
} from "../lib/mod.ts";
import { analysisSection } from "../lib/analyze/section.ts";
import {
  ContributionsSchema,
  HeldoutSchema,
  SelectionSchema,
  StudySchema,
} from "../lib/contract/outputs/mod.ts";
import { heldoutDocument } from "../lib/heldout/document.ts";
import { heldoutSection } from "../lib/heldout/section.ts";
import { studyDocument } from "../lib/study/document.ts";
import { studySection } from "../lib/study/section.ts";
import { recipeComparisonDocument } from "../lib/reward/document.ts";
import { rewardSection } from "../lib/reward/section.ts";
import { rewardTables } from "../lib/reward/tables.ts";
import { type Table, toMarkdown } from "../lib/table/table.ts";
import type { Figure } from "../lib/figures/render.ts";

/** Tables and figures of a section's items, rendered for comparison. */
function rendered(items: readonly unknown[]): string[] {
  return items.flatMap((i) =>
    typeof i === "object" && i !== null && "svg" in i
      ? [(i as Figure).svg]
      : typeof i === "object" && i !== null && "rows" in i
      ? [toMarkdown(i as Table)]
      : []
  );
}
const parsed = (value: unknown) => JSON.parse(JSON.stringify(value));

Deno.test("analysisPaperTables of runAnalysis are the coefficient, selection and stability tables of the report's section", async () => {
  const validation = await validateGates(["data/demo/ckpt-a/gate-a"]);
  const analysis = await runAnalysis(validation.dataset!, { draws: 50, seed: 1 });
  const tables = analysisPaperTables(analysis).map(toMarkdown);
  deepEqual(analysisPaperTables(analysis).map((t) => t.label), [
    "tab:coefficients-reward",
    "tab:selection",
    "tab:selection-stability",
  ]);
  const section = analysisSection({
    contributions: ContributionsSchema.parse(parsed(analysis.contributions)),
    selection: SelectionSchema.parse(parsed(analysis.selection)),
  }, "out");
  const shown = rendered(section!.items);
  for (const t of tables) ok(shown.includes(t), t.slice(0, 80));
});

Deno.test("heldoutTables and heldoutFigures of { ...heldoutCheck, against } are the report's held-out section", async () => {
  const gateA = (await validateGates(["data/demo/ckpt-a/gate-a"])).dataset!;
  const later = (await validateGates(["data/demo/ckpt-b/gate-online-r1"])).dataset!;
  const plan = {
    format: "gatelab.heldout-plan/v1",
    scheme: "kfold",
    folds: 5,
    repeats: 1,
    seed: 1,
    metric: "reward",
  } as const;
  const doc = heldoutDocument({
    command: "gate heldout",
    dataset: gateA,
    inputs: [],
    plan,
    planFile: { path: "plan.json", bytes: new Uint8Array() },
    later,
  });
  // What notebooks 02 and 03 build: the check and the selection against the later gate.
  const heldout = heldoutCheck(gateA, plan);
  const checks = {
    ...heldout,
    against: againstLaterGate(gateA, later, { metric: plan.metric, budgetK: heldout.budget_k }),
  };
  const notebook = [...heldoutTables(checks), ...heldoutFigures(checks)];
  deepEqual(notebook.map((x) => "svg" in x ? x.name : x.label), [
    "tab:heldout",
    "tab:heldout-across-gates",
    "heldout_gain",
    "heldout_rank_agreement",
  ]);
  const report = rendered(heldoutSection(HeldoutSchema.parse(parsed(doc)), "out").items);
  deepEqual(rendered(notebook).sort(), report.sort());
});

Deno.test("studyTables and studyFigures of analyzeStudy's result are the report's study section", async () => {
  const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
  const plan = { ...input.plan, bootstrap: { draws: 50, seed: 1 } };
  const analysis = valueOrThrow(analyzeStudy({ ...input, plan }), "analysis");
  const figures = studyFigures(analysis);
  deepEqual(figures.map((f) => f.name), ["study_arms", "study_comparisons"]);
  const tables = studyTables(analysis);
  deepEqual(tables.map((t) => t.label), [
    "tab:study-arms",
    "tab:study-comparisons",
    "tab:study-costs",
  ]);
  const doc = StudySchema.parse(
    parsed(studyDocument(analysis, { command: "gate study", inputs: [] })),
  );
  deepEqual(figures.map((f) => f.svg), studyFigures(doc).map((f) => f.svg));
  // What notebook 03 shows is what gate study writes (studyFiles: studyTables of study.json) and
  // what the report shows, in the report's order: each figure behind its table.
  deepEqual(tables.map(toMarkdown), studyTables(doc).map(toMarkdown));
  deepEqual(rendered(studySection(doc, "out").items), [
    toMarkdown(tables[0]!),
    figures[0]!.svg,
    toMarkdown(tables[1]!),
    figures[1]!.svg,
    toMarkdown(tables[2]!),
  ]);
});

Deno.test("recipesTables and rewardFigures of compareRecipes' result are gate reward's tables and the report's figure", async () => {
  const { trajectories } = valueOrThrow(await loadSteps("data/demo/steps/steps.jsonl"), "steps");
  const { groups } = valueOrThrow(
    await loadGroups("data/demo/steps/groups.jsonl", trajectories),
    "groups",
  );
  const rewards = {
    A: computeRewards(trajectories, "A"),
    B: computeRewards(trajectories, "B"),
    C: computeRewards(trajectories, "C"),
  };
  const comparison = compareRecipes(rewards, groups, { draws: 50, seed: 1 });
  const tables = recipesTables(rewards, comparison);
  deepEqual(tables.map((t) => t.label), [
    "tab:rewards-A",
    "tab:rewards-B",
    "tab:rewards-C",
    "tab:recipe-comparison",
  ]);
  // gate reward --recipe C --groups writes C's summary and the comparison.
  deepEqual(
    [tables[2], tables[3]].map((t) => toMarkdown(t!)),
    rewardTables(rewards.C, "C", comparison).map(toMarkdown),
  );
  const doc = recipeComparisonDocument(comparison, rewards.C, {
    command: "gate reward",
    inputs: [],
  });
  const figures = rewardFigures(comparison);
  equal(figures.length, 1);
  deepEqual(figures.map((f) => f.svg), rewardFigures(doc).map((f) => f.svg));
  const report = rendered(rewardSection(doc, "out").items);
  ok(report.includes(figures[0]!.svg));
  ok(report.includes(toMarkdown(tables[3]!)));
});
