/**
 * The 95% percentile interval of Gate B's bootstrap draws.
 *
 * @module
 */

import { lowerQuantileSorted } from "../math/quantile.ts";
import { sortFloat64 } from "../math/sort_float64.ts";

/**
 * `[q(0.025), q(0.975)]` of the draws by the lower empirical quantile
 * (`QUANTILE_RULE`); null without draws or when either end is not finite
 * (NaN draws sort last; an interval that reaches them is null).
 *
 * @param draws The bootstrap draws of one quantity.
 * @returns The interval, or null.
 *
 * @example
 * ```ts
 * import { drawInterval } from "./draw_interval.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(drawInterval(Float64Array.from([5, 1, 4, 2, 3])), [1, 4]);
 * deepEqual(drawInterval(Float64Array.from([NaN, NaN])), null);
 * deepEqual(drawInterval(new Float64Array(0)), null);
 * ```
 */
export function drawInterval(draws: Float64Array): [number, number] | null {
  if (draws.length === 0) return null;
  const sorted = sortFloat64(Float64Array.from(draws));
  const lo = lowerQuantileSorted(sorted, 0.025), hi = lowerQuantileSorted(sorted, 0.975);
  return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : null;
}
