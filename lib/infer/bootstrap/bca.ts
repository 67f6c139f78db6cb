/**
 * Bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987;
 * Efron and Tibshirani 1993, section 14.3) with gatelab's quantile rule.
 *
 * @module
 */
import { lowerQuantileSorted } from "../../math/quantile.ts";
import { normalCdf, normalQuantile } from "../../math/normal.ts";

/** Options of {@linkcode bcaInterval}. */
export interface BcaOptions {
  /** @default {0.025} */
  readonly qLow?: number;
  /** @default {0.975} */
  readonly qHigh?: number;
}

/**
 * BCa interval from sorted bootstrap draws, the full-sample estimate and
 * leave-one-task-out (jackknife) estimates.
 *
 * Bias correction z0 = Phi^-1(#{draws < estimate} / B). Acceleration
 * a = sum (m - j_i)^3 / (6 (sum (m - j_i)^2)^(3/2)), m the mean of the
 * jackknife estimates j_i. Adjusted levels
 * q' = Phi(z0 + (z0 + z_q) / (1 - a (z0 + z_q))); the ends are the sorted
 * draws at zero-based index floor(q' (B - 1)) (the same rule as the
 * percentile interval).
 *
 * @param sorted Bootstrap draws in ascending order (no NaN).
 * @param estimate Full-sample estimate.
 * @param jackknife Leave-one-task-out estimates (no NaN).
 * @param options Levels.
 * @returns `[lo, hi]`, or null when z0 or a is undefined (all draws on one
 *   side of the estimate, or constant jackknife estimates).
 *
 * @example With symmetric draws centred on the estimate, BCa equals the percentile interval
 * ```ts
 * import { bcaInterval } from "./bca.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sorted = Float64Array.from({ length: 1001 }, (_, i) => (i - 500) / 100);
 * deepEqual(bcaInterval(sorted, 0.0001, [-1, 0, 1]), [sorted[25], sorted[975]]);
 * ```
 */
export function bcaInterval(
  sorted: ArrayLike<number>,
  estimate: number,
  jackknife: ArrayLike<number>,
  options: BcaOptions = {},
): [number, number] | null {
  const qLow = options.qLow ?? 0.025, qHigh = options.qHigh ?? 0.975;
  const b = sorted.length;
  if (b === 0 || jackknife.length < 2) return null;
  let below = 0;
  for (let i = 0; i < b; i++) if (sorted[i]! < estimate) below++;
  if (below === 0 || below === b) return null;
  const z0 = normalQuantile(below / b);
  let mean = 0;
  for (let i = 0; i < jackknife.length; i++) mean += jackknife[i]!;
  mean /= jackknife.length;
  let num = 0, den = 0;
  for (let i = 0; i < jackknife.length; i++) {
    const d = mean - jackknife[i]!;
    num += d * d * d;
    den += d * d;
  }
  if (!(den > 0)) return null;
  const a = num / (6 * Math.pow(den, 1.5));
  const adjust = (q: number): number => {
    const zq = normalQuantile(q);
    return normalCdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)));
  };
  const lo = adjust(qLow), hi = adjust(qHigh);
  if (!(lo >= 0 && lo <= 1 && hi >= 0 && hi <= 1)) return null;
  return [lowerQuantileSorted(sorted, lo), lowerQuantileSorted(sorted, hi)];
}
