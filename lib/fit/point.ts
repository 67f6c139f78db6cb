/**
 * Point estimates of several responses on one design through the core
 * factorisation: what the bootstrap and the held-out check use for their
 * full-data (or fold) coefficients, so they equal the fit's to the last bit.
 *
 * @module
 */

import { GatelabError } from "../core/issue.ts";
import { factorDesign, solveLeastSquares } from "./factor.ts";
import { coefficientTolerance } from "./tolerance.ts";

/** Result of {@linkcode pointFit}. */
export interface PointFit {
  /** Coefficients, response-major (`r * k + j`). */
  readonly coefficients: Float64Array;
  /** Tie tolerance of each response's solve ({@linkcode coefficientTolerance}). */
  readonly tolerances: Float64Array;
}

/**
 * Solves y_r = X b_r for every response on one Householder factorisation of
 * X (lib/fit `factorDesign`), with each solve's tie tolerance.
 *
 * @param design Row-major n x k design.
 * @param shape `[n, k]`.
 * @param responses One array of length n per response.
 * @returns The coefficients and tolerances, or null when X is rank deficient
 *   under the rank rule of lib/math/rank.ts (a column never present included).
 *
 * @example
 * ```ts
 * import { pointFit } from "./point.ts";
 * import { ok } from "node:assert/strict";
 * const p = pointFit(Uint8Array.from([1, 0, 0, 1, 1, 1]), [3, 2], [[0.5, -0.25, 0.25]])!;
 * ok(Math.abs(p.coefficients[0]! - 0.5) < 1e-15 && Math.abs(p.coefficients[1]! + 0.25) < 1e-15);
 * ok(pointFit(Uint8Array.from([1, 0, 1, 0]), [2, 2], [[1, 1]]) === null);
 * ```
 */
export function pointFit(
  design: ArrayLike<number>,
  shape: readonly [number, number],
  responses: readonly ArrayLike<number>[],
): PointFit | null {
  const [n, k] = shape;
  let f;
  try {
    f = factorDesign(design, shape);
  } catch (error) {
    if (error instanceof GatelabError) return null;
    throw error;
  }
  const coefficients = new Float64Array(responses.length * k);
  const tolerances = new Float64Array(responses.length);
  const residuals = new Float64Array(n);
  responses.forEach((y, r) => {
    const b = solveLeastSquares(f, y);
    coefficients.set(b, r * k);
    for (let i = 0; i < n; i++) {
      let fitted = 0;
      for (let j = 0; j < k; j++) fitted += f.x[i * k + j]! * b[j]!;
      residuals[i] = y[i]! - fitted;
    }
    tolerances[r] = coefficientTolerance(f, b, residuals);
  });
  return { coefficients, tolerances };
}
