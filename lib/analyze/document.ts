/**
 * contributions.json assembled from its parts (no computation here).
 *
 * @module
 */

import { conventionLabel } from "../core/conventions.ts";
import type { GateInfo, PairedDataset } from "../core/types.ts";
import { type CovType, LEVERAGE_ONE_TOLERANCE } from "../fit/covariance.ts";
import { RANK_TOLERANCE } from "../math/rank.ts";
import { AMCE_CONVENTION } from "./diagnostics.ts";
import {
  type AnalysisWarning,
  type ContributionsOutput,
  ESTIMATOR,
  type MetricOutput,
  type TaskRow,
} from "./types.ts";

/** The computed parts of contributions.json. */
export interface ContributionsParts {
  readonly covType: CovType;
  /** The first gate (its masked run heads the document). */
  readonly firstGate: GateInfo;
  readonly metrics: Readonly<Record<string, MetricOutput>>;
  readonly warnings: readonly AnalysisWarning[];
  readonly tasks: readonly TaskRow[];
  readonly generator: ContributionsOutput["generator"];
  /** Pooled checkpoints: each checkpoint's coefficients and the Wald tests; null otherwise. */
  readonly checkpoints?: ContributionsOutput["checkpoints"] | null;
}

/**
 * contributions.json (without bootstrap fields) in its documented field
 * order, with the conventions of the estimator and the chosen covariance.
 *
 * @param dataset The validated dataset.
 * @param parts See {@linkcode ContributionsParts}.
 * @returns The document.
 */
export function contributionsDocument(
  dataset: PairedDataset,
  parts: ContributionsParts,
): ContributionsOutput {
  const { covType } = parts;
  return {
    format: "gatelab.contributions/v1",
    estimator: ESTIMATOR,
    conventions: {
      cov_type: covType,
      se_hc3:
        "HC3: (X'X)^-1 [sum e_i^2/(1-h_i)^2 x_i x_i'] (X'X)^-1; null where a leverage-1 row makes it 0/0",
      se_robust: `${conventionLabel(covType)} (the --cov choice); t and p use it`,
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
    masked: parts.firstGate.masked,
    gates: dataset.gates.map((g) => ({
      gate_id: g.gate_id,
      gate_dir: g.gate_dir,
      stage: g.stage,
      budget_k: g.budget_k,
      mask_seed: g.mask_seed,
      p_present: g.p_present,
      masked: g.masked,
      ...(g.checkpoint === undefined ? {} : {
        checkpoint_id: dataset.checkpoints![g.checkpoint]!.checkpoint_id,
        bare: dataset.checkpoints![g.checkpoint]!.bare,
      }),
    })),
    n_pairs: dataset.n,
    n_tasks: dataset.clusterCount,
    columns: dataset.columns.map((c) => ({
      version_id: c.version_id,
      slot_id: c.slot_id,
      chunk_id: c.chunk_id,
      role: c.role,
    })),
    metrics: parts.metrics,
    warnings: parts.warnings,
    ...(parts.checkpoints ? { checkpoints: parts.checkpoints } : {}),
    tasks: parts.tasks,
    generator: parts.generator,
  };
}
