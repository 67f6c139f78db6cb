/**
 * The bootstrap's numbers merged into contributions.json.
 *
 * @module
 */

import type { BootstrapOutcome } from "./bootstrap_hook.ts";
import type { CoefficientOutput, ContributionsOutput, MetricOutput } from "./types.ts";

/**
 * Merges a bootstrap outcome into contributions.json: `se_bootstrap` and
 * `ci` into every coefficient and the top-level `bootstrap` block.
 *
 * @param contributions The document from `analyzeDataset`.
 * @param outcome What the bootstrap hook returned.
 * @returns A new document; the input is not changed.
 *
 * @example
 * ```ts
 * import { mergeBootstrap } from "./merge_bootstrap.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { metrics: { reward: { coefficients: { a: { estimate: 1 } } } } };
 * // deno-lint-ignore no-explicit-any
 * const merged = mergeBootstrap(doc as any, { block: { draws: 10 } as any, perCoefficient: { reward: { a: { se_bootstrap: 0.1, ci: [0.8, 1.2] } } }, stability: null });
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
