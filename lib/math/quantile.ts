import { sortFloat64 } from "./sort_float64.ts";

/**
 * Lower empirical quantile: the sorted element at zero-based index
 * `floor(q (N - 1))`. This is the single quantile rule of gatelab
 * (docs/FORMAT.md sections 5 and 6); it is used for percentile bootstrap
 * intervals and for empirical percentiles such as a p95 of service time.
 *
 * @param sorted Values in ascending order (not checked; NaN not allowed).
 * @param q Probability in [0, 1].
 * @returns The quantile, or NaN for empty input.
 *
 * @example
 * ```ts
 * import { lowerQuantileSorted } from "./quantile.ts";
 * import { deepEqual } from "node:assert/strict";
 * const draws = Float64Array.from({ length: 10000 }, (_, i) => i);
 * deepEqual(lowerQuantileSorted(draws, 0.025), 249);  // floor(0.025 * 9999) = 249
 * deepEqual(lowerQuantileSorted(draws, 0.975), 9749); // floor(0.975 * 9999) = 9749
 * ```
 */
export function lowerQuantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`Cannot take quantile: q = ${q} is not in [0, 1]`);
  if (sorted.length === 0) return NaN;
  return sorted[Math.floor(q * (sorted.length - 1))]!;
}

/** Name of the quantile rule, recorded in every output that uses it. */
export const QUANTILE_RULE = "sorted[floor(q*(B-1))], zero-based (lower empirical quantile)";

/**
 * Percentile interval `[lo, hi]` of unsorted draws with the gatelab rule,
 * q = 0.025 and 0.975 by default. NaN draws are not allowed (count and
 * drop degenerate draws before calling).
 *
 * @example
 * ```ts
 * import { percentileInterval } from "./quantile.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(percentileInterval([5, 1, 4, 2, 3]), [1, 4]); // indices 0 and floor(0.975*4)=3
 * ```
 */
export function percentileInterval(
  draws: ArrayLike<number>,
  qLow = 0.025,
  qHigh = 0.975,
): [number, number] {
  const sorted = sortFloat64(Float64Array.from(draws));
  return [lowerQuantileSorted(sorted, qLow), lowerQuantileSorted(sorted, qHigh)];
}
