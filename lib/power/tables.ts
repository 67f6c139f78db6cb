/**
 * Tables of a power plan (power.json): the headline numbers and the
 * minimum-detectable-effect grids, as {@linkcode Table} models for
 * `toMarkdown` and `toLatex` (lib/table/table.ts).
 *
 * @module
 */
import { ANALYTIC_SE_APPROXIMATION, type PowerPlan } from "./power.ts";
import { COEFFICIENT, formatCount, formatEstimate, formatRate } from "../table/format.ts";
import type { Table } from "../table/table.ts";

// The analytic standard error's approximation in mathematics, for the LaTeX notes.
const ANALYTIC_SE_LATEX = "$M$ independent Bernoulli($p$) columns, no intercept, homoskedastic " +
  "residuals with SD $s$: $X^{\\top}X/N \\to \\Sigma = p(1-p)\\,I + p^2 J$, so " +
  "$\\mathrm{Var}(\\beta_j) \\approx (s^2/N)\\,[\\Sigma^{-1}]_{jj} = " +
  "s^2 / (N p (1-p)) \\cdot (1 - p / (1 - p + M p))$. Ignores REWRITE families (mutually " +
  "exclusive columns), heteroskedasticity and finite-$N$ variation of $X^{\\top}X$ (checked by " +
  "simulation).";

/**
 * Power plan: the headline numbers and the minimum-detectable-effect grids
 * by number of tasks and by number of candidate columns.
 *
 * @param plan The result of {@linkcode planPower}, or a parsed power.json.
 * @returns Three tables: the plan, MDE by tasks, MDE by columns.
 *
 * @example Planned from the demo's Gate A
 * ```ts
 * import {
 *   analyzeDataset, datasetOrThrow, planPower, powerInputsFromContributions, powerTables, validateGates,
 *   valueOrThrow,
 * } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const inputs = valueOrThrow(powerInputsFromContributions(analyzeDataset(gateA).contributions), "inputs");
 * const tables = powerTables(planPower(inputs, { effects: inputs.estimates, budgetK: 3, sims: 50, seed: 1 }));
 * deepEqual(tables.map((t) => t.rows.length), [10, 5, 7]);
 * deepEqual(tables[1]!.rows[0], ["100", "0.067", "0.188"]);
 * ```
 */
export function powerTables(plan: PowerPlan): Table[] {
  const d = plan.design, s = plan.simulation;
  const headline: Table = {
    caption: "Power plan",
    label: "tab:power",
    columns: [{ label: "quantity" }, { label: "value", align: "right" }],
    rows: [
      ["tasks N", formatCount(d.tasks)],
      ["columns M", formatCount(d.columns)],
      ["p present", formatRate(d.p_present)],
      ["residual SD", formatEstimate(d.resid_sd)],
      ["budget K", formatCount(d.budget_k)],
      [`SE of a ${COEFFICIENT}, analytic`, formatEstimate(plan.analytic.se_beta)],
      [`SE of a ${COEFFICIENT}, simulated`, formatEstimate(s.simulated_se)],
      ["MDE at 80% power, alpha 0.05", formatEstimate(plan.analytic.mde_80)],
      ["P(truly best K selected)", formatRate(s.p_exact_best_set)],
      ["mean recall of the best K", formatRate(s.mean_best_recall)],
    ],
    notes: [
      `${formatCount(s.sims)} simulated gates, seed ${s.seed}.`,
      ...(s.selection_note ? [s.selection_note] : []),
      plan.analytic.approximation === ANALYTIC_SE_APPROXIMATION
        ? { text: plan.analytic.approximation, latex: ANALYTIC_SE_LATEX }
        : plan.analytic.approximation,
    ],
  };
  const byTasks: Table = {
    caption: "Minimum detectable effect by number of tasks",
    label: "tab:power-tasks",
    columns: [{ label: "tasks", align: "right" }, { label: "SE", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_tasks.map((
      r,
    ) => [formatCount(r.tasks), formatEstimate(r.se_beta), formatEstimate(r.mde_80)]),
  };
  const byColumns: Table = {
    caption: "Minimum detectable effect by number of candidate columns",
    label: "tab:power-columns",
    columns: [{ label: "columns", align: "right" }, { label: "SE", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_columns.map((
      r,
    ) => [formatCount(r.columns), formatEstimate(r.se_beta), formatEstimate(r.mde_80)]),
  };
  return [headline, byTasks, byColumns];
}
