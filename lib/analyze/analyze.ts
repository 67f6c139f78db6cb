/**
 * The gate analysis as a library call: no-intercept OLS of every metric on
 * a validated {@linkcode PairedDataset}, selection, and the contents of
 * contributions.json and selection.json. No I/O here; the CLI writes.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import { episodeLabel } from "../core/types.ts";
import { generatorMeta } from "../core/meta.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { factorDesign } from "../fit/factor.ts";
import { type CovType, LEVERAGE_ONE_TOLERANCE } from "../fit/covariance.ts";
import { fitOls, type OlsFit } from "../fit/ols.ts";
import { coefficientTolerance, TIE_TOLERANCE_RULE } from "../fit/tolerance.ts";
import { RANK_TOLERANCE } from "../fit/rank.ts";
import { selectVersions } from "../select/select.ts";
import type { SelectionStability } from "../infer/bootstrap.ts";
import { type BootstrapOutcome, runBootstrap } from "./bootstrap_hook.ts";
import { AMCE_CONVENTION, amceRows, diagnosticsOutput } from "./diagnostics.ts";
import {
  type AnalysisWarning,
  type CoefficientOutput,
  type ContributionsOutput,
  type DiagnosticsOutput,
  ESTIMATOR,
  type MetricOutput,
  type SelectionOutput,
  type TaskRow,
} from "./types.ts";
import { mean as ssMean } from "simple-statistics";

/** Options of {@linkcode analyzeDataset} and {@linkcode runAnalysis}. */
export interface AnalyzeOptions {
  /**
   * Metric the selection ranks by.
   * @default {"reward"}
   */
  readonly metric?: string;
  /**
   * Budget override (exploration only: marks the selection exploratory).
   * `null` or absent: the gate's budget_k.
   */
  readonly budgetK?: number | null;
  /**
   * Covariance type behind se_robust, t and p.
   * @default {"hc3"}
   */
  readonly covType?: CovType;
  /**
   * Command line recorded as `generator.command`.
   * @default {"analyze"}
   */
  readonly command?: string;
}

/** Options of {@linkcode runAnalysis}: the analysis plus the bootstrap. */
export interface RunAnalysisOptions extends AnalyzeOptions {
  /**
   * Bootstrap draws; 0 skips the bootstrap (no `bootstrap` field).
   * @default {10000}
   */
  readonly draws?: number;
  /**
   * Bootstrap seed.
   * @default {20260927}
   */
  readonly seed?: number;
  /**
   * Bootstrap interval: percentile, or BCa (bias-corrected and accelerated,
   * jackknife over tasks; docs/inference.md).
   * @default {"percentile"}
   */
  readonly interval?: "percentile" | "bca";
  readonly onProgress?: ProgressCallback;
}

/** Everything one analysis produces. */
export interface Analysis {
  readonly contributions: ContributionsOutput;
  readonly selection: SelectionOutput;
  /** The raw fits per metric (typed arrays, NaN where undefined). */
  readonly fits: Readonly<Record<string, OlsFit>>;
  /** diagnostics.json of the selection metric; null when it cannot be computed (see `warnings`). */
  readonly diagnostics: DiagnosticsOutput | null;
  /** Selection stability across bootstrap draws; null when the bootstrap was skipped or unavailable. */
  readonly stability: SelectionStability | null;
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Arithmetic mean (simple-statistics: compensated summation). */
function mean(a: Float64Array): number {
  return ssMean(Array.from(a));
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
  const metric = options.metric ?? "reward";
  const covType = options.covType ?? "hc3";
  const command = options.command ?? "analyze";
  if (!dataset.metrics.includes(metric)) {
    throw new RangeError(
      `Cannot select by "${metric}": the gate's metrics are ${dataset.metrics.join(", ")}`,
    );
  }
  const { n, k, columns } = dataset;
  const firstGate = dataset.gates[0];
  if (!firstGate) throw new RangeError("Cannot analyze: the dataset has no gate");
  const gateBudget = firstGate.budget_k;
  const budgetK = options.budgetK ?? gateBudget;
  if (!(Number.isInteger(budgetK) && budgetK >= 1)) {
    throw new RangeError(`Cannot select: budget ${budgetK} is not a positive integer`);
  }
  const pooled = dataset.gates.length > 1;
  const rowLabel = (i: number): string => {
    const label = episodeLabel(dataset.episodes[i]!);
    return pooled ? `${label}@${dataset.gates[dataset.gateIndex[i]!]!.gate_id}` : label;
  };

  const factor = factorDesign(dataset.design, [n, k]);
  const fits: Record<string, OlsFit> = {};
  const metrics: Record<string, MetricOutput> = {};
  let amceFailed = false;
  let selectionAmce: ReturnType<typeof amceRows> = null;
  for (const m of dataset.metrics) {
    const fit = fitOls(factor, dataset.delta[m]!, {
      covType,
      cluster: dataset.cluster,
      clusterCount: dataset.clusterCount,
    });
    fits[m] = fit;
    const amce = amceRows(dataset, m, fit.coefficients);
    if (amce === null) amceFailed = true;
    if (m === metric) selectionAmce = amce;
    const coefficients: Record<string, CoefficientOutput> = {};
    columns.forEach((c, j) => {
      coefficients[c.version_id] = {
        estimate: fit.coefficients[j]!,
        se_hc3: finite(fit.seHc3[j]!),
        se_robust: finite(fit.seRobust[j]!),
        t: finite(fit.t[j]!),
        p: finite(fit.p[j]!),
        se_cluster: finite(fit.seCluster[j]!),
        t_cluster: finite(fit.tCluster[j]!),
        p_cluster: finite(fit.pCluster[j]!),
        amce: amce?.[j]?.amce ?? null,
        amce_gap: amce?.[j]?.gap ?? null,
      };
    });
    metrics[m] = {
      n,
      k,
      df_resid: fit.dfResid,
      resid_se: finite(fit.residSe),
      ssr: fit.ssr,
      r2_uncentered: finite(fit.r2Uncentered),
      masked_mean: mean(dataset.masked[m]!),
      bare_mean: mean(dataset.bare[m]!),
      delta_mean: mean(dataset.delta[m]!),
      coefficients,
    };
  }

  const warnings: AnalysisWarning[] = [];
  const anyFit = fits[dataset.metrics[0]!]!;
  if (anyFit.leverageOneRows.length > 0) {
    const rows = anyFit.leverageOneRows.map(rowLabel);
    const versions = anyFit.hc3UndefinedColumns.map((j) => columns[j]!.version_id);
    warnings.push({
      kind: "leverage_one",
      message: `Cannot compute HC2/HC3 errors of ${versions.join(", ")}: ` +
        `row(s) ${rows.join(", ")} have leverage 1 (a version present in too few rows), ` +
        `so their residual is 0/0; se_hc3 is null there (HC0/HC1 and CR1 are still defined)`,
      rows,
      versions,
    });
  }
  if (dataset.clusterCount < 2) {
    warnings.push({
      kind: "single_cluster",
      message: "Cannot compute clustered errors: fewer than two task clusters; se_cluster is null",
    });
  }
  const generator = generatorMeta(command);
  const diagnostics = selectionAmce === null
    ? null
    : diagnosticsOutput(dataset, { metric, amce: selectionAmce, generator });
  if (amceFailed || diagnostics === null) {
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
        `the first gate's budget_k ${gateBudget} is used`,
    });
  }

  const tasks: TaskRow[] = [];
  for (let i = 0; i < n; i++) {
    const e = dataset.episodes[i]!;
    const cols: Record<string, 0 | 1> = {};
    columns.forEach((c, j) => (cols[c.version_id] = dataset.design[i * k + j] ? 1 : 0));
    const values: Record<string, { masked: number; bare: number; delta: number }> = {};
    for (const m of dataset.metrics) {
      values[m] = {
        masked: dataset.masked[m]![i]!,
        bare: dataset.bare[m]![i]!,
        delta: dataset.delta[m]![i]!,
      };
    }
    tasks.push({
      split: e.split,
      task_id: e.task_id,
      sample_id: e.sample_id,
      ...(pooled ? { gate_id: dataset.gates[dataset.gateIndex[i]!]!.gate_id } : {}),
      columns: cols,
      values,
    });
  }

  const contributions: ContributionsOutput = {
    format: "gatelab.contributions/v1",
    estimator: ESTIMATOR,
    conventions: {
      cov_type: covType,
      se_hc3:
        "HC3: (X'X)^-1 [sum e_i^2/(1-h_i)^2 x_i x_i'] (X'X)^-1; null where a leverage-1 row makes it 0/0",
      se_robust: `${covType.toUpperCase()} (the --cov choice); t and p use it`,
      se_cluster:
        "CR1 clustered by task (split, task_id): G/(G-1) x (N-1)/(N-K) x (X'X)^-1 [sum_g s_g s_g'] (X'X)^-1",
      p_values: "two-sided, standard normal (z), as statsmodels with robust covariance",
      r2: "uncentred: 1 - SSR / sum(delta^2), because the model has no intercept",
      solver: `Householder QR shared by all metrics and by the diagnostics (product columns by ` +
        `rank-one update of this fit); rank tolerance ${RANK_TOLERANCE} (relative column ` +
        `residual norm); leverage-1 tolerance ${LEVERAGE_ONE_TOLERANCE}`,
      design: "one 0/1 column per version; no intercept, no absent column, not centred",
      amce: AMCE_CONVENTION,
    },
    baseline: dataset.baseline,
    masked: firstGate.masked,
    gates: dataset.gates.map((g) => ({
      gate_id: g.gate_id,
      gate_dir: g.gate_dir,
      stage: g.stage,
      budget_k: g.budget_k,
      mask_seed: g.mask_seed,
      p_present: g.p_present,
      masked: g.masked,
    })),
    n_pairs: n,
    n_tasks: dataset.clusterCount,
    columns: columns.map((c) => ({
      version_id: c.version_id,
      slot_id: c.slot_id,
      chunk_id: c.chunk_id,
      role: c.role,
    })),
    metrics,
    warnings,
    tasks,
    generator,
  };

  const selectionFit = fits[metric]!;
  const tieTolerance = coefficientTolerance(
    factor,
    selectionFit.coefficients,
    selectionFit.residuals,
  );
  const choice = selectVersions(columns, selectionFit.coefficients, budgetK, {
    tolerance: tieTolerance,
  });
  const selection: SelectionOutput = {
    format: "gatelab.selection/v1",
    metric,
    budget_k: budgetK,
    selected: choice.selected,
    decisions: choice.decisions,
    tie_tolerance: tieTolerance,
    exploratory: options.budgetK != null && options.budgetK !== gateBudget,
    gate_budget_k: gateBudget,
    stage: firstGate.stage,
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
      tie_tolerance: `alphas within tie_tolerance are equal (ties), and alpha <= tie_tolerance ` +
        `is not positive; ${TIE_TOLERANCE_RULE}`,
    },
    generator,
  };
  return { contributions, selection, fits, diagnostics, stability: null };
}

/**
 * Merges a bootstrap outcome into contributions.json: `se_bootstrap` and
 * `ci` into every coefficient and the top-level `bootstrap` block.
 *
 * @param contributions The document from {@linkcode analyzeDataset}.
 * @param outcome What the bootstrap hook returned.
 * @returns A new document; the input is not changed.
 *
 * @example
 * ```ts
 * import { mergeBootstrap } from "./analyze.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { metrics: { reward: { coefficients: { a: { estimate: 1 } } } } };
 * // deno-lint-ignore no-explicit-any
 * const merged = mergeBootstrap(doc as any, { block: { draws: 10 }, perCoefficient: { reward: { a: { se_bootstrap: 0.1, ci: [0.8, 1.2] } } }, stability: null });
 * deepEqual(merged.metrics.reward!.coefficients.a!.se_bootstrap, 0.1);
 * deepEqual(merged.bootstrap, { draws: 10 });
 * ```
 */
export function mergeBootstrap(
  contributions: ContributionsOutput,
  outcome: BootstrapOutcome,
): ContributionsOutput {
  const metrics: Record<string, MetricOutput> = {};
  for (const [m, out] of Object.entries(contributions.metrics)) {
    const per = outcome.perCoefficient[m];
    const coefficients: Record<string, CoefficientOutput> = {};
    for (const [v, c] of Object.entries(out.coefficients)) {
      const b = per?.[v];
      coefficients[v] = b ? { ...c, se_bootstrap: b.se_bootstrap, ci: b.ci } : c;
    }
    metrics[m] = { ...out, coefficients };
  }
  const { tasks, generator, ...head } = contributions;
  return { ...head, metrics, bootstrap: outcome.block, tasks, generator };
}

/**
 * The whole analysis: {@linkcode analyzeDataset}, then (when `draws > 0`)
 * the task bootstrap through lib/analyze/bootstrap_hook.ts, merged in.
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
  const analysis = analyzeDataset(dataset, options);
  const draws = options.draws ?? 10000;
  if (draws <= 0) return analysis;
  const outcome = await runBootstrap(dataset, {
    draws,
    seed: options.seed ?? 20260927,
    interval: options.interval ?? "percentile",
    metrics: dataset.metrics,
    budgetK: analysis.selection.budget_k,
    selectionMetric: analysis.selection.metric,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return {
    ...analysis,
    contributions: mergeBootstrap(analysis.contributions, outcome),
    stability: outcome.stability,
  };
}
