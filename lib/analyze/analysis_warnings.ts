/**
 * The `warnings` of contributions.json: facts about the fit, not input
 * issues.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { OlsFit } from "../fit/ols.ts";
import type { AnalysisWarning } from "./types.ts";

/** What {@linkcode analysisWarnings} looks at. */
export interface WarningInputs {
  /** Any metric's fit (leverage depends on the design only). */
  readonly fit: Pick<
    OlsFit,
    "leverageOneRows" | "hc3UndefinedColumns" | "varianceUndefinedColumns"
  >;
  /** Row index -> label (see `rowLabeler`). */
  readonly rowLabel: (row: number) => string;
  /** False when the AMCE or the diagnostics of the selection metric failed. */
  readonly diagnosticsAvailable: boolean;
  /** The first gate's budget_k (the one used). */
  readonly gateBudget: number;
}

/**
 * The analysis warnings in their fixed order: `leverage_one`,
 * `single_cluster`, `diagnostics_unavailable`, `budget_differs`.
 *
 * @param dataset The validated dataset.
 * @param inputs See {@linkcode WarningInputs}.
 * @returns The warnings (empty when none applies).
 *
 * @example
 * ```ts
 * import { analysisWarnings } from "./analysis_warnings.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = { columns: [], clusterCount: 1, gates: [{ budget_k: 2 }, { budget_k: 3 }] };
 * const w = analysisWarnings(dataset as never, {
 *   fit: { leverageOneRows: [], hc3UndefinedColumns: [], varianceUndefinedColumns: [] }, rowLabel: String, diagnosticsAvailable: true, gateBudget: 2,
 * });
 * deepEqual(w.map((x) => x.kind), ["single_cluster", "budget_differs"]);
 * ```
 */
export function analysisWarnings(
  dataset: Pick<PairedDataset, "columns" | "clusterCount" | "gates">,
  inputs: WarningInputs,
): AnalysisWarning[] {
  const warnings: AnalysisWarning[] = [];
  const { fit } = inputs;
  if (fit.leverageOneRows.length > 0) {
    const rows = fit.leverageOneRows.map(inputs.rowLabel);
    const versions = fit.hc3UndefinedColumns.map((j) => dataset.columns[j]!.version_id);
    warnings.push({
      kind: "leverage_one",
      message: `Cannot compute HC2/HC3 errors of ${versions.join(", ")}: ` +
        `row(s) ${rows.join(", ")} have leverage 1 (a version present in too few rows), ` +
        `so their residual is 0/0; their variance is not estimable: every standard error, p and ` +
        `interval is null there, and they are never selected`,
      rows,
      versions,
    });
  }
  const hc = new Set(fit.hc3UndefinedColumns);
  const oneTask = fit.varianceUndefinedColumns.filter((j) => !hc.has(j));
  if (oneTask.length > 0) {
    const versions = oneTask.map((j) => dataset.columns[j]!.version_id);
    warnings.push({
      kind: "single_cluster",
      message: `Cannot compute clustered (CR1) errors of ${versions.join(", ")}: each is present ` +
        `in the rows of one task only, so its cluster score is 0; se_cluster, p_cluster and the ` +
        `interval are null there, and they are never selected`,
      versions,
    });
  }
  if (dataset.clusterCount < 2) {
    warnings.push({
      kind: "single_cluster",
      message: "Cannot compute clustered errors: fewer than two task clusters; se_cluster is null",
    });
  }
  if (!inputs.diagnosticsAvailable) {
    warnings.push({
      kind: "diagnostics_unavailable",
      message: "Cannot compute the misfit diagnostics: the main-effects fit they reuse is not " +
        "available; amce is null where missing and diagnostics.json is not written",
    });
  }
  const budgets = [...new Set(dataset.gates.map((g) => g.budget_k))];
  if (budgets.length > 1) {
    warnings.push({
      kind: "budget_differs",
      message: `Pooled gates plan different budgets (${budgets.join(", ")}); ` +
        `the first gate's budget_k ${inputs.gateBudget} is used`,
    });
  }
  return warnings;
}
