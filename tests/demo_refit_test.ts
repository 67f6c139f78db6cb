/**
 * Gate B of the demo injects S_0, the selection `gate analyze` makes from
 * the committed Gate A files (the skill Gate B tests is the one the gate
 * selected), not the true top-K.
 *
 * Reference numbers: `python3 scripts/reference/demo_check.py data/demo reward --json`
 * (numpy: paired-delta no-intercept OLS on completed attempts, then the
 * strictly positive top budget_k by coefficient) writes
 * tests/data/reference/demo_check.json (through
 * scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok } from "node:assert/strict";
import { analyzeDataset } from "../lib/analyze/analyze.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { referenceJson } from "./reference_data.ts";

const ROOT = new URL("../data/demo/", import.meta.url).pathname;
const json = (p: string) => JSON.parse(Deno.readTextFileSync(ROOT + p));

/** numpy S_0 and the reward estimates of demo_check.py. */
const REFERENCE = await referenceJson<{
  selected: string[];
  estimates: Record<string, number>;
  se_hc3: Record<string, number>;
}>("demo_check");

const truth = json("truth.json");

Deno.test("demo refit: truth's refit selection is numpy's S_0 with numpy's coefficients", () => {
  const refit = truth.gate_a.refit_selection;
  deepEqual(refit.selected, REFERENCE.selected);
  deepEqual(refit.budget_k, 10);
  // truth.json keeps the coefficients to 4 decimals.
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
  const { selection, contributions } = analyzeDataset(v.dataset);
  deepEqual(selection.selected, REFERENCE.selected);
  // gate analyze's estimates and HC3 errors equal numpy's.
  for (const [id, b] of Object.entries(REFERENCE.estimates)) {
    const c = contributions.metrics["reward"]!.coefficients[id]!;
    ok(Math.abs(c.estimate - b) <= 1e-10, `${id}: ${c.estimate} vs ${b}`);
    ok(Math.abs(c.se_hc3! - REFERENCE.se_hc3[id]!) <= 1e-10, `${id} se: ${c.se_hc3}`);
  }
  deepEqual(selection.selected, truth.gate_b.selected_skills);
  const equipped = json("gate-b/equipped-test/manifest.json");
  deepEqual(equipped.skill.selected_skills, selection.selected);
  deepEqual(equipped.skill.max_skills, null);
  // The true top-K is recorded for comparison and differs from S_0.
  deepEqual(truth.gate_b.true_top_k.selected_skills, truth.gate_a.true_selection);
  ok(truth.gate_b.true_top_k.selected_skills.join() !== selection.selected.join());
});
