/**
 * The options of {@linkcode analyzeDataset}, normalised once at the
 * boundary: defaults filled in and checked against the dataset.
 *
 * @module
 */

import type { GateInfo, PairedDataset } from "../core/types.ts";
import { COV_TYPES, type CovType, resolveConvention } from "../core/conventions.ts";
import { DEFAULTS } from "../core/defaults.ts";
import type { ProgressCallback } from "../core/progress.ts";

/** Options of `analyzeDataset` and `runAnalysis`. */
export interface AnalyzeOptions {
  /**
   * Metric the selection ranks by.
   * @default {DEFAULTS.metric}
   */
  readonly metric?: string;
  /**
   * Budget override (exploration only: marks the selection exploratory).
   * `null` or absent: the gate's budget_k.
   */
  readonly budgetK?: number | null;
  /**
   * Covariance type behind se_robust, t and p, in any case (`"HC1"`).
   * @default {DEFAULTS.covType}
   */
  readonly covType?: CovType;
  /**
   * Command line recorded as `generator.command`.
   * @default {"analyze"}
   */
  readonly command?: string;
  /**
   * Progress of the fit over its steps, from 0: the design's factorisation,
   * every metric's coefficients, then each metric's covariances, AMCE and
   * output (the documents after the diagnostics are not counted).
   */
  readonly onFit?: ProgressCallback;
  /**
   * Progress of the selection metric's diagnostics and interaction screen,
   * over their steps (`DIAGNOSTICS_STEPS` of analyze/diagnostics.ts), from 0.
   */
  readonly onDiagnostics?: ProgressCallback;
}

/** {@linkcode AnalyzeOptions} with every default applied and checked. */
export interface ResolvedAnalyzeOptions {
  readonly metric: string;
  readonly covType: CovType;
  readonly command: string;
  /** Budget the selection uses: the override, else the first gate's budget_k. */
  readonly budgetK: number;
  /** The first gate's planned budget_k. */
  readonly gateBudget: number;
  /** True when an override differs from the gate's budget. */
  readonly exploratory: boolean;
  /** The first gate (its budget, stage and masked run head the outputs). */
  readonly firstGate: GateInfo;
}

/**
 * Fills in the defaults of {@linkcode AnalyzeOptions} and checks them
 * against the dataset.
 *
 * @param dataset The validated dataset.
 * @param options As given by the caller.
 * @returns The resolved options.
 * @throws {RangeError} When the metric or covariance type is unknown, the dataset has no gate
 *   or the budget is not a positive integer.
 *
 * @example
 * ```ts
 * import { resolveAnalyzeOptions } from "./analyze_options.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = { metrics: ["reward"], gates: [{ budget_k: 3 }] };
 * const r = resolveAnalyzeOptions(dataset as never, { budgetK: 2 });
 * deepEqual([r.metric, r.covType, r.budgetK, r.gateBudget, r.exploratory], ["reward", "hc3", 2, 3, true]);
 * ```
 */
export function resolveAnalyzeOptions(
  dataset: Pick<PairedDataset, "metrics" | "gates">,
  options: AnalyzeOptions = {},
): ResolvedAnalyzeOptions {
  const metric = options.metric ?? DEFAULTS.metric;
  const covType = resolveConvention("covType", COV_TYPES, options.covType, DEFAULTS.covType);
  const command = options.command ?? "analyze";
  if (!dataset.metrics.includes(metric)) {
    throw new RangeError(
      `Cannot select by "${metric}": the gate's metrics are ${dataset.metrics.join(", ")}`,
    );
  }
  const firstGate = dataset.gates[0];
  if (!firstGate) throw new RangeError("Cannot analyze: the dataset has no gate");
  const gateBudget = firstGate.budget_k;
  const budgetK = options.budgetK ?? gateBudget;
  if (!(Number.isInteger(budgetK) && budgetK >= 1)) {
    throw new RangeError(`Cannot select: budget ${budgetK} is not a positive integer`);
  }
  const exploratory = options.budgetK != null && options.budgetK !== gateBudget;
  return { metric, covType, command, budgetK, gateBudget, exploratory, firstGate };
}
