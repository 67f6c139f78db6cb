/**
 * How far apart two coefficients of one fit must be before their order is
 * a fact of the data rather than of floating-point rounding: the tolerance
 * the selection rule uses for ties and signs.
 *
 * @module
 */

import type { DesignFactorization } from "./factor.ts";

/** Unit roundoff of IEEE double precision, 2^-53. */
export const UNIT_ROUNDOFF = 2 ** -53;

/** The rule behind {@linkcode coefficientTolerance}, recorded in selection.json. */
export const TIE_TOLERANCE_RULE =
  "tau = n k u kappa (max_j |alpha_j| + kappa ||e|| / ||X||_F), u = 2^-53, kappa = " +
  "||X||_F sqrt(trace((X'X)^-1)) >= cond_2(X): a first-order bound on the rounding error of the " +
  "Householder least-squares solve; coefficients within tau of each other are tied, and a " +
  "coefficient at most tau is not positive";

/**
 * The tie tolerance tau of one least-squares solve on a factorised design:
 * `n k u kappa (max_j |b_j| + kappa ||e|| / ||X||_F)` with u = 2^-53 and
 * kappa = ||X||_F sqrt(trace((X'X)^-1)), an upper bound on the 2-norm
 * condition number of X. It is the standard first-order perturbation bound
 * of a least-squares solution (a backward error of n k u relative to X and
 * y, amplified by kappa for the coefficients and by kappa^2 for the residual
 * part), so two coefficients that are equal in exact arithmetic differ by
 * less than tau after any reordering of the rows, and a coefficient that is
 * exactly zero is at most tau in magnitude. It is a statement about
 * arithmetic, not a statistical threshold: it is many orders of magnitude
 * below any standard error.
 *
 * @param f The factorisation the coefficients were solved on.
 * @param coefficients The solved coefficients b.
 * @param residuals The residuals e = y - X b.
 * @returns tau >= 0 (0 when every coefficient and residual is 0).
 *
 * @example One column of four ones: kappa = 2 x sqrt(1/4) = 1
 * ```ts
 * import { factorDesign } from "./factor.ts";
 * import { coefficientTolerance, UNIT_ROUNDOFF } from "./tolerance.ts";
 * import { ok } from "node:assert/strict";
 * const f = factorDesign(Uint8Array.from([1, 1, 1, 1]), [4, 1]);
 * const tau = coefficientTolerance(f, [0.5], [0, 0, 0, 0]);
 * ok(tau === 4 * 1 * UNIT_ROUNDOFF * 1 * 0.5);
 * ```
 */
export function coefficientTolerance(
  f: DesignFactorization,
  coefficients: ArrayLike<number>,
  residuals: ArrayLike<number>,
): number {
  const { n, k, x, xtxInverse } = f;
  let xNorm2 = 0;
  for (let i = 0; i < n * k; i++) xNorm2 += x[i]! * x[i]!;
  let trace = 0;
  for (let j = 0; j < k; j++) trace += xtxInverse[j * k + j]!;
  const xNorm = Math.sqrt(xNorm2);
  const kappa = xNorm * Math.sqrt(trace);
  let bMax = 0;
  for (let j = 0; j < k; j++) bMax = Math.max(bMax, Math.abs(coefficients[j]!));
  let e2 = 0;
  for (let i = 0; i < n; i++) e2 += residuals[i]! * residuals[i]!;
  const residualTerm = xNorm > 0 ? (kappa * Math.sqrt(e2)) / xNorm : 0;
  return n * k * UNIT_ROUNDOFF * kappa * (bMax + residualTerm);
}
