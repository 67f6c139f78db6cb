/**
 * Weighted least squares trend of per-step estimates with known standard
 * errors (a fixed-effect meta-regression): the descriptive slope behind
 * the internalization screen of `gate history`.
 *
 * @module
 */
import { normalQuantile } from "../math/normal.ts";

/** Result of {@linkcode wlsTrend}. */
export interface WlsTrend {
  /** Number of points. */
  readonly n: number;
  readonly intercept: number;
  /** Change of the estimate per step. */
  readonly slope: number;
  /** sqrt of `[(X' W X)^-1]_{11}` with W = diag(1 / se^2): the scale is fixed at 1. */
  readonly slopeSe: number;
  /** Normal interval `slope -/+ z_{1-alpha/2} slopeSe`. */
  readonly slopeCi: readonly [number, number];
  /** Weighted residual sum of squares (Cochran's Q for the linear trend), df n - 2. */
  readonly q: number;
}

/**
 * Fits `y_t = a + b x_t + e_t` by weighted least squares with weights
 * `1 / se_t^2` and the scale fixed at 1 (the standard errors are taken as
 * known, as in a fixed-effect meta-regression; statsmodels
 * `WLS(y, add_constant(x), weights=1/se**2).fit(cov_type="fixed scale",
 * cov_kwds={"scale": 1})`). The slope's interval is normal. With an
 * estimated scale and t(n - 2) quantiles, three points would give one
 * degree of freedom and an uninformative interval; the per-step standard
 * errors are the sampling errors of each gate's own fit.
 *
 * @param x Positions (step numbers), at least two distinct.
 * @param y Estimates, same length.
 * @param se Standard errors, same length, finite and > 0.
 * @param options `level` of the interval (default 0.95).
 * @returns Intercept, slope, its standard error and interval, and Q.
 * @throws {RangeError} On length mismatch, fewer than two points, a
 *   non-positive or non-finite standard error, or constant x.
 *
 * @example Three steps, equal errors: ordinary least squares slope
 * ```ts
 * import { wlsTrend } from "./wls_trend.ts";
 * import { deepEqual } from "node:assert/strict";
 * const fit = wlsTrend([1, 2, 3], [0.3, 0.2, 0.1], [0.1, 0.1, 0.1]);
 * deepEqual(Math.round(fit.slope * 1e12) / 1e12, -0.1);
 * // se = 1 / sqrt(sum w (x - xbar)^2) = 1 / sqrt(100 * 2)
 * deepEqual(Math.round(fit.slopeSe * 1e12) / 1e12, Math.round(1e12 / Math.sqrt(200)) / 1e12);
 * ```
 */
export function wlsTrend(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  se: ArrayLike<number>,
  options: { readonly level?: number } = {},
): WlsTrend {
  const n = x.length;
  if (y.length !== n || se.length !== n) {
    throw new RangeError(
      `Cannot fit trend: lengths differ (x ${n}, y ${y.length}, se ${se.length})`,
    );
  }
  if (n < 2) throw new RangeError(`Cannot fit trend: ${n} point(s), need at least 2`);
  let sw = 0, swx = 0, swy = 0;
  for (let i = 0; i < n; i++) {
    const s = se[i]!;
    if (!(Number.isFinite(s) && s > 0)) {
      throw new RangeError(
        `Cannot fit trend: standard error ${s} at point ${i} is not finite and > 0`,
      );
    }
    const w = 1 / (s * s);
    sw += w;
    swx += w * x[i]!;
    swy += w * y[i]!;
  }
  const xbar = swx / sw, ybar = swy / sw;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    const w = 1 / (se[i]! * se[i]!);
    sxx += w * (x[i]! - xbar) ** 2;
    sxy += w * (x[i]! - xbar) * (y[i]! - ybar);
  }
  if (!(sxx > 0)) throw new RangeError("Cannot fit trend: all positions are equal");
  const slope = sxy / sxx;
  const intercept = ybar - slope * xbar;
  const slopeSe = 1 / Math.sqrt(sxx);
  const z = normalQuantile(1 - (1 - (options.level ?? 0.95)) / 2);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const r = y[i]! - intercept - slope * x[i]!;
    q += r * r / (se[i]! * se[i]!);
  }
  return { n, intercept, slope, slopeSe, slopeCi: [slope - z * slopeSe, slope + z * slopeSe], q };
}
