/**
 * No-intercept OLS on every requested prefix of an ordered design, from
 * normal equations accumulated row by row: X'X, X'y and y'y grow by one
 * row at a time, and each prefix is solved with the project's Householder
 * QR (lib/fit) applied to the k x k system, so the cost per prefix does not
 * grow with n.
 *
 * @module
 */

import { factorDesign, solveLeastSquares } from "../fit/factor.ts";
import { PIVOT_TOLERANCE } from "../math/rank.ts";
import { GatelabError } from "../core/issue.ts";

/** The fit of one prefix; `null` fields when the prefix design is rank deficient. */
export interface PrefixFit {
  /** Rows in the prefix. */
  readonly n: number;
  /** Coefficients per response (response-major, k each); null when not identifiable. */
  readonly coefficients: readonly Float64Array[] | null;
  /** Residual variance SSR / (n - k) per response; null when not identifiable. */
  readonly residualVariance: Float64Array | null;
  /** Diagonal of (X'X)^-1; null when not identifiable. */
  readonly inverseDiagonal: Float64Array | null;
}

/**
 * Fits y = X b + e (no intercept) on the first n rows for every n in
 * `prefixes` (ascending, each > k so that n - k >= 1).
 *
 * @param design Row-major design in the chosen row order, `rows x k` (0/1 or any numbers).
 * @param k Number of columns.
 * @param responses One response vector per metric, in the same row order.
 * @param prefixes Prefix sizes, strictly ascending, each in (k, rows].
 * @returns One fit per prefix.
 * @throws {RangeError} When the prefixes are not ascending or out of range.
 *
 * @example
 * ```ts
 * import { prefixFits } from "./prefix_fits.ts";
 * import { ok } from "node:assert/strict";
 * // One column of ones: b is the running mean, s^2 the running variance.
 * const [fit] = prefixFits(Float64Array.from([1, 1, 1, 1]), 1, [Float64Array.from([1, 2, 6, 9])], [3]);
 * ok(Math.abs(fit!.coefficients![0]![0]! - 3) < 1e-12);
 * ok(Math.abs(fit!.residualVariance![0]! - 7) < 1e-12 && Math.abs(fit!.inverseDiagonal![0]! - 1 / 3) < 1e-15);
 * ```
 */
export function prefixFits(
  design: ArrayLike<number>,
  k: number,
  responses: readonly ArrayLike<number>[],
  prefixes: readonly number[],
): PrefixFit[] {
  const rows = design.length / k;
  const m = responses.length;
  for (let p = 0; p < prefixes.length; p++) {
    const n = prefixes[p]!;
    if (!(Number.isInteger(n) && n > k && n <= rows) || (p > 0 && n <= prefixes[p - 1]!)) {
      throw new RangeError(
        `Cannot fit prefixes: sizes must ascend within ${k + 1}..${rows}, got ${n} at ${p}`,
      );
    }
  }
  const xtx = new Float64Array(k * k);
  const xty = responses.map(() => new Float64Array(k));
  const yty = new Float64Array(m);
  const out: PrefixFit[] = [];
  let row = 0;
  for (const n of prefixes) {
    for (; row < n; row++) {
      const base = row * k;
      for (let a = 0; a < k; a++) {
        const xa = design[base + a]!;
        if (xa === 0) continue;
        for (let b = 0; b < k; b++) xtx[a * k + b] = xtx[a * k + b]! + xa * design[base + b]!;
        for (let r = 0; r < m; r++) xty[r]![a] = xty[r]![a]! + xa * responses[r]![row]!;
      }
      for (let r = 0; r < m; r++) yty[r] = yty[r]! + responses[r]![row]! * responses[r]![row]!;
    }
    out.push(solvePrefix(n, k, xtx, xty, yty));
  }
  return out;
}

/** Solves the accumulated normal equations of one prefix. */
function solvePrefix(
  n: number,
  k: number,
  xtx: Float64Array,
  xty: readonly Float64Array[],
  yty: Float64Array,
): PrefixFit {
  let f;
  try {
    // QR of the square system X'X: solveLeastSquares then solves X'X b = X'y exactly.
    // Columns of X'X see squared residual norms, so the rank rule is the one
    // lib/math/rank.ts states for the normal equations (PIVOT_TOLERANCE).
    f = factorDesign(xtx, [k, k], { rankTolerance: PIVOT_TOLERANCE });
  } catch (error) {
    if (error instanceof GatelabError) {
      return { n, coefficients: null, residualVariance: null, inverseDiagonal: null };
    }
    throw error;
  }
  const inverseDiagonal = new Float64Array(k);
  const unit = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    unit.fill(0);
    unit[j] = 1;
    inverseDiagonal[j] = solveLeastSquares(f, unit)[j]!;
  }
  const coefficients = xty.map((v) => solveLeastSquares(f, v));
  const residualVariance = Float64Array.from(coefficients, (b, r) => {
    let fitted = 0;
    for (let j = 0; j < k; j++) fitted += b[j]! * xty[r]![j]!;
    return Math.max(0, yty[r]! - fitted) / (n - k);
  });
  return { n, coefficients, residualVariance, inverseDiagonal };
}
