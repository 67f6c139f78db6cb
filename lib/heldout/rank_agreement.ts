/**
 * Rank agreement between two coefficient vectors: Spearman's rho (Pearson
 * correlation of average ranks) and Kendall's tau-b (ties corrected).
 *
 * @module
 */

/** Average ranks (1-based; ties get the mean of their positions). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!] === values[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t]!] = r;
    i = j + 1;
  }
  return ranks;
}

/**
 * Spearman's rank correlation: Pearson correlation of average ranks
 * (scipy.stats.spearmanr).
 *
 * @param a First vector.
 * @param b Second vector, same length.
 * @returns rho in [-1, 1], or null when n < 2 or either side is constant.
 *
 * @example
 * ```ts
 * import { spearman } from "./rank_agreement.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(spearman([1, 2, 3, 4], [10, 20, 40, 30]), 0.8);
 * ```
 */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) {
    throw new RangeError(`Cannot correlate: lengths ${a.length} and ${b.length} differ`);
  }
  const n = a.length;
  if (n < 2) return null;
  const ra = averageRanks(a), rb = averageRanks(b);
  const mean = (n + 1) / 2;
  let sab = 0, saa = 0, sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = ra[i]! - mean, y = rb[i]! - mean;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}

/**
 * Kendall's tau-b: (concordant - discordant) / sqrt((n0 - n1)(n0 - n2))
 * with n0 = n(n-1)/2 and n1, n2 the tied pairs of each side
 * (scipy.stats.kendalltau, variant "b"). O(n^2), fine for tens of columns.
 *
 * @returns tau-b, or null when n < 2 or either side is constant.
 *
 * @example
 * ```ts
 * import { kendallTauB } from "./rank_agreement.ts";
 * import { ok } from "node:assert/strict";
 * // scipy.stats.kendalltau([1, 2, 3, 4], [10, 20, 40, 30]).statistic = 0.6666666666666669
 * ok(Math.abs(kendallTauB([1, 2, 3, 4], [10, 20, 40, 30])! - 2 / 3) < 1e-15);
 * ```
 */
export function kendallTauB(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length) {
    throw new RangeError(`Cannot correlate: lengths ${a.length} and ${b.length} differ`);
  }
  const n = a.length;
  if (n < 2) return null;
  let s = 0, tiesA = 0, tiesB = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const da = Math.sign(a[i]! - a[j]!), db = Math.sign(b[i]! - b[j]!);
      if (da === 0) tiesA++;
      if (db === 0) tiesB++;
      s += da * db;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const den = Math.sqrt((n0 - tiesA) * (n0 - tiesB));
  return den === 0 ? null : s / den;
}
