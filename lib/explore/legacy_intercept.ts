/**
 * The old intercept estimator, refitted beside the paired-delta fit for an
 * exploratory comparison: `R_i - mean(B) = a + C_i' b + e_i`. It never
 * selects; the side-by-side table shows which selection each estimator
 * would have made.
 *
 * @module
 */
import type { PairedDataset } from "../core/types.ts";
import { ESTIMATOR } from "../contract/outputs/common.ts";
import { factorDesign } from "../fit/factor.ts";
import { fitOls } from "../fit/ols.ts";
import { selectVersions } from "../select/select.ts";
import { DEFAULTS } from "../core/defaults.ts";

/** One row of the side-by-side comparison. */
export interface LegacyRow {
  readonly version_id: string;
  readonly role: string;
  readonly paired_delta: {
    readonly estimate: number;
    readonly se_hc3: number | null;
    readonly rank: number | null;
    readonly status: string;
  };
  readonly legacy_intercept: {
    readonly estimate: number;
    readonly se_hc3: number | null;
    readonly rank: number | null;
    readonly status: string;
  };
}

/** `legacy_comparison.json`. */
export interface LegacyComparison {
  readonly format: "gatelab.legacy-comparison/v1";
  readonly metric: string;
  readonly budget_k: number;
  readonly estimators: {
    readonly paired_delta: string;
    readonly legacy_intercept: string;
  };
  readonly note: string;
  readonly legacy_intercept_estimate: number;
  readonly legacy_intercept_se_hc3: number | null;
  readonly bare_mean: number;
  readonly selected: {
    readonly paired_delta: readonly string[];
    readonly legacy_intercept: readonly string[];
  };
  readonly rows: readonly LegacyRow[];
}

const orNull = (v: number) => (Number.isFinite(v) ? v : null);

/**
 * Fits both estimators on one metric and applies the selection rule to
 * each (for comparison only): the paired-delta no-intercept OLS
 * `R_i - B_i = C_i' beta + e_i`, and the legacy model with an intercept on
 * `R_i - mean(B)` where mean(B) is the mean bare value over the dataset's
 * rows. HC3 errors for both.
 *
 * @param dataset A dataset (built with any waived pairing codes).
 * @param options Metric (default `reward`) and budget K (default the first gate's).
 * @returns The side-by-side document.
 *
 * @example Legacy slopes equal the paired ones when B is constant across tasks
 * ```ts
 * import { legacyComparison } from "./legacy_intercept.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const dataset = {
 *   baseline: run, columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const }],
 *   gates: [{ gate_id: "g", gate_dir: "g", stage: "cold_start" as const, budget_k: 1, mask_seed: 1, p_present: 0.5, masked: run }],
 *   metrics: ["reward"], n: 4, k: 1, design: Uint8Array.from([1, 0, 1, 0]),
 *   masked: { reward: Float64Array.from([0.7, 0.3, 0.9, 0.5]) }, bare: { reward: Float64Array.from([0.4, 0.4, 0.4, 0.4]) },
 *   delta: { reward: Float64Array.from([0.3, -0.1, 0.5, 0.1]) },
 *   episodes: [0, 1, 2, 3].map((i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 })),
 *   gateIndex: new Uint16Array(4), cluster: Int32Array.from([0, 1, 2, 3]), clusterCount: 4,
 * };
 * const doc = legacyComparison(dataset);
 * // legacy: intercept mean(R - 0.4 | a absent) = 0, slope 0.4 - 0 = 0.4; paired (no intercept): mean delta with a = 0.4
 * deepEqual(Math.round(doc.rows[0]!.legacy_intercept.estimate * 1e12) / 1e12, 0.4);
 * deepEqual(Math.round(doc.legacy_intercept_estimate * 1e12) / 1e12, 0);
 * deepEqual(Math.round(doc.rows[0]!.paired_delta.estimate * 1e12) / 1e12, 0.4);
 * ```
 */
export function legacyComparison(
  dataset: PairedDataset,
  options: { readonly metric?: string; readonly budgetK?: number } = {},
): LegacyComparison {
  const metric = options.metric ?? DEFAULTS.metric;
  const budgetK = options.budgetK ?? dataset.gates[0]!.budget_k;
  const { n, k, columns } = dataset;
  const masked = dataset.masked[metric]!,
    bare = dataset.bare[metric]!,
    delta = dataset.delta[metric]!;
  let bareMean = 0;
  for (let i = 0; i < n; i++) bareMean += bare[i]!;
  bareMean /= n;
  const paired = fitOls(factorDesign(dataset.design, [n, k]), delta, { covType: "hc3" });
  const withIntercept = new Float64Array(n * (k + 1));
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    withIntercept[i * (k + 1)] = 1;
    for (let j = 0; j < k; j++) withIntercept[i * (k + 1) + 1 + j] = dataset.design[i * k + j]!;
    y[i] = masked[i]! - bareMean;
  }
  const legacy = fitOls(factorDesign(withIntercept, [n, k + 1]), y, { covType: "hc3" });
  const legacySlopes = legacy.coefficients.subarray(1);
  const pairedSel = selectVersions(columns, paired.coefficients, budgetK);
  const legacySel = selectVersions(columns, legacySlopes, budgetK);
  return {
    format: "gatelab.legacy-comparison/v1",
    metric,
    budget_k: budgetK,
    estimators: {
      paired_delta: `${ESTIMATOR.name}: ${ESTIMATOR.formula} (the only estimator that selects)`,
      legacy_intercept:
        "legacy_intercept: R_i - mean(B) = a + C_i' b + e_i, mean(B) over the rows' bare values (comparison only, never selects)",
    },
    note:
      "Exploratory comparison: the statuses under each estimator say which selection it would have made; only the paired-delta fit of a strictly paired gate can select.",
    legacy_intercept_estimate: legacy.coefficients[0]!,
    legacy_intercept_se_hc3: orNull(legacy.seHc3[0]!),
    bare_mean: bareMean,
    selected: { paired_delta: pairedSel.selected, legacy_intercept: legacySel.selected },
    rows: columns.map((c, j) => ({
      version_id: c.version_id,
      role: c.role,
      paired_delta: {
        estimate: paired.coefficients[j]!,
        se_hc3: orNull(paired.seHc3[j]!),
        rank: pairedSel.decisions[j]!.rank,
        status: pairedSel.decisions[j]!.status,
      },
      legacy_intercept: {
        estimate: legacySlopes[j]!,
        se_hc3: orNull(legacy.seHc3[j + 1]!),
        rank: legacySel.decisions[j]!.rank,
        status: legacySel.decisions[j]!.status,
      },
    })),
  };
}
