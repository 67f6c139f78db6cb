/**
 * The anytime-valid confidence sequence and e-value of one OLS coefficient
 * (Lindon, Ham, Tingley & Bojinov, "Anytime-valid linear models and
 * regression adjusted causal inference in randomized experiments"; the R
 * package avlm). Valid under Gaussian, homoskedastic errors given the
 * design, at every sample size simultaneously.
 *
 * @module
 */

/** One coefficient's anytime-valid quantities at one sample size. */
export interface AnytimeValid {
  /** log of the e-value against beta_j = 0. */
  readonly logE: number;
  /** Half-width of the confidence sequence; Infinity while it is unbounded. */
  readonly radius: number;
}

/**
 * Anytime-valid e-value and confidence-sequence radius of one coefficient.
 * With nu = n - M residual degrees of freedom, t = estimate / se,
 * z2 = s^2 / se^2 and r = phi / (phi + z2):
 *
 *   log e  = 0.5 log r + ((nu + 1) / 2) (log(1 + t^2/nu) - log(1 + r t^2/nu))
 *   radius = se sqrt(nu (1 - (r alpha^2)^(1/(nu+1))) / max(0, (r alpha^2)^(1/(nu+1)) - r))
 *
 * @param estimate The OLS coefficient.
 * @param se Its classical standard error s sqrt([(X'X)^-1]_jj).
 * @param s2 The residual variance s^2 = SSR / nu.
 * @param nu Residual degrees of freedom n - M (>= 1).
 * @param options `alpha` and `phi`, the mixture precision (resolved by the sequential analysis).
 * @returns log e and the radius (Infinity when the denominator is 0).
 *
 * @example
 * ```ts
 * import { anytimeValid } from "./avlm.ts";
 * import { ok } from "node:assert/strict";
 * // t = 0: the e-value is sqrt(r) = sqrt(1 / (1 + 4)) with z2 = 4.
 * const a = anytimeValid(0, 0.5, 1, 10, { alpha: 0.05, phi: 1 });
 * ok(Math.abs(a.logE - 0.5 * Math.log(0.2)) < 1e-15);
 * // radius = 0.5 sqrt(10 (1 - q) / (q - 0.2)), q = (0.2 * 0.0025)^(1/11)
 * const q = Math.pow(0.0005, 1 / 11);
 * ok(Math.abs(a.radius - 0.5 * Math.sqrt(10 * (1 - q) / (q - 0.2))) < 1e-15);
 * ```
 */
export function anytimeValid(
  estimate: number,
  se: number,
  s2: number,
  nu: number,
  options: { readonly alpha: number; readonly phi: number },
): AnytimeValid {
  const { alpha, phi } = options;
  const t = estimate / se;
  const z2 = s2 / (se * se);
  const r = phi / (phi + z2);
  const t2 = t * t;
  const logE = 0.5 * Math.log(r) +
    ((nu + 1) / 2) * (Math.log1p(t2 / nu) - Math.log1p((r * t2) / nu));
  const q = Math.pow(r * alpha * alpha, 1 / (nu + 1));
  const denominator = Math.max(0, q - r);
  const radius = denominator > 0 ? se * Math.sqrt((nu * (1 - q)) / denominator) : Infinity;
  return { logE, radius };
}
