/**
 * Shapes of the gate-analysis outputs (docs/FORMAT.md section 5, plus the
 * compatible extras documented in docs/analysis.md).
 *
 * @module
 */

import type { z } from "npm:zod@4.6.7";
import type {
  ContributionsSchema,
  DiagnosticsSchema,
  SelectionSchema,
  TaskRowSchema,
} from "../contract/outputs/mod.ts";
import type { GateInfo } from "../core/types.ts";

export { ESTIMATOR } from "../contract/outputs/common.ts";

/** Per-gate reference in a pooled analysis (the dataset's {@linkcode GateInfo}). */
export type GateRef = GateInfo;

/**
 * contributions.json as `gate analyze` computes it: the type of its schema
 * (ContributionsSchema, lib/contract/outputs), so writer and readers share one
 * declaration (zod-inferred: its schema and docs/FORMAT.md document it),
 * with the per-task rows in memory as `tasks` (the file names the tidy
 * `tasks` table instead, `tasks_table`).
 *
 * @ignore
 */
export type ContributionsOutput =
  & Omit<z.input<typeof ContributionsSchema>, "tasks" | "tasks_table">
  & { readonly tasks: readonly TaskRow[] };

/**
 * selection.json as `gate analyze` writes it: the type of its schema
 * (SelectionSchema, lib/contract/outputs), so writer and readers share one
 * declaration (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type SelectionOutput = z.input<typeof SelectionSchema>;

/**
 * diagnostics.json as `gate analyze` writes it: the type of its schema
 * (DiagnosticsSchema, lib/contract/outputs), so writer and readers share one
 * declaration (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type DiagnosticsOutput = z.input<typeof DiagnosticsSchema>;

/**
 * One coefficient of one metric (field docs: `CoefficientSchema`). Undefined numbers are null, never NaN.
 *
 * @ignore
 */
export type CoefficientOutput = ContributionsOutput["metrics"][string]["coefficients"][string];

/**
 * One metric's fit: n, k, residual df and SE, SSR, uncentred R², means and coefficients.
 *
 * @ignore
 */
export type MetricOutput = ContributionsOutput["metrics"][string];

/**
 * A warning about the fit (not an input issue): kind, message, rows and versions concerned.
 *
 * @ignore
 */
export type AnalysisWarning = ContributionsOutput["warnings"][number];

/**
 * One (gate, episode) row of contributions.json: split, task, sample, gate (pooled), design row and values.
 *
 * @ignore
 */
export type TaskRow = z.input<typeof TaskRowSchema>;
