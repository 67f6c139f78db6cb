/**
 * Shapes of the gate-analysis outputs (docs/FORMAT.md section 5, plus the
 * compatible extras documented in docs/analysis.md).
 *
 * @module
 */

import type { CovType } from "../fit/covariance.ts";
import type { SelectionDecision } from "../select/select.ts";
import type { DesignColumn, GateInfo, RunRef } from "../core/types.ts";
import type { BootstrapJson } from "../infer/bootstrap.ts";
import type { AmceRow, InteractionScreen, ResidualByCount } from "../infer/diagnostics.ts";

/** The estimator block, fixed metadata: no intercept is ever estimated. */
export const ESTIMATOR = {
  name: "paired_delta_ols_no_intercept",
  formula: "R_i - B_i = C_i' beta + e_i",
  intercept: 0.0,
} as const;

/** One coefficient of one metric. Undefined numbers are null, never NaN. */
export interface CoefficientOutput {
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
  readonly t_cluster: number | null;
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
  readonly n: number;
  readonly k: number;
  readonly df_resid: number;
  readonly resid_se: number | null;
  readonly ssr: number;
  /** 1 - SSR / sum(delta^2): uncentred R-squared (no intercept). */
  readonly r2_uncentered: number | null;
  readonly masked_mean: number;
  readonly bare_mean: number;
  readonly delta_mean: number;
  readonly coefficients: Readonly<Record<string, CoefficientOutput>>;
}

/** A warning about the fit (not an input issue). */
export interface AnalysisWarning {
  readonly kind: "leverage_one" | "single_cluster" | "budget_differs" | "diagnostics_unavailable";
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
  readonly split: string;
  readonly task_id: string;
  readonly sample_id: number;
  readonly gate_id?: string;
  readonly columns: Readonly<Record<string, 0 | 1>>;
  readonly values: Readonly<
    Record<string, { readonly masked: number; readonly bare: number; readonly delta: number }>
  >;
}

/** contributions.json. */
export interface ContributionsOutput {
  readonly format: "gatelab.contributions/v1";
  readonly estimator: typeof ESTIMATOR;
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
  readonly baseline: RunRef;
  /** The first (or only) gate's masked run. */
  readonly masked: RunRef;
  /** Every gate pooled into the fit, in the order given. */
  readonly gates: readonly GateRef[];
  readonly n_pairs: number;
  readonly n_tasks: number;
  readonly columns: readonly DesignColumn[];
  readonly metrics: Readonly<Record<string, MetricOutput>>;
  readonly warnings: readonly AnalysisWarning[];
  /** Task-bootstrap block; absent when the bootstrap was skipped (`--bootstrap 0`). */
  readonly bootstrap?: BootstrapJson;
  readonly tasks: readonly TaskRow[];
  readonly generator: { tool: string; version: string; command: string };
}

/** selection.json. */
export interface SelectionOutput {
  readonly format: "gatelab.selection/v1";
  readonly metric: string;
  readonly budget_k: number;
  readonly selected: readonly string[];
  readonly decisions: readonly SelectionDecision[];
  /**
   * Tie tolerance tau of the selection metric's solve (lib/fit
   * `coefficientTolerance`): alphas within tau are tied, alpha <= tau is not positive.
   */
  readonly tie_tolerance: number;
  /** True when --budget-k overrode the gate's budget (exploration only: the gate's budget is part of its plan). */
  readonly exploratory: boolean;
  readonly gate_budget_k: number;
  readonly stage: "cold_start" | "online";
  readonly gate_ids: readonly string[];
  readonly baseline_sha256: string;
  readonly estimator: string;
  readonly conventions: {
    readonly alpha: string;
    readonly family_winner: string;
    readonly survivor_order: string;
    readonly selected: string;
    readonly tie_tolerance: string;
  };
  readonly generator: { tool: string; version: string; command: string };
}

/** diagnostics.json: misfit diagnostics of the selection metric (docs/analysis.md). */
export interface DiagnosticsOutput {
  readonly format: "gatelab.diagnostics/v1";
  /** The selection metric (`--metric`). */
  readonly metric: string;
  readonly estimator: string;
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
  readonly baseline: RunRef;
  readonly gates: readonly { readonly gate_id: string; readonly masked: RunRef }[];
  readonly n_pairs: number;
  readonly n_tasks: number;
  /** One row per column; `beta` is contributions.json's estimate and `gap` = beta - amce. */
  readonly amce: readonly AmceRow[];
  /** Pairwise product screen: test, covariance, Holm-adjusted p, flagged pairs, joint test. */
  readonly interactions: InteractionScreen;
  readonly residuals_by_count: readonly ResidualByCount[];
  readonly generator: { tool: string; version: string; command: string };
}
