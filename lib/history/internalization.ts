/**
 * The internalization screen of `gate history`: for a chunk whose same
 * version stayed selected for at least three consecutive steps, the trend
 * of its coefficient across checkpoints (WLS on the per-step estimates with
 * their standard errors). Descriptive only.
 *
 * @module
 */
import type { HistoryJson } from "../contract/outputs/history.ts";
import type { LifecycleEntry } from "./lifecycle.ts";
import { wlsTrend } from "./wls_trend.ts";

/** The screen's conventions, recorded in history.json. */
export const INTERNALIZATION_CONVENTIONS = {
  window:
    "the last run of at least 3 consecutive steps in which the same version of the chunk was selected",
  trend:
    "WLS of the per-step estimates on the step number, weights 1/se^2, scale fixed at 1 (known standard errors, fixed-effect meta-regression); normal 95% interval for the slope",
  flagged:
    "the slope's 95% interval lies below 0 while the chunk stays selected through the window: the coefficient falls toward zero although the chunk remains in the skill",
  note:
    "Descriptive, not proof of internalization: a coefficient that falls while the chunk stays in the skill is consistent with the model having absorbed the procedure, but also with a changed task mix, interactions with other chunks or a weaker text on a stronger checkpoint; a zero coefficient does not prove internalization.",
} as const;

/** One row of history.json `internalization` (the type its schema gives). */
export type InternalizationRow = HistoryJson["internalization"][number];

/**
 * Screens every chunk (see {@linkcode INTERNALIZATION_CONVENTIONS}).
 * Chunks without a window of three selected steps of one version, or with
 * a missing standard error in the window, get no row.
 *
 * @param chunks Lifecycles per chunk (from `chunkLifecycles`).
 * @returns One row per screened chunk, in the chunks' order.
 *
 * @example A chunk whose coefficient falls across three steps while it stays selected
 * ```ts
 * import { internalizationScreen } from "./internalization.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = (step: number, estimate: number) => ({
 *   step, version_id: "q.v1", role: "current" as const, estimate, se: 0.02, ci_lower: null, ci_upper: null,
 *   interval: "hc3_normal" as const, status: "selected" as const, rank: 1, transition: "kept" as const, others: [],
 * });
 * const [row] = internalizationScreen({ q: [e(1, 0.2), e(2, 0.1), e(3, 0.01)] });
 * deepEqual([row!.chunk_id, row!.steps, Math.round(row!.slope * 1e6) / 1e6, row!.flagged], ["q", [1, 2, 3], -0.095, true]);
 * ```
 */
export function internalizationScreen(
  chunks: Readonly<Record<string, readonly (LifecycleEntry | null)[]>>,
): InternalizationRow[] {
  const rows: InternalizationRow[] = [];
  for (const [chunk, entries] of Object.entries(chunks)) {
    // Find the last run of consecutive selected entries of one version.
    let best: LifecycleEntry[] = [];
    let run: LifecycleEntry[] = [];
    for (const e of entries) {
      if (
        e && e.status === "selected" && (run.length === 0 || run[0]!.version_id === e.version_id)
      ) {
        run.push(e);
      } else {
        if (run.length >= 3) best = run;
        run = e && e.status === "selected" ? [e] : [];
      }
    }
    if (run.length >= 3) best = run;
    if (best.length < 3 || best.some((e) => e.se === null || !(e.se > 0))) continue;
    const steps = best.map((e) => e.step);
    const estimates = best.map((e) => e.estimate);
    const ses = best.map((e) => e.se!);
    const fit = wlsTrend(steps, estimates, ses);
    rows.push({
      chunk_id: chunk,
      version_id: best[0]!.version_id,
      steps,
      estimates,
      standard_errors: ses,
      slope: fit.slope,
      slope_se: fit.slopeSe,
      slope_ci: fit.slopeCi,
      flagged: fit.slopeCi[1] < 0,
    });
  }
  return rows;
}
