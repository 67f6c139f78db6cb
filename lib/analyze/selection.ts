/**
 * The selection step: the selection rule applied to the selection
 * metric's coefficients with the fit's tie tolerance, and selection.json.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import { GatelabError } from "../core/issue.ts";
import type { DesignFactorization } from "../fit/factor.ts";
import type { OlsFit } from "../fit/ols.ts";
import { coefficientTolerance, TIE_TOLERANCE_RULE } from "../fit/tolerance.ts";
import { selectVersions } from "../select/select.ts";
import type { ResolvedAnalyzeOptions } from "./analyze_options.ts";
import { ESTIMATOR, type SelectionOutput } from "./types.ts";

/**
 * Applies the selection rule to the selection metric's fit and returns
 * selection.json.
 *
 * @param dataset The validated dataset.
 * @param factor The design's factorisation the fit used.
 * @param fit The selection metric's fit.
 * @param options The resolved analysis options.
 * @param generator The `generator` block shared with contributions.json.
 * @returns The document.
 */
export function selectionDocument(
  dataset: PairedDataset,
  factor: DesignFactorization,
  fit: OlsFit,
  options: ResolvedAnalyzeOptions,
  generator: SelectionOutput["generator"],
): SelectionOutput {
  const { metric, budgetK } = options;
  if (fit.dfResid <= 0 && !options.exploratory) {
    // No residual: every error is undefined and the coefficients interpolate the rows.
    throw new GatelabError("Cannot select", [{
      code: "not_identifiable",
      message: `the fit of ${metric} has no residual degrees of freedom (${fit.n} rows, ${fit.k} ` +
        `versions): no error can be estimated, so no selection is made; add rows (tasks)`,
    }]);
  }
  const tieTolerance = coefficientTolerance(factor, fit.coefficients, fit.residuals);
  const choice = selectVersions(dataset.columns, fit.coefficients, budgetK, {
    tolerance: tieTolerance,
    notEstimable: fit.varianceUndefinedColumns,
  });
  return {
    format: "gatelab.selection/v1",
    metric,
    budget_k: budgetK,
    selected: choice.selected,
    decisions: choice.decisions,
    tie_tolerance: tieTolerance,
    exploratory: options.exploratory,
    gate_budget_k: options.gateBudget,
    stage: options.firstGate.stage,
    gate_ids: dataset.gates.map((g) => g.gate_id),
    baseline_sha256: dataset.baseline.sha256,
    estimator: ESTIMATOR.name,
    conventions: {
      alpha: `OLS coefficient of ${metric} (paired delta, no intercept)`,
      family_winner:
        "highest alpha within a REWRITE slot; a tie keeps old; a tie between new versions keeps the smallest version_id",
      survivor_order: "alpha descending; equal alphas by version_id ascending (code-unit order)",
      selected:
        "strictly positive alpha within the top budget_k survivors; never filled with non-positive",
      not_estimable:
        "a version whose variance is not estimable (a leverage-1 row determines it, or it is present in one task only) is never ranked or selected",
      tie_tolerance: `alphas within tie_tolerance are equal (ties), and alpha <= tie_tolerance ` +
        `is not positive; ${TIE_TOLERANCE_RULE}`,
    },
    generator,
  };
}
