/**
 * The one estimator behind every Gate B quantity: a ratio of per-task sums.
 *
 * @module
 */

/**
 * `sum_g c_g num_g / sum_g c_g den_g` over tasks g, with `c_g` the task's
 * count in a bootstrap draw (tasks with count 0 skipped) or 1 for the point
 * estimate; NaN when the denominator is 0.
 *
 * @param num Per-task numerator sums.
 * @param den Per-task denominator sums (same length).
 * @param counts Per-task draw counts, or null for the point estimate.
 * @returns The ratio, or NaN.
 *
 * @example
 * ```ts
 * import { ratioOfSums } from "./ratio_of_sums.ts";
 * import { deepEqual } from "node:assert/strict";
 * const num = Float64Array.from([1, 3]), den = Float64Array.from([2, 2]);
 * deepEqual(ratioOfSums(num, den, null), 1);                       // 4 / 4
 * deepEqual(ratioOfSums(num, den, Int32Array.from([0, 2])), 1.5);  // 6 / 4
 * ```
 */
export function ratioOfSums(
  num: Float64Array,
  den: Float64Array,
  counts: Int32Array | null,
): number {
  let n = 0, d = 0;
  for (let g = 0; g < num.length; g++) {
    const c = counts ? counts[g]! : 1;
    if (c === 0) continue;
    n += c * num[g]!;
    d += c * den[g]!;
  }
  return d > 0 ? n / d : NaN;
}
