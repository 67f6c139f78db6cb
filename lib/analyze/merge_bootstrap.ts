/**
 * The bootstrap's numbers merged into contributions.json.
 *
 * @module
 */

import { type BootstrapResult, bootstrapToJson } from "../infer/bootstrap/bootstrap.ts";
import type { CoefficientOutput, ContributionsOutput, MetricOutput } from "./types.ts";

/**
 * Merges a task bootstrap (lib/infer `bootstrapDataset`) into
 * contributions.json: `se_bootstrap` and `ci` into every coefficient and
 * the result without its raw draws as the top-level `bootstrap` block.
 * Versions of `notEstimable` (per metric) get null `se_bootstrap` and `ci`.
 *
 * @param contributions The document from `analyzeDataset`.
 * @param result The bootstrap of the same dataset.
 * @returns A new document; the input is not changed.
 *
 * @example
 * ```ts
 * import { mergeBootstrap } from "./merge_bootstrap.ts";
 * import { deepEqual } from "node:assert/strict";
 * import { bootstrapDataset } from "../infer/bootstrap/bootstrap.ts";
 * import { analyzeDataset } from "./analyze.ts";
 * import { validateGates } from "../validate/validate_gates.ts";
 * const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const { contributions } = analyzeDataset(dataset!);
 * const merged = mergeBootstrap(contributions, bootstrapDataset(dataset!, { draws: 20, seed: 1 }));
 * const c = merged.metrics["reward"]!.coefficients["query-formulation.v1"]!;
 * deepEqual([merged.bootstrap!.draws, typeof c.se_bootstrap, c.ci!.length], [20, "number", 2]);
 * ```
 */
export function mergeBootstrap(
  contributions: ContributionsOutput,
  result: BootstrapResult,
  notEstimable: Readonly<Record<string, ReadonlySet<string>>> = {},
): ContributionsOutput {
  const metrics: Record<string, MetricOutput> = {};
  for (const [m, out] of Object.entries(contributions.metrics)) {
    const per = result.metrics[m]?.coefficients;
    const coefficients: Record<string, CoefficientOutput> = {};
    for (const [v, c] of Object.entries(out.coefficients)) {
      const b = per?.[v];
      // A coefficient whose variance is not estimable gets no bootstrap error or interval either.
      const none = notEstimable[m]?.has(v) === true;
      coefficients[v] = b
        ? { ...c, se_bootstrap: none ? null : b.se_bootstrap, ci: none ? null : b.ci }
        : c;
    }
    metrics[m] = { ...out, coefficients };
  }
  const { tasks, generator, ...head } = contributions;
  return { ...head, metrics, bootstrap: bootstrapToJson(result), tasks, generator };
}
