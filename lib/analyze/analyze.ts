/**
 * The gate analysis as a library call: no-intercept OLS of every metric on
 * a validated {@linkcode PairedDataset}, selection, and the contents of
 * contributions.json and selection.json. No I/O here; the CLI writes.
 *
 * @module
 */

import { Timings } from "../core/timings.ts";
import type { PairedDataset } from "../core/types.ts";
import { generatorMeta } from "../core/meta.ts";
import { releaseMemory } from "../core/release_memory.ts";
import { type BootstrapOptions, resolveBootstrapOptions } from "../core/bootstrap_options.ts";
import { factorDesign, solveLeastSquaresMany } from "../fit/factor.ts";
import { fitOls, type OlsFit } from "../fit/ols.ts";
import { runTaskBootstrapOnCores, type SelectionStability } from "../infer/bootstrap/bootstrap.ts";
import {
  type TaskBootstrapOptions,
  taskBootstrapOptions,
} from "../infer/bootstrap/task_bootstrap_options.ts";
import {
  forgetAmceGroups,
  forgetMainFits,
  shareMainFit,
} from "../infer/diagnostics/diagnostics.ts";
import { amceRows, DIAGNOSTICS_STEPS, diagnosticsOutput } from "./diagnostics.ts";
import type {
  ContributionsOutput,
  DiagnosticsOutput,
  MetricOutput,
  SelectionOutput,
} from "./types.ts";
import {
  type AnalyzeOptions,
  resolveAnalyzeOptions,
  type ResolvedAnalyzeOptions,
} from "./analyze_options.ts";
import { rowLabeler } from "./row_label.ts";
import { metricOutput } from "./metric_output.ts";
import { analysisWarnings } from "./analysis_warnings.ts";
import { taskRows } from "./task_rows.ts";
import { contributionsDocument } from "./document.ts";
import { selectionDocument } from "./selection.ts";
import { mergeBootstrap } from "./merge_bootstrap.ts";
import { checkpointEffects } from "./checkpoint_effects.ts";
import type { BootstrapDraws } from "./analyze_tidy.ts";

/**
 * Options of {@linkcode runAnalysis}: the analysis plus the bootstrap
 * (`draws` 0 skips it: no `bootstrap` field).
 */
export interface RunAnalysisOptions
  extends AnalyzeOptions, BootstrapOptions, Pick<TaskBootstrapOptions, "interval"> {
  /** Times the stages `fit`, `diagnostics+screen` and `bootstrap` (`--timings`). */
  readonly timings?: Timings;
}

/** Everything one analysis produces. */
export interface Analysis {
  /** contributions.json: the fit of every metric, coefficients and tasks. */
  readonly contributions: ContributionsOutput;
  /** selection.json: the selected versions and every decision. */
  readonly selection: SelectionOutput;
  /** The raw fits per metric (typed arrays, NaN where undefined). */
  readonly fits: Readonly<Record<string, OlsFit>>;
  /** diagnostics.json of the selection metric; null when it cannot be computed (see `warnings`). */
  readonly diagnostics: DiagnosticsOutput | null;
  /** Selection stability across bootstrap draws; null when the bootstrap was skipped or unavailable. */
  readonly stability: SelectionStability | null;
  /** The raw bootstrap draws (for `--save-draws`); null when the bootstrap was skipped. */
  readonly draws: BootstrapDraws | null;
}

/**
 * Fits `R_i - B_i = C_i' beta + e_i` (no intercept) for `reward` and every
 * reward component with one shared QR factorisation, computes HC3 (and the
 * chosen HC type) and CR1 errors clustered by task, puts the AMCE beside
 * every coefficient, applies the selection rule to the selection metric's
 * coefficients, and returns the output documents with the selection
 * metric's misfit diagnostics (without bootstrap; see {@linkcode runAnalysis}).
 *
 * @param dataset A validated dataset (lib/validate).
 * @param options See {@linkcode AnalyzeOptions}.
 * @returns Contributions, selection and raw fits.
 * @throws {GatelabError} `not_identifiable` when the design is rank deficient.
 * @throws {RangeError} When the metric is unknown or the budget invalid.
 *
 * @example
 * ```ts
 * import { analyzeDataset } from "./analyze.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const dataset = {
 *   baseline: run, columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const }],
 *   gates: [{ gate_id: "g", gate_dir: "g", stage: "cold_start" as const, budget_k: 1, mask_seed: 1, p_present: 0.5, masked: run }],
 *   metrics: ["reward"], n: 3, k: 1, design: Uint8Array.from([1, 0, 1]),
 *   masked: { reward: Float64Array.from([0.5, 0.2, 0.7]) }, bare: { reward: Float64Array.from([0.3, 0.2, 0.3]) },
 *   delta: { reward: Float64Array.from([0.2, 0, 0.4]) },
 *   episodes: [0, 1, 2].map((i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 })),
 *   gateIndex: new Uint16Array(3), cluster: Int32Array.from([0, 1, 2]), clusterCount: 3,
 * };
 * const { contributions, selection } = analyzeDataset(dataset);
 * deepEqual(Math.round(contributions.metrics.reward!.coefficients.a!.estimate * 1e12) / 1e12, 0.3);
 * // AMCE of a: mean delta with a (0.2, 0.4) minus without (0) = 0.3, so the gap is ~0.
 * deepEqual(Math.round(contributions.metrics.reward!.coefficients.a!.amce! * 1e12) / 1e12, 0.3);
 * deepEqual(selection.selected, ["a"]);
 * ```
 */
export function analyzeDataset(dataset: PairedDataset, options: AnalyzeOptions = {}): Analysis {
  return analyzeResolved(dataset, resolveAnalyzeOptions(dataset, options), options);
}

/** {@linkcode analyzeDataset} on options resolved at the door (the progress callbacks as given). */
function analyzeResolved(
  dataset: PairedDataset,
  resolved: ResolvedAnalyzeOptions,
  progress: Pick<AnalyzeOptions, "onFit" | "onDiagnostics">,
  timings: Timings = new Timings(),
): Analysis {
  const { metric } = resolved;
  const { onFit, onDiagnostics } = progress;
  const fitStart = performance.now();
  // Steps of the fit: the factorisation, every metric's coefficients, then each metric's
  // covariances, AMCE and output (a step each, so that each one passes a tenth with 8 metrics or
  // fewer: a line each where a line is printed per 10%).
  const fitUnits = 2 + dataset.metrics.length;
  onFit?.(0, fitUnits);
  const factor = factorDesign(dataset.design, [dataset.n, dataset.k]);
  onFit?.(1, fitUnits);
  const fits: Record<string, OlsFit> = {};
  const metrics: Record<string, MetricOutput> = {};
  let amceFailed = false;
  let selectionAmce: ReturnType<typeof amceRows> = null;
  // Every metric's coefficients in one go (four responses per pass over the design's reflections).
  const solved = solveLeastSquaresMany(factor, dataset.metrics.map((m) => dataset.delta[m]!));
  onFit?.(2, fitUnits);
  for (const [index, m] of dataset.metrics.entries()) {
    const fit = fitOls(factor, dataset.delta[m]!, {
      covType: resolved.covType,
      cluster: dataset.cluster,
      clusterCount: dataset.clusterCount,
      coefficients: solved[index]!,
    });
    // The diagnostics reuse this factorisation and fit instead of making their own.
    shareMainFit(dataset, m, { factor, coefficients: fit.coefficients, residuals: fit.residuals });
    const amce = amceRows(dataset, m, fit.coefficients);
    if (amce === null) amceFailed = true;
    if (m === metric) selectionAmce = amce;
    fits[m] = fit;
    metrics[m] = metricOutput(dataset, m, fit, amce);
    onFit?.(3 + index, fitUnits);
  }
  const generator = generatorMeta(resolved.command);
  timings.add("fit", performance.now() - fitStart);
  // Every metric's AMCE is made: its groups and what the fits left behind are collected before
  // the diagnostics allocate theirs.
  forgetAmceGroups(dataset);
  releaseMemory(dataset.n);
  const diagnostics = selectionAmce === null ? null : timings.time("diagnostics+screen", () => {
    onDiagnostics?.(0, DIAGNOSTICS_STEPS);
    return diagnosticsOutput(
      dataset,
      { metric, amce: selectionAmce!, generator },
      onDiagnostics === undefined ? {} : { onProgress: onDiagnostics },
    );
  });
  const documentsStart = performance.now();
  const warnings = analysisWarnings(dataset, {
    fit: fits[dataset.metrics[0]!]!,
    rowLabel: rowLabeler(dataset),
    diagnosticsAvailable: !amceFailed && diagnostics !== null,
    gateBudget: resolved.gateBudget,
  });
  const contributions = contributionsDocument(dataset, {
    covType: resolved.covType,
    firstGate: resolved.firstGate,
    metrics,
    warnings,
    tasks: taskRows(dataset),
    generator,
    checkpoints: checkpointEffects(dataset),
  });
  const selection = selectionDocument(dataset, factor, fits[metric]!, resolved, generator);
  timings.add("fit", performance.now() - documentsStart);
  return { contributions, selection, fits, diagnostics, stability: null, draws: null };
}

/** Per metric, the versions whose variance is not estimable (lib/fit `varianceUndefinedColumns`). */
function notEstimableVersions(analysis: Analysis): Record<string, ReadonlySet<string>> {
  const versions = Object.keys(
    analysis.contributions.metrics[Object.keys(analysis.fits)[0]!]?.coefficients ?? {},
  );
  return Object.fromEntries(
    Object.entries(analysis.fits).map(([m, fit]) => [
      m,
      new Set(fit.varianceUndefinedColumns.map((j) => versions[j]!)),
    ]),
  );
}

/**
 * The whole analysis: {@linkcode analyzeDataset}, then (when `draws > 0`)
 * the task bootstrap (lib/infer `bootstrapDatasetOnCores`), merged in.
 *
 * @param dataset A validated dataset.
 * @param options See {@linkcode RunAnalysisOptions}.
 * @returns The analysis with bootstrap fields merged.
 * @throws As {@linkcode analyzeDataset}.
 *
 * @example Demo gate A, with a 50-draw bootstrap
 * ```ts
 * import { runAnalysis } from "./analyze.ts";
 * import { validateGates } from "../validate/validate_gates.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const a = await runAnalysis(dataset!, { draws: 50, seed: 1 });
 * const c = a.contributions.metrics.reward!.coefficients["query-formulation.v1"]!;
 * deepEqual(
 *   [c.estimate.toFixed(4), c.se_hc3!.toFixed(4), c.se_bootstrap!.toFixed(4), c.ci!.map((x) => x.toFixed(4))],
 *   ["0.1076", "0.0349", "0.0360", ["0.0376", "0.1728"]],
 * );
 * deepEqual(a.selection.selected.slice(0, 2), ["explicit-constraint-checklist.v1", "query-formulation.v1"]);
 * ```
 */
export async function runAnalysis(
  dataset: PairedDataset,
  options: RunAnalysisOptions = {},
): Promise<Analysis> {
  // Every option resolved here, once: the analysis and the bootstrap read them unchanged.
  const resolved = resolveAnalyzeOptions(dataset, options);
  const drawing = resolveBootstrapOptions(options, { minDraws: 0 });
  const bootstrap = drawing.draws === 0 ? null : taskBootstrapOptions(dataset, drawing, {
    ...(options.interval === undefined ? {} : { interval: options.interval }),
    metrics: dataset.metrics,
    budgetK: resolved.budgetK,
    selectionMetric: resolved.metric,
  });
  const timings = options.timings ?? new Timings();
  const analysis = analyzeResolved(dataset, resolved, options, timings);
  // Its diagnostics are made: the factorisation they shared is dropped before the bootstrap.
  forgetMainFits(dataset);
  if (bootstrap === null) return analysis;
  releaseMemory(dataset.n);
  // Versions never selected in selection.json are never selected in a draw either.
  const notEstimable = analysis.fits[resolved.metric]!.varianceUndefinedColumns;
  const result = await timings.timeAsync(
    "bootstrap",
    () =>
      runTaskBootstrapOnCores(
        dataset,
        notEstimable.length === 0 ? bootstrap : { ...bootstrap, notEstimable },
      ),
  );
  return {
    ...analysis,
    contributions: mergeBootstrap(analysis.contributions, result, notEstimableVersions(analysis)),
    stability: result.stability,
    draws: {
      metrics: result.kernelMetrics,
      versions: result.kernelVersions,
      draws: result.kernel.draws,
      coefficients: result.kernel.coefficients,
    },
  };
}
