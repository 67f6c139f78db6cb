/**
 * The ladder gate's e-processes on discordant units (X = 1 for a win W,
 * 0 for a loss L): the Krichevsky-Trofimov mixture (Beta(1/2, 1/2) prior)
 * restricted to theta >= 1/2 against H0: P(W | discordant) <= 1/2, and its
 * mirror restricted to theta <= 1/2 ("candidate worse"):
 *
 *   E_accept = 2^(W+L) B(W+1/2, L+1/2) (1 - I_{1/2}(W+1/2, L+1/2)) / (B(1/2,1/2) / 2)
 *   E_reject = 2^(W+L) B(W+1/2, L+1/2) I_{1/2}(W+1/2, L+1/2)       / (B(1/2,1/2) / 2)
 *
 * Both are test supermartingales under their nulls, so acting when one
 * reaches 1/alpha keeps the error at most alpha at any stopping time.
 *
 * Computation (no gamma function): with a = W + 1/2 and b = L + 1/2,
 * the sum T = E_accept + E_reject = 2^(W+L+1) B(a, b) / pi obeys T(0,0) = 2,
 * T(W+1, L) = T(W, L) (2W+1) / (W+L+1) and T(W, L+1) = T(W, L) (2L+1) / (W+L+1);
 * the smaller of the two tails is the continued fraction of the regularized
 * incomplete beta at x = 1/2, where the prefactor x^a (1-x)^b / B(a, b)
 * cancels against 2^(W+L) B(a, b): E_reject = cf(a, b) / (pi a) when W > L,
 * E_accept = cf(b, a) / (pi b) when L > W; the other one is T minus it.
 *
 * @module
 */

import { betaContinuedFraction } from "../math/distributions.ts";

/** Both e-values after W wins and L losses. */
export interface LadderEValues {
  /** Evidence that the candidate is better (theta >= 1/2 mixture). */
  readonly accept: number;
  /** Evidence that the candidate is worse (theta <= 1/2 mixture). */
  readonly reject: number;
}

/**
 * The accept and reject e-values of the ladder gate after `wins` W and
 * `losses` L discordant units.
 *
 * @param wins Number of W units (candidate right, base wrong).
 * @param losses Number of L units (candidate wrong, base right).
 * @returns Both e-values.
 * @throws {RangeError} When a count is not a non-negative integer.
 *
 * @example
 * ```ts
 * import { ladderEValues } from "./e_process.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * deepEqual(ladderEValues(0, 0), { accept: 1, reject: 1 });
 * // One win: 2 B(3/2, 1/2) (1 - I_{1/2}(3/2, 1/2)) / (pi / 2) = 1 + 2/pi
 * ok(Math.abs(ladderEValues(1, 0).accept - (1 + 2 / Math.PI)) < 1e-15);
 * // scipy.special: 2**10 * exp(betaln(10.5, 0.5)) * betaincc(10.5, 0.5, 0.5) / (pi / 2)
 * ok(Math.abs(ladderEValues(10, 0).accept / 360.7932993602132 - 1) < 1e-14);
 * ```
 */
export function ladderEValues(wins: number, losses: number): LadderEValues {
  if (!(Number.isSafeInteger(wins) && wins >= 0 && Number.isSafeInteger(losses) && losses >= 0)) {
    throw new RangeError(
      `Cannot compute e-values: counts ${wins}, ${losses} are not non-negative integers`,
    );
  }
  let total = 2;
  for (let i = 0; i < wins; i++) total *= (2 * i + 1) / (i + 1);
  for (let j = 0; j < losses; j++) total *= (2 * j + 1) / (wins + j + 1);
  if (wins === losses) return { accept: total / 2, reject: total / 2 };
  const a = wins + 0.5, b = losses + 0.5;
  if (wins > losses) {
    const reject = betaContinuedFraction(a, b, 0.5) / (Math.PI * a);
    return { accept: total - reject, reject };
  }
  const accept = betaContinuedFraction(b, a, 0.5) / (Math.PI * b);
  return { accept, reject: total - accept };
}
