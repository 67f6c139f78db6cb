/**
 * Misfit diagnostics inside the gate analysis: the AMCE beside every
 * coefficient of every metric (contributions.json) and diagnostics.json
 * for the selection metric (AMCE table, interaction screen, residuals by
 * the number of chunks present). The numbers come from lib/infer's
 * diagnostics; this file only assembles them.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import {
  amceTable,
  interactionScreen,
  residualsByCount,
  SCREEN_STEPS,
} from "../infer/diagnostics/diagnostics.ts";
import type { ProgressCallback } from "../core/progress.ts";
import type { AmceRow } from "../infer/diagnostics/diagnostics.ts";
import { type DiagnosticsOutput, ESTIMATOR } from "./types.ts";

/** What `conventions.amce` of contributions.json says. */
export const AMCE_CONVENTION =
  "amce = mean delta over rows with the version present minus mean delta over rows with its slot " +
  "absent (no version of the slot present; for a plain chunk: present vs absent), pooled rows " +
  "counted as rows, null when either group is empty; amce_gap = estimate - amce. Under the " +
  "additive model with independent masks both estimate the same effect; a large gap points to " +
  "interactions or misfit (docs/analysis.md)";

/**
 * AMCE of every column of one metric beside the given OLS estimates.
 *
 * @param dataset The validated dataset.
 * @param metric The metric whose deltas are averaged.
 * @param estimates OLS coefficients of that metric, in column order.
 * @returns Rows in column order with `beta` = the given estimate and
 *   `gap` = beta - amce, or null when lib/infer cannot fit the design
 *   (a Cholesky failure on a design the QR accepted).
 *
 * @example
 * ```ts
 * import { amceRows } from "./diagnostics.ts";
 * import { ok } from "node:assert/strict";
 * // Rows: a, none, a, none, a+b, a. AMCE(a) = mean(.2,.3,.6,-.1) - mean(.1,0) = 0.2.
 * const d = { n: 6, k: 2, design: Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0]),
 *   delta: { reward: Float64Array.from([0.2, 0.1, 0.3, 0, 0.6, -0.1]) }, metrics: ["reward"],
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const },
 *             { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" as const }] };
 * const rows = amceRows(d as never, "reward", [0.1, 0.5])!;
 * ok(Math.abs(rows[0]!.amce! - 0.2) < 1e-12);
 * ok(Math.abs(rows[0]!.gap! - (0.1 - rows[0]!.amce!)) < 1e-15);
 * ```
 */
export function amceRows(
  dataset: PairedDataset,
  metric: string,
  estimates: ArrayLike<number>,
): AmceRow[] | null {
  let rows: AmceRow[];
  try {
    rows = amceTable(dataset, { metric });
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return rows.map((r, j) => {
    const beta = estimates[j]!;
    return { ...r, beta, gap: r.amce === null ? null : beta - r.amce };
  });
}

/** Options of {@linkcode diagnosticsOutput}. */
export interface DiagnosticsOptions {
  /** Level of the Holm-adjusted interaction p-values. @default {DEFAULTS.alpha} */
  readonly alpha?: number;
  /**
   * Progress over {@linkcode DIAGNOSTICS_STEPS} steps: the interaction
   * screen's (lib/infer `SCREEN_STEPS`), then the residuals by count.
   */
  readonly onProgress?: ProgressCallback;
}

/** The steps of {@linkcode DiagnosticsOptions.onProgress}. */
export const DIAGNOSTICS_STEPS = SCREEN_STEPS + 1;

/**
 * diagnostics.json of the selection metric: the AMCE rows (as computed by
 * {@linkcode amceRows} for that metric), the pairwise interaction screen
 * (Wald F per product with HC3, or CR1 by task when a task has several
 * rows; Holm over the testable pairs; joint test) and the residuals of
 * the main-effects fit by the number of chunks present.
 *
 * @param dataset The validated dataset.
 * @param head Metric, AMCE rows, run refs, counts and generator.
 * @param options See {@linkcode DiagnosticsOptions}.
 * @returns The document, or null when lib/infer cannot fit the design.
 */
export function diagnosticsOutput(
  dataset: PairedDataset,
  head: Pick<DiagnosticsOutput, "metric" | "amce" | "generator">,
  options: DiagnosticsOptions = {},
): DiagnosticsOutput | null {
  const { metric } = head;
  const { onProgress } = options;
  let interactions, residuals;
  try {
    interactions = interactionScreen(dataset, {
      metric,
      ...(options.alpha === undefined ? {} : { alpha: options.alpha }),
      ...(onProgress === undefined
        ? {}
        : { onProgress: (done: number) => onProgress(done, DIAGNOSTICS_STEPS) }),
    });
    residuals = residualsByCount(dataset, { metric });
    onProgress?.(DIAGNOSTICS_STEPS, DIAGNOSTICS_STEPS);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // No document: the progress still ends (a terminal's line is finished).
    onProgress?.(DIAGNOSTICS_STEPS, DIAGNOSTICS_STEPS);
    return null;
  }
  return {
    format: "gatelab.diagnostics/v1",
    metric,
    estimator: ESTIMATOR.name,
    conventions: {
      amce: AMCE_CONVENTION,
      amce_se: dataset.clusterCount < dataset.n
        ? "CR1 clustered by task: the rows are pooled (several rows per task share a bare run), so " +
          "the no-intercept OLS of delta on [present, slot absent] over the rows of either group, " +
          "clustered by task (G/(G-1) x (N-1)/(N-2)); se = sqrt(V11 + V00 - 2 V10)"
        : "Welch: sqrt(s1^2/n1 + s0^2/n0), sample variances with ddof 1 (one row per task)",
      amce_gap: "beta - amce, beta = contributions.json's estimate of the same metric",
      interaction_screen: "for every pair of columns in different slots, the no-intercept OLS " +
        "with the pair's product column added (computed from the main fit by a rank-one update: " +
        "same numbers as a refit); Wald F (df 1, df2) on its coefficient gamma; a pair that never " +
        "co-occurs, makes the design singular, or whose gamma a leverage-1 row determines (HC3 " +
        "0/0) is testable: false",
      interaction_covariance: interactions.covariance === "HC3"
        ? "HC3, df2 = n - columns (every task has one row)"
        : "CR1 clustered by task (split, task_id), df2 = tasks - 1 (a task has several rows, " +
          "e.g. pooled rounds sharing one bare run)",
      multiplicity:
        `Holm step-down over the testable pairs; flagged = p_holm < ${interactions.alpha}`,
      joint_test: "one Wald F of all testable products at once (df q, df2); null when the " +
        "augmented design has no residual df, is singular, or (CR1) q > tasks - 1",
      residuals_by_count: "residuals of the main-effects fit grouped by the number of columns " +
        "present in the row: n, mean, sd (ddof 1, null for n < 2)",
    },
    baseline: dataset.baseline,
    gates: dataset.gates.map((g) => ({ gate_id: g.gate_id, masked: g.masked })),
    n_pairs: dataset.n,
    n_tasks: dataset.clusterCount,
    amce: head.amce,
    interactions,
    residuals_by_count: residuals,
    generator: head.generator,
  };
}
