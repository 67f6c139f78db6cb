/**
 * THE PLACE WHERE THE TASK BOOTSTRAP PLUGS INTO `gate analyze`.
 *
 * The inference engineer replaces the body of {@linkcode runBootstrap}
 * with a call to `bootstrapDataset` from lib/infer and fills the two
 * returned parts. Nothing else in lib/analyze needs to change: the
 * pipeline merges `perCoefficient` into every coefficient (`se_bootstrap`,
 * `ci`) and writes `block` as the top-level `bootstrap` of
 * contributions.json.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { ProgressCallback } from "../core/progress.ts";

/** What the analysis asks of the bootstrap. */
export interface BootstrapRequest {
  /** Number of draws B >= 1 (B = 0 never reaches this hook). */
  readonly draws: number;
  readonly seed: number;
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
  /** Top-level `bootstrap` block (conventions, draws, seed, degenerate counts, stability...); null when unavailable. */
  readonly block: Readonly<Record<string, unknown>> | null;
  /** metric -> version_id -> numbers; null when unavailable. */
  readonly perCoefficient:
    | Readonly<Record<string, Readonly<Record<string, BootstrapCoefficient>>>>
    | null;
  /** Why the block is null, when it is. */
  readonly note?: string;
}

/**
 * Runs the task bootstrap for the analysis.
 *
 * Until lib/infer's `bootstrapDataset` is plugged in here, it returns no
 * numbers and a note, and `gate analyze` records `bootstrap: null`.
 *
 * @param _dataset The validated dataset.
 * @param _request Draws, seed, metrics, budget.
 * @returns The outcome to merge.
 *
 * @example
 * ```ts
 * import { runBootstrap } from "./bootstrap_hook.ts";
 * import { ok } from "node:assert/strict";
 * ok(typeof runBootstrap === "function");
 * ```
 */
export function runBootstrap(
  _dataset: PairedDataset,
  _request: BootstrapRequest,
): Promise<BootstrapOutcome> {
  // --- BOOTSTRAP: replace this body with lib/infer's bootstrapDataset ---
  return Promise.resolve({
    block: null,
    perCoefficient: null,
    note: "bootstrap requested but not available in this build (lib/infer not plugged in)",
  });
  // --- END BOOTSTRAP ---
}
