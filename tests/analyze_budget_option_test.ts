/**
 * `budgetK: null` (what notebook 01's `BUDGET_K = null` passes) means the
 * gate's own budget, exactly as leaving the option out; a number overrides
 * it and marks the selection exploratory.
 */
import { deepEqual } from "node:assert/strict";
import { analyzeDataset } from "../lib/analyze/analyze.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";

Deno.test("budgetK null is the gate's budget; a number is an exploratory override", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 30, budgetK: 2 });
  const dataset = (await validateGates([fx.gateDir])).dataset!;
  const absent = analyzeDataset(dataset).selection;
  const nulled = analyzeDataset(dataset, { budgetK: null }).selection;
  deepEqual(nulled, absent);
  deepEqual([nulled.budget_k, nulled.gate_budget_k, nulled.exploratory], [2, 2, false]);
  const three = analyzeDataset(dataset, { budgetK: 3 }).selection;
  deepEqual([three.budget_k, three.gate_budget_k, three.exploratory], [3, 2, true]);
});
