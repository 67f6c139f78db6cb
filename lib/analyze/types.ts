/**
 * Shapes of the gate-analysis outputs (docs/FORMAT.md section 5, plus the
 * compatible extras documented in docs/analysis.md).
 *
 * @module
 */

import type { CovType } from "../fit/covariance.ts";
import type { SelectionDecision } from "../select/select.ts";
import type { DesignColumn, GateInfo, RunRef } from "../core/types.ts";
import type { BootstrapJson } from "../infer/bootstrap/bootstrap.ts";
import type {
  AmceRow,
  InteractionScreen,
  ResidualByCount,
} from "../infer/diagnostics/diagnostics.ts";

/** The estimator block, fixed metadata: no intercept is ever estimated. */
export const ESTIMATOR = {
  name: "paired_delta_ols_no_intercept",
  formula: "R_i - B_i = C_i' beta + e_i",
  intercept: 0.0,
} as const;

/** One coefficient of one metric. Undefined numbers are null, never NaN. */
export interface CoefficientOutput {
  /** No-intercept OLS coefficient of the version's column. */
  readonly estimate: number;
  /** HC3 standard error (null when a leverage-1 row makes it undefined). */
  readonly se_hc3: number | null;
  /** Standard error of the chosen covariance type (`conventions.cov_type`). */
  readonly se_robust: number | null;
  /** estimate / se_robust. */
  readonly t: number | null;
  /** Two-sided normal p-value of t. */
  readonly p: number | null;
  /** CR1 standard error, clusters = tasks (split, task_id). */
  readonly se_cluster: number | null;
  /** estimate / se_cluster. */
  readonly t_cluster: number | null;
  /** Two-sided normal p-value of t_cluster. */
  readonly p_cluster: number | null;
  /**
   * AMCE: mean delta over rows with this version present minus mean delta
   * over rows with its slot absent (`conventions.amce`); null when either
   * group is empty.
   */
  readonly amce: number | null;
  /** estimate - amce (null with amce). */
  readonly amce_gap: number | null;
  /** Task-bootstrap standard error (present once the bootstrap ran). */
  readonly se_bootstrap?: number | null;
  /** Task-bootstrap percentile interval (present once the bootstrap ran). */
  readonly ci?: readonly [number, number] | null;
}

/** One metric's fit. */
export interface MetricOutput {
  /** Paired rows in the fit. */
  readonly n: number;
  /** Design columns (versions) in the fit. */
  readonly k: number;
  /** Residual degrees of freedom, n - k. */
  readonly df_resid: number;
  /** Residual standard error, sqrt(SSR / df_resid); null when df_resid is 0. */
  readonly resid_se: number | null;
  /** Sum of squared residuals. */
  readonly ssr: number;
  /** 1 - SSR / sum(delta^2): uncentred R-squared (no intercept). */
  readonly r2_uncentered: number | null;
  /** Mean of the metric over the masked (gate) run's rows. */
  readonly masked_mean: number;
  /** Mean of the metric over the paired bare rows. */
  readonly bare_mean: number;
  /** Mean paired delta, masked minus bare. */
  readonly delta_mean: number;
  /** One entry per version id. */
  readonly coefficients: Readonly<Record<string, CoefficientOutput>>;
}

/** A warning about the fit (not an input issue). */
export interface AnalysisWarning {
  /** What went wrong, as a closed set of codes. */
  readonly kind: "leverage_one" | "single_cluster" | "budget_differs" | "diagnostics_unavailable";
  /** The warning as a readable sentence. */
  readonly message: string;
  /** Episode labels of the rows concerned (`split/task_id/sample_id`, with `@gate_id` when pooled). */
  readonly rows?: readonly string[];
  /** Version ids whose HC2/HC3 errors are null because of those rows. */
  readonly versions?: readonly string[];
}

/** Per-gate reference in a pooled analysis (the dataset's {@linkcode GateInfo}). */
export type GateRef = GateInfo;

/** One (gate, episode) row of contributions.json. */
export interface TaskRow {
  /** Split of the episode (e.g. `val`). */
  readonly split: string;
  /** Task of the episode. */
  readonly task_id: string;
  /** Sample of the task. */
  readonly sample_id: number;
  /** Gate the row comes from (only when gates are pooled). */
  readonly gate_id?: string;
  /** Design row: 1 where the version was present, by version id. */
  readonly columns: Readonly<Record<string, 0 | 1>>;
  /** Masked, bare and delta value per metric. */
  readonly values: Readonly<
    Record<string, { readonly masked: number; readonly bare: number; readonly delta: number }>
  >;
}

/** contributions.json. */
export interface ContributionsOutput {
  /** File format tag. */
  readonly format: "gatelab.contributions/v1";
  /** The estimator (paired delta, OLS, no intercept). */
  readonly estimator: typeof ESTIMATOR;
  /** How each reported quantity is defined, in words. */
  readonly conventions: {
    readonly cov_type: CovType;
    readonly se_hc3: string;
    readonly se_robust: string;
    readonly se_cluster: string;
    readonly p_values: string;
    readonly r2: string;
    readonly solver: string;
    readonly design: string;
    readonly amce: string;
  };
  /** The bare run every gate was paired with. */
  readonly baseline: RunRef;
  /** The first (or only) gate's masked run. */
  readonly masked: RunRef;
  /** Every gate pooled into the fit, in the order given. */
  readonly gates: readonly GateRef[];
  /** Paired rows in the fit. */
  readonly n_pairs: number;
  /** Distinct tasks (clusters) in the fit. */
  readonly n_tasks: number;
  /** Design columns in fit order. */
  readonly columns: readonly DesignColumn[];
  /** The fit of each metric, by metric name. */
  readonly metrics: Readonly<Record<string, MetricOutput>>;
  /** Warnings about the fit (leverage-one rows, a single cluster, ...). */
  readonly warnings: readonly AnalysisWarning[];
  /** Task-bootstrap block; absent when the bootstrap was skipped (`--bootstrap 0`). */
  readonly bootstrap?: BootstrapJson;
  /** Every paired row with its design and values. */
  readonly tasks: readonly TaskRow[];
  /** Tool, version and command that wrote the file. */
  readonly generator: { tool: string; version: string; command: string };
}

/** selection.json. */
export interface SelectionOutput {
  /** File format tag. */
  readonly format: "gatelab.selection/v1";
  /** Metric the selection ranks by. */
  readonly metric: string;
  /** Budget K used (the gate's unless overridden). */
  readonly budget_k: number;
  /** Selected version ids, in rank order. */
  readonly selected: readonly string[];
  /** The decision on every version, with its alpha and rank. */
  readonly decisions: readonly SelectionDecision[];
  /**
   * Tie tolerance tau of the selection metric's solve (lib/fit
   * `coefficientTolerance`): alphas within tau are tied, alpha <= tau is not positive.
   */
  readonly tie_tolerance: number;
  /** True when --budget-k overrode the gate's budget (exploration only: the gate's budget is part of its plan). */
  readonly exploratory: boolean;
  /** The budget K in the gate's plan. */
  readonly gate_budget_k: number;
  /** Stage of the gate(s): cold start or online. */
  readonly stage: "cold_start" | "online";
  /** Gates the selection is based on. */
  readonly gate_ids: readonly string[];
  /** sha256 of the bare run the gates were paired with. */
  readonly baseline_sha256: string;
  /** Name of the estimator behind alpha. */
  readonly estimator: string;
  /** How alpha, family winners, survivor order, selection and ties are defined. */
  readonly conventions: {
    readonly alpha: string;
    readonly family_winner: string;
    readonly survivor_order: string;
    readonly selected: string;
    readonly tie_tolerance: string;
  };
  /** Tool, version and command that wrote the file. */
  readonly generator: { tool: string; version: string; command: string };
}

/** diagnostics.json: misfit diagnostics of the selection metric (docs/analysis.md). */
export interface DiagnosticsOutput {
  /** File format tag. */
  readonly format: "gatelab.diagnostics/v1";
  /** The selection metric (`--metric`). */
  readonly metric: string;
  /** Name of the estimator behind beta. */
  readonly estimator: string;
  /** How each diagnostic is defined, in words. */
  readonly conventions: {
    readonly amce: string;
    readonly amce_se: string;
    readonly amce_gap: string;
    readonly interaction_screen: string;
    readonly interaction_covariance: string;
    readonly multiplicity: string;
    readonly joint_test: string;
    readonly residuals_by_count: string;
  };
  /** The bare run every gate was paired with. */
  readonly baseline: RunRef;
  /** Gates in the fit, with their masked runs. */
  readonly gates: readonly { readonly gate_id: string; readonly masked: RunRef }[];
  /** Paired rows. */
  readonly n_pairs: number;
  /** Distinct tasks (clusters). */
  readonly n_tasks: number;
  /** One row per column; `beta` is contributions.json's estimate and `gap` = beta - amce. */
  readonly amce: readonly AmceRow[];
  /** Pairwise product screen: test, covariance, Holm-adjusted p, flagged pairs, joint test. */
  readonly interactions: InteractionScreen;
  /** Residual mean and spread by number of chunks present. */
  readonly residuals_by_count: readonly ResidualByCount[];
  /** Tool, version and command that wrote the file. */
  readonly generator: { tool: string; version: string; command: string };
}
