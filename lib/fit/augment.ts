/**
 * Extending a fitted no-intercept OLS by extra columns (the interaction
 * screen's product columns) without refitting: the main factorisation is
 * reused and the extension follows from the Frisch-Waugh-Lovell theorem,
 * a rank-q update of the leverages and influence vectors.
 *
 * @module
 */

import { GatelabError } from "../core/issue.ts";
import type { SandwichParts } from "./covariance.ts";
import { type DesignFactorization, factorDesign, solveLeastSquares } from "./factor.ts";
import { RANK_TOLERANCE } from "./rank.ts";

/** A fit of y on [X Z], built from the fit of y on X by {@linkcode extendFit}. */
export interface ExtendedFit extends SandwichParts {
  /** Columns of the extended model, k + q. */
  readonly k: number;
  /** Coefficients of Z (the last q of the extended model). */
  readonly gamma: Float64Array;
  /** Residuals of the extended model. */
  readonly residuals: Float64Array;
  /** n - k - q. */
  readonly dfResid: number;
}

/**
 * Fits y = X b + Z gamma + e from the factorisation of X and the residuals
 * of y on X, in O(n k q + n q^2 + k^2 q) instead of the O(n (k+q)^2) of a
 * refit. With EZ = Z - X (X'X)^{-1} X'Z (Z residualised on X) and
 * W = (X'X)^{-1} X'Z:
 *
 * - gamma = (EZ'EZ)^{-1} EZ' e (Frisch-Waugh-Lovell; e = residuals on X),
 * - residuals e - EZ gamma,
 * - leverages h_i + ez_i' (EZ'EZ)^{-1} ez_i (for one column: h_i + ez_i^2 / ||ez||^2),
 * - influence vectors (u_i - W g_i, g_i) with g_i = (EZ'EZ)^{-1} ez_i,
 *
 * which are exactly the extended model's (for q = 1 the factorisation of
 * ez is its normalisation and is written out). The rank rule is the QR rule of
 * [X Z]: a column of Z is dependent when its residual on X and the earlier
 * columns of Z has at most RANK_TOLERANCE times its own norm.
 *
 * @param f Factorisation of X (n x k).
 * @param residuals Residuals of y on X.
 * @param z Extra columns, row-major n x q.
 * @param q Number of extra columns.
 * @returns The extended fit, or null when [X Z] is rank deficient.
 *
 * @example One product column: the same gamma as a refit of y on [X z]
 * ```ts
 * import { factorDesign, solveLeastSquares } from "./factor.ts";
 * import { extendFit } from "./augment.ts";
 * import { ok } from "node:assert/strict";
 * const x = Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1]);
 * const y = Float64Array.from([0.3, 0.1, 0.2, 0.35, 0.05, 0.25]);
 * const z = Float64Array.from([0, 0, 1, 0, 0, 1]);
 * const f = factorDesign(x, [6, 2]);
 * const b = solveLeastSquares(f, y);
 * const e = y.map((v, i) => v - x[2 * i]! * b[0]! - x[2 * i + 1]! * b[1]!);
 * const ext = extendFit(f, e, z, 1)!;
 * const xz = Float64Array.from([1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1]);
 * const full = solveLeastSquares(factorDesign(xz, [6, 3]), y);
 * ok(Math.abs(ext.gamma[0]! - full[2]!) < 1e-14 && ext.dfResid === 3);
 * ```
 */
export function extendFit(
  f: DesignFactorization,
  residuals: ArrayLike<number>,
  z: ArrayLike<number>,
  q: number,
): ExtendedFit | null {
  const { n, k, x, xtxInverse, leverage, influence } = f;
  if (z.length !== n * q || residuals.length !== n) {
    throw new RangeError(`Cannot extend fit: ${z.length} values do not form ${n} x ${q}`);
  }
  // X'Z (k x q) and W = (X'X)^{-1} X'Z.
  const xtz = new Float64Array(k * q);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < q; t++) {
      const zi = z[i * q + t]!;
      if (zi === 0) continue;
      for (let j = 0; j < k; j++) xtz[j * q + t] = xtz[j * q + t]! + x[i * k + j]! * zi;
    }
  }
  const w = new Float64Array(k * q);
  for (let j = 0; j < k; j++) {
    for (let t = 0; t < q; t++) {
      let s = 0;
      for (let l = 0; l < k; l++) s += xtxInverse[j * k + l]! * xtz[l * q + t]!;
      w[j * q + t] = s;
    }
  }
  // EZ = Z - X W, and the norms of Z for the rank rule.
  const ez = new Float64Array(n * q);
  const zNorm2 = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < q; t++) {
      const zi = z[i * q + t]!;
      zNorm2[t] = zNorm2[t]! + zi * zi;
      let s = zi;
      for (let j = 0; j < k; j++) s -= x[i * k + j]! * w[j * q + t]!;
      ez[i * q + t] = s;
    }
  }
  let g: Pick<DesignFactorization, "leverage" | "influence">;
  let gamma: Float64Array;
  if (q === 1) {
    // One column: the Householder factorisation of ez is its normalisation, so write it out
    // (same rank rule: ||ez|| <= RANK_TOLERANCE ||z||).
    let s = 0, d = 0;
    for (let i = 0; i < n; i++) {
      s += ez[i]! * ez[i]!;
      d += ez[i]! * residuals[i]!;
    }
    if (!(Math.sqrt(s) > RANK_TOLERANCE * Math.sqrt(zNorm2[0]!)) || zNorm2[0] === 0) return null;
    const lev1 = new Float64Array(n), infl1 = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      infl1[i] = ez[i]! / s;
      lev1[i] = ez[i]! * infl1[i]!;
    }
    g = { leverage: lev1, influence: infl1 };
    gamma = Float64Array.of(d / s);
  } else {
    let full: DesignFactorization;
    try {
      full = factorDesign(ez, [n, q], { referenceNorms: zNorm2.map(Math.sqrt) });
    } catch (error) {
      if (error instanceof GatelabError) return null;
      throw error;
    }
    g = full;
    gamma = solveLeastSquares(full, residuals);
  }
  const p = k + q;
  const out = new Float64Array(n);
  const lev = new Float64Array(n);
  const infl = new Float64Array(n * p);
  const gLeverage = g.leverage as Float64Array, gInfluence = g.influence as Float64Array;
  for (let i = 0; i < n; i++) {
    let fitted = 0;
    for (let t = 0; t < q; t++) fitted += ez[i * q + t]! * gamma[t]!;
    out[i] = residuals[i]! - fitted;
    lev[i] = leverage[i]! + gLeverage[i]!;
    const row = i * p, rowK = i * k, rowQ = i * q;
    for (let j = 0; j < k; j++) {
      let s = influence[rowK + j]!;
      for (let t = 0; t < q; t++) s -= w[j * q + t]! * gInfluence[rowQ + t]!;
      infl[row + j] = s;
    }
    for (let t = 0; t < q; t++) infl[row + k + t] = gInfluence[rowQ + t]!;
  }
  return { n, k: p, gamma, residuals: out, dfResid: n - p, leverage: lev, influence: infl };
}
