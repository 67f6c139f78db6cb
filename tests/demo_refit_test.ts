/**
 * Gate B of the demo injects S_0, the selection `gate analyze` makes from
 * the committed Gate A files (the skill Gate B tests is the one the gate
 * selected), not the true top-K.
 *
 * Reference numbers: `python3 scripts/reference/demo_check.py data/demo reward`
 * (numpy: paired-delta no-intercept OLS on completed attempts, then the
 * strictly positive top budget_k by coefficient), pasted below. If the demo
 * data is regenerated, rerun the script and paste again.
 */
import { deepEqual, ok } from "node:assert/strict";
import { analyzeDataset } from "../lib/analyze/analyze.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";

const ROOT = new URL("../data/demo/", import.meta.url).pathname;
const json = (p: string) => JSON.parse(Deno.readTextFileSync(ROOT + p));

/** numpy S_0 and the 4-decimal reward estimates printed by demo_check.py. */
const REFERENCE = {
  selected: [
    "explicit-constraint-checklist.v1",
    "query-formulation.v1",
    "candidate-inspection.v1",
    "variant-option-selection.v1",
    "variant-price-check.v1",
    "persona-budget-inference.v1",
    "attribute-matching.v1",
    "query-refinement.v1",
    "review-reading.v1",
    "purchase-termination.v1",
  ],
  estimates: {
    "query-formulation.v1": 0.1076,
    "query-refinement.v1": 0.0374,
    "explicit-constraint-checklist.v1": 0.1268,
    "attribute-matching.v1": 0.0387,
    "persona-preference-reasoning.v1": -0.0028,
    "persona-budget-inference.v1": 0.0502,
    "candidate-inspection.v1": 0.1026,
    "candidate-comparison.v1": -0.0093,
    "variant-option-selection.v1": 0.0874,
    "variant-price-check.v1": 0.0515,
    "backtracking-on-mismatch.v1": 0.0013,
    "purchase-termination.v1": 0.0277,
    "results-pagination.v1": -0.0807,
    "review-reading.v1": 0.0352,
  } as Record<string, number>,
};

const truth = json("truth.json");

Deno.test("demo refit: truth's refit selection is numpy's S_0 with numpy's coefficients", () => {
  const refit = truth.gate_a.refit_selection;
  deepEqual(refit.selected, REFERENCE.selected);
  deepEqual(refit.budget_k, 10);
  for (const [id, b] of Object.entries(REFERENCE.estimates)) {
    ok(
      Math.abs(refit.reward_coefficients[id] - b) <= 5e-5 + 1e-9,
      `${id}: ${refit.reward_coefficients[id]} vs ${b}`,
    );
  }
});

Deno.test("demo refit: gate analyze on the committed Gate A selects exactly Gate B's equipped skill", async () => {
  const v = await validateGates([ROOT + "ckpt-a/gate-a"]);
  ok(v.ok && v.dataset, "Gate A validates clean");
  const { selection } = analyzeDataset(v.dataset);
  deepEqual(selection.selected, REFERENCE.selected);
  deepEqual(selection.selected, truth.gate_b.selected_skills);
  const equipped = json("gate-b/equipped-test/manifest.json");
  deepEqual(equipped.skill.selected_skills, selection.selected);
  deepEqual(equipped.skill.max_skills, null);
  // The true top-K is recorded for comparison and differs from S_0.
  deepEqual(truth.gate_b.true_top_k.selected_skills, truth.gate_a.true_selection);
  ok(truth.gate_b.true_top_k.selected_skills.join() !== selection.selected.join());
});
