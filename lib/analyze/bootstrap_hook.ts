/**
 * The adapter between the task bootstrap (lib/infer `bootstrapDataset`)
 * and the analysis: it runs the bootstrap with the analysis's settings and
 * returns the top-level `bootstrap` block of contributions.json plus the
 * `se_bootstrap` and `ci` of every coefficient, which the pipeline merges.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { ProgressCallback } from "../core/progress.ts";
import {
  bootstrapDataset,
  bootstrapDatasetParallel,
  type BootstrapJson,
  type BootstrapResult,
  bootstrapToJson,
  type SelectionStability,
} from "../infer/bootstrap.ts";

/**
 * Rows x draws from which the draws are split across Web Workers (one per
 * core, at most 8): below it, starting workers costs more than it saves.
 * The result is byte-identical either way.
 */
export const PARALLEL_MIN_WORK = 2_000_000;

/** What the analysis asks of the bootstrap. */
export interface BootstrapRequest {
  /** Number of draws B >= 1 (B = 0 never reaches this hook). */
  readonly draws: number;
  readonly seed: number;
  /** Interval rule of `ci`. */
  readonly interval: "percentile" | "bca";
  readonly metrics: readonly string[];
  /** Budget of the selection rule (for selection stability). */
  readonly budgetK: number;
  /** Metric the selection uses. */
  readonly selectionMetric: string;
  readonly onProgress?: ProgressCallback;
}

/** Bootstrap numbers of one coefficient. */
export interface BootstrapCoefficient {
  readonly se_bootstrap: number | null;
  readonly ci: readonly [number, number] | null;
}

/** What the hook hands back to the pipeline. */
export interface BootstrapOutcome {
  /** Top-level `bootstrap` block (conventions, draws, seed, degenerate counts, stability...). */
  readonly block: BootstrapJson;
  /** metric -> version_id -> numbers. */
  readonly perCoefficient: Readonly<Record<string, Readonly<Record<string, BootstrapCoefficient>>>>;
  /** Selection stability across draws (also inside `block`), typed for tables. */
  readonly stability: SelectionStability | null;
}

/**
 * Runs the task bootstrap for the analysis.
 *
 * Calls lib/infer's `bootstrapDataset` (tasks resampled with replacement,
 * percentile intervals with the FORMAT.md rule) and returns its JSON block
 * (conventions, degenerate counts, per-coefficient summaries, selection
 * stability) plus `se_bootstrap` and `ci` per coefficient.
 *
 * @param dataset The validated dataset.
 * @param request Draws, seed, metrics, budget.
 * @returns The outcome to merge.
 *
 * @example Demo gate A, 50 draws
 * ```ts
 * import { runBootstrap } from "./bootstrap_hook.ts";
 * import { validateGates } from "../validate/validate_gates.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const out = await runBootstrap(dataset!, {
 *   draws: 50, seed: 1, interval: "percentile", metrics: ["reward"], budgetK: 10, selectionMetric: "reward",
 * });
 * const b = out.perCoefficient["reward"]!["query-formulation.v1"]!;
 * deepEqual([b.se_bootstrap!.toFixed(4), b.ci!.map((x) => x.toFixed(4))], ["0.0360", ["0.0376", "0.1728"]]);
 * deepEqual([out.block.draws, out.block.seed, out.stability!.draws_used], [50, 1, 50]);
 * ```
 */
export async function runBootstrap(
  dataset: PairedDataset,
  request: BootstrapRequest,
): Promise<BootstrapOutcome> {
  const options = {
    draws: request.draws,
    seed: request.seed,
    interval: request.interval,
    metrics: request.metrics,
    budgetK: request.budgetK,
    selectionMetric: request.selectionMetric,
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  };
  const workers = Math.min(8, navigator.hardwareConcurrency ?? 1);
  let result: BootstrapResult;
  if (workers > 1 && dataset.n * request.draws >= PARALLEL_MIN_WORK) {
    try {
      result = await bootstrapDatasetParallel(dataset, { ...options, workers });
    } catch (error) {
      // Workers unavailable (e.g. a sandbox that cannot load the worker
      // module): the same numbers on this thread.
      if (error instanceof RangeError) throw error;
      result = bootstrapDataset(dataset, options);
    }
  } else {
    result = bootstrapDataset(dataset, options);
  }
  const perCoefficient: Record<string, Record<string, BootstrapCoefficient>> = {};
  for (const [metric, summary] of Object.entries(result.metrics)) {
    const byVersion: Record<string, BootstrapCoefficient> = {};
    for (const [version, c] of Object.entries(summary.coefficients)) {
      byVersion[version] = { se_bootstrap: c.se_bootstrap, ci: c.ci };
    }
    perCoefficient[metric] = byVersion;
  }
  return {
    block: bootstrapToJson(result),
    perCoefficient,
    stability: result.stability,
  };
}
