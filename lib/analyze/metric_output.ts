/**
 * One metric's entry of contributions.json from its fit.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { OlsFit } from "../fit/ols.ts";
import type { AmceRow } from "../infer/diagnostics/diagnostics.ts";
import type { CoefficientOutput, MetricOutput } from "./types.ts";
import { mean as ssMean } from "simple-statistics";
import { valuesMean } from "../infer/diagnostics/group_moments.ts";

/** A number, or null where it is not finite (NaN, infinite). */
const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Arithmetic mean (simple-statistics' compensated summation, read in place; throws as it does when empty). */
function mean(a: Float64Array): number {
  if (a.length === 0) return ssMean([]);
  return valuesMean(a);
}

/**
 * The `metrics[m]` entry of contributions.json: fit summary, arm means and
 * one coefficient row per column (non-finite numbers become null; AMCE
 * fields null where `amce` is null).
 *
 * @param dataset The validated dataset.
 * @param metric The metric m.
 * @param fit Its OLS fit.
 * @param amce Its AMCE rows in column order, or null when unavailable.
 * @returns The entry, coefficients keyed by version_id in column order.
 *
 * @example
 * ```ts
 * import { metricOutput } from "./metric_output.ts";
 * import { deepEqual } from "node:assert/strict";
 * const one = (v: number) => Float64Array.from([v]);
 * const fit = { coefficients: one(0.3), seHc3: one(NaN), seRobust: one(0.1), t: one(3), p: one(0.01),
 *   seCluster: one(0.2), tCluster: one(1.5), pCluster: one(0.13), dfResid: 1, residSe: 0.1, ssr: 0.01, r2Uncentered: 0.9 };
 * const dataset = { n: 2, k: 1, columns: [{ version_id: "a" }],
 *   masked: { reward: Float64Array.from([1, 2]) }, bare: { reward: Float64Array.from([0, 1]) }, delta: { reward: Float64Array.from([1, 1]) } };
 * const out = metricOutput(dataset as never, "reward", fit as never, null);
 * deepEqual([out.masked_mean, out.coefficients.a!.se_hc3, out.coefficients.a!.amce], [1.5, null, null]);
 * ```
 */
export function metricOutput(
  dataset: Pick<PairedDataset, "n" | "k" | "columns" | "masked" | "bare" | "delta">,
  metric: string,
  fit: OlsFit,
  amce: readonly AmceRow[] | null,
): MetricOutput {
  const coefficients: Record<string, CoefficientOutput> = {};
  dataset.columns.forEach((c, j) => {
    coefficients[c.version_id] = {
      estimate: fit.coefficients[j]!,
      se_hc3: finiteOrNull(fit.seHc3[j]!),
      se_robust: finiteOrNull(fit.seRobust[j]!),
      t: finiteOrNull(fit.t[j]!),
      p: finiteOrNull(fit.p[j]!),
      se_cluster: finiteOrNull(fit.seCluster[j]!),
      t_cluster: finiteOrNull(fit.tCluster[j]!),
      p_cluster: finiteOrNull(fit.pCluster[j]!),
      amce: amce?.[j]?.amce ?? null,
      amce_gap: amce?.[j]?.gap ?? null,
    };
  });
  return {
    n: dataset.n,
    k: dataset.k,
    df_resid: fit.dfResid,
    resid_se: finiteOrNull(fit.residSe),
    ssr: fit.ssr,
    r2_uncentered: finiteOrNull(fit.r2Uncentered),
    masked_mean: mean(dataset.masked[metric]!),
    bare_mean: mean(dataset.bare[metric]!),
    delta_mean: mean(dataset.delta[metric]!),
    coefficients,
  };
}
