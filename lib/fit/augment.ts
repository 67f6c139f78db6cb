/**
 * Extending a fitted no-intercept OLS by extra columns (the interaction
 * screen's product columns) without refitting: the main factorisation is
 * reused and the extension follows from the Frisch-Waugh-Lovell theorem,
 * a rank-q update of the leverages and influence vectors.
 *
 * @module
 */

import { GatelabError } from "../core/issue.ts";
import type { SandwichParts, TailSandwichParts } from "./covariance.ts";
import { type DesignFactorization, factorDesign, solveLeastSquares } from "./factor.ts";
import { spdInverse } from "../math/dense.ts";
import { RANK_TOLERANCE } from "../math/rank.ts";

/**
 * Reusable working memory for repeated {@linkcode extendFit} calls of the
 * same shape (the interaction screen's one-column fits): the arrays of a
 * returned fit are overwritten by the next call with the same scratch.
 */
export class ExtendScratch {
  readonly #buffers = new Map<string, Float64Array>();
  /**
   * An array of the given length under name, reused when the length matches
   * (its old contents are left: the caller overwrites every entry).
   */
  take(name: string, length: number): Float64Array {
    const old = this.#buffers.get(name);
    if (old && old.length === length) return old;
    const fresh = new Float64Array(length);
    this.#buffers.set(name, fresh);
    return fresh;
  }
}

function buffer(scratch: ExtendScratch | undefined, name: string, length: number): Float64Array {
  return scratch ? scratch.take(name, length) : new Float64Array(length);
}

/**
 * A fit of y on [X Z], built from the fit of y on X by {@linkcode extendFit}.
 * Only the influence columns of Z are stored (`tail`, n x q); the whole
 * n x (k + q) `influence` is built on first read (the block covariances of
 * lib/fit/covariance.ts need only the tail, and a row's whole vector for the
 * leverage-1 guard).
 */
export interface ExtendedFit extends SandwichParts, TailSandwichParts {
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
 * ez is its normalisation and is written out; for q > 1 EZ'EZ is formed from
 * Gram quantities and Cholesky-factored, and EZ is factored by Householder QR
 * only when a pivot is below 1% of its column's squared norm). The rank rule is the QR rule of
 * [X Z]: a column of Z is dependent when its residual on X and the earlier
 * columns of Z has at most RANK_TOLERANCE times its own norm.
 *
 * @param f Factorisation of X (n x k).
 * @param residuals Residuals of y on X.
 * @param z Extra columns, row-major n x q.
 * @param q Number of extra columns.
 * @param scratch Optional working memory reused across calls; the returned
 *   arrays then live in it and are overwritten by its next use.
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
  scratch?: ExtendScratch,
): ExtendedFit | null {
  const { n, k, x, xtxInverse } = f;
  if (z.length !== n * q || residuals.length !== n) {
    throw new RangeError(`Cannot extend fit: ${z.length} values do not form ${n} x ${q}`);
  }
  const xtz = crossProductXZ(x, z, n, k, q);
  const w = projectionOnX(xtxInverse, xtz, k, q);
  const e: Extension = {
    f,
    residuals,
    z,
    q,
    scratch,
    xtz,
    w,
    zNorm2: squaredColumnNorms(z, n, q),
    ezRow: residualRowOfZ(x, z, w, k, q),
  };
  const solution = q === 1 ? oneColumnSolution(e) : gramSolution(e) ?? householderSolution(e);
  return solution === null ? null : extendedFit(e, solution);
}

/** What the phases of {@linkcode extendFit} share: its arguments and the projection of Z on X. */
interface Extension {
  readonly f: DesignFactorization;
  readonly residuals: ArrayLike<number>;
  readonly z: ArrayLike<number>;
  readonly q: number;
  readonly scratch: ExtendScratch | undefined;
  /** X'Z, k x q. */
  readonly xtz: Float64Array;
  /** W = (X'X)^{-1} X'Z, k x q. */
  readonly w: Float64Array;
  /** Squared norm of each column of Z, for the rank rule. */
  readonly zNorm2: Float64Array;
  /** Writes row i of EZ = Z - X W into `into` at `at`. */
  readonly ezRow: (i: number, into: Float64Array, at: number) => void;
}

/** The fit of the residuals on EZ: its leverages and influence vectors, gamma, EZ if stored. */
interface EzSolution {
  readonly g: Pick<DesignFactorization, "leverage" | "influence">;
  readonly gamma: Float64Array;
  /** EZ (n x q) when a route stored it; null when rows are built again where needed. */
  readonly ez: Float64Array | null;
}

/** X'Z (k x q) over the nonzero entries of Z. */
function crossProductXZ(
  x: ArrayLike<number>,
  z: ArrayLike<number>,
  n: number,
  k: number,
  q: number,
): Float64Array {
  const xtz = new Float64Array(k * q);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < q; t++) {
      const zi = z[i * q + t]!;
      if (zi === 0) continue;
      for (let j = 0; j < k; j++) xtz[j * q + t] = xtz[j * q + t]! + x[i * k + j]! * zi;
    }
  }
  return xtz;
}

function squaredColumnNorms(z: ArrayLike<number>, n: number, q: number): Float64Array {
  const zNorm2 = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    for (let t = 0; t < q; t++) {
      const zi = z[i * q + t]!;
      zNorm2[t] = zNorm2[t]! + zi * zi;
    }
  }
  return zNorm2;
}

/**
 * Row i of EZ = Z - X W into `into` at `at`. Only the nonzero entries of x_i are visited
 * (the design is 0/1): with W finite, leaving out s - 0 * w changes no bit (s is never -0).
 * With more than one column EZ is not stored (n x q) but built again wherever a row is needed.
 */
function residualRowOfZ(
  x: ArrayLike<number>,
  z: ArrayLike<number>,
  w: Float64Array,
  k: number,
  q: number,
): (i: number, into: Float64Array, at: number) => void {
  const sparse = w.every(Number.isFinite);
  return (i, into, at) => {
    const rowK = i * k, rowQ = i * q;
    if (q === 1) {
      let s = z[i]!;
      for (let j = 0; j < k; j++) {
        const xj = x[rowK + j]!;
        if (xj !== 0 || !sparse) s -= xj * w[j]!;
      }
      into[at] = s;
      return;
    }
    // Column by column of X, so W is read along its rows; each entry still subtracts its
    // terms in the order of j.
    for (let t = 0; t < q; t++) into[at + t] = z[rowQ + t]!;
    for (let j = 0; j < k; j++) {
      const xj = x[rowK + j]!;
      if (xj === 0 && sparse) continue;
      const wj = j * q;
      for (let t = 0; t < q; t++) into[at + t] = into[at + t]! - xj * w[wj + t]!;
    }
  };
}

/** EZ, n x q, in the scratch's "ez" buffer. */
function storeEz(e: Extension): Float64Array {
  const n = e.f.n;
  const all = buffer(e.scratch, "ez", n * e.q);
  for (let i = 0; i < n; i++) e.ezRow(i, all, i * e.q);
  return all;
}

/**
 * One column: the Householder factorisation of ez is its normalisation, so it
 * is written out (same rank rule: ||ez|| <= RANK_TOLERANCE ||z||).
 */
function oneColumnSolution(e: Extension): EzSolution | null {
  const { n } = e.f;
  const ez = storeEz(e);
  let s = 0, d = 0;
  for (let i = 0; i < n; i++) {
    s += ez[i]! * ez[i]!;
    d += ez[i]! * e.residuals[i]!;
  }
  if (!(Math.sqrt(s) > RANK_TOLERANCE * Math.sqrt(e.zNorm2[0]!)) || e.zNorm2[0] === 0) return null;
  const lev1 = buffer(e.scratch, "lev1", n), infl1 = buffer(e.scratch, "infl1", n);
  for (let i = 0; i < n; i++) {
    infl1[i] = ez[i]! / s;
    lev1[i] = ez[i]! * infl1[i]!;
  }
  return { g: { leverage: lev1, influence: infl1 }, gamma: Float64Array.of(d / s), ez };
}

/** More columns, by the Gram route when its pivots allow it (null: they do not). */
function gramSolution(e: Extension): EzSolution | null {
  const { n, k, x } = e.f;
  const g = gramExtension(x, e.z, e.ezRow, e.residuals, e.xtz, e.w, n, k, e.q, e.scratch);
  return g === null ? null : { g, gamma: g.gamma, ez: null };
}

/** More columns by Householder QR of EZ (null: [X Z] is rank deficient). */
function householderSolution(e: Extension): EzSolution | null {
  const ez = storeEz(e);
  let full: DesignFactorization;
  try {
    full = factorDesign(ez, [e.f.n, e.q], { referenceNorms: e.zNorm2.map(Math.sqrt) });
  } catch (error) {
    if (error instanceof GatelabError) return null;
    throw error;
  }
  return { g: full, gamma: solveLeastSquares(full, e.residuals), ez };
}

/** The extended model's residuals, leverages and influence vectors (the X part built when read). */
function extendedFit(e: Extension, { g, gamma, ez }: EzSolution): ExtendedFit {
  const { n, k, leverage, influence } = e.f;
  const { q, w, scratch } = e;
  const p = k + q;
  const out = buffer(scratch, "out", n);
  const lev = buffer(scratch, "lev", n);
  const gLeverage = g.leverage as Float64Array, gInfluence = g.influence as Float64Array;
  const ezOne = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    let row = ez, at = i * q;
    if (row === null) e.ezRow(i, row = ezOne, at = 0);
    let fitted = 0;
    for (let t = 0; t < q; t++) fitted += row[at + t]! * gamma[t]!;
    out[i] = e.residuals[i]! - fitted;
    lev[i] = leverage[i]! + gLeverage[i]!;
  }
  // Influence vectors of [X Z]: (u_i - W g_i, g_i); the X part is built only when read.
  const wholeRow = (i: number, into: Float64Array, at: number): void => {
    const rowK = i * k, rowQ = i * q;
    for (let j = 0; j < k; j++) {
      let s = influence[rowK + j]!;
      for (let t = 0; t < q; t++) s -= w[j * q + t]! * gInfluence[rowQ + t]!;
      into[at + j] = s;
    }
    for (let t = 0; t < q; t++) into[at + k + t] = gInfluence[rowQ + t]!;
  };
  let whole: Float64Array | null = null;
  return {
    n,
    k: p,
    gamma,
    residuals: out,
    dfResid: n - p,
    leverage: lev,
    tailFrom: k,
    tail: gInfluence,
    influenceRow: (i) => {
      const row = new Float64Array(p);
      wholeRow(i, row, 0);
      return row;
    },
    get influence(): Float64Array {
      if (whole === null) {
        whole = buffer(scratch, "infl", n * p);
        for (let i = 0; i < n; i++) wholeRow(i, whole, i * p);
      }
      return whole;
    },
  };
}

/** Leverages, influence vectors and coefficients of EZ, from {@linkcode gramExtension}. */
interface GramExtension {
  readonly leverage: Float64Array;
  readonly influence: Float64Array;
  readonly gamma: Float64Array;
}

/**
 * Pivots below this share of a column's squared norm leave the Gram route to
 * the Householder QR, whose rank rule (RANK_TOLERANCE on norms) they are
 * far from: the normal equations lose up to eps / share of relative precision.
 */
const GRAM_PIVOT_SHARE = 1e-2;

/** P = (X'X)^{-1} X'Z (row-major k x q) from the inverse of X'X (k x k) and X'Z (k x q). */
export function projectionOnX(
  xtxInverse: ArrayLike<number>,
  xtz: Float64Array,
  k: number,
  q: number,
): Float64Array {
  const pm = new Float64Array(k * q);
  for (let j = 0; j < k; j++) {
    for (let t = 0; t < q; t++) {
      let s = 0;
      for (let l = 0; l < k; l++) s += xtxInverse[j * k + l]! * xtz[l * q + t]!;
      pm[j * q + t] = s;
    }
  }
  return pm;
}

/**
 * S^{-1} (dense q x q) for S = EZ'EZ = Z'Z - (X'Z)' P (P = (X'X)^{-1} X'Z)
 * by Cholesky; null when a pivot is below GRAM_PIVOT_SHARE of its column's
 * squared norm (the diagonal of Z'Z), so the caller leaves the decision to
 * the Householder QR. The extended fit's Gram route and the joint Wald test
 * (lib/infer/diagnostics/joint_wald.ts) share it, so they take the same decisions.
 *
 * @param ztz Z'Z, row-major q x q (upper triangle read).
 * @param xtz X'Z, row-major k x q.
 * @param pm P, row-major k x q.
 */
export function gramInverse(
  ztz: Float64Array,
  xtz: Float64Array,
  pm: Float64Array,
  k: number,
  q: number,
): Float64Array | null {
  // S = Z'Z - (X'Z)' P into the lower triangle, from X'Z and P stored by columns (q x k) so
  // each entry's k terms are contiguous; four entries of a row at once.
  const xtzT = transpose(xtz, k, q), pmT = transpose(pm, k, q);
  const l = new Float64Array(q * q);
  for (let t = 0; t < q; t++) {
    const tk = t * k, tq = t * q;
    let u = t;
    for (; u + 3 < q; u += 4) {
      const u0 = u * k, u1 = u0 + k, u2 = u1 + k, u3 = u2 + k;
      let s0 = ztz[tq + u]!, s1 = ztz[tq + u + 1]!, s2 = ztz[tq + u + 2]!, s3 = ztz[tq + u + 3]!;
      for (let j = 0; j < k; j++) {
        const a = xtzT[tk + j]!;
        s0 -= a * pmT[u0 + j]!;
        s1 -= a * pmT[u1 + j]!;
        s2 -= a * pmT[u2 + j]!;
        s3 -= a * pmT[u3 + j]!;
      }
      l[u * q + t] = s0;
      l[(u + 1) * q + t] = s1;
      l[(u + 2) * q + t] = s2;
      l[(u + 3) * q + t] = s3;
    }
    for (; u < q; u++) {
      let s = ztz[tq + u]!;
      for (let j = 0; j < k; j++) s -= xtzT[tk + j]! * pmT[u * k + j]!;
      l[u * q + t] = s;
    }
  }
  const floor = new Float64Array(q);
  for (let t = 0; t < q; t++) floor[t] = GRAM_PIVOT_SHARE * ztz[t * q + t]!;
  return spdInverse(l, q, floor);
}

/** The transpose (cols x rows) of a row-major rows x cols matrix. */
function transpose(a: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c]!;
  }
  return out;
}

/**
 * The factorisation of EZ (n x q, Z residualised on X) from Gram quantities
 * instead of a Householder pass: EZ'EZ = Z'Z - (X'Z)' W with Z'Z summed over
 * the nonzero entries of each row of Z (a product of 0/1 columns is sparse),
 * its Cholesky factor and inverse, then g_i = (EZ'EZ)^{-1} ez_i and the
 * leverages ez_i' g_i. Returns null (the caller then factors EZ by QR) when a
 * pivot is below GRAM_PIVOT_SHARE of its column's squared norm, so every rank
 * decision near the QR rule is still taken by the QR.
 */
function gramExtension(
  x: ArrayLike<number>,
  z: ArrayLike<number>,
  ezRow: (i: number, into: Float64Array, at: number) => void,
  residuals: ArrayLike<number>,
  xtz: Float64Array,
  w: Float64Array,
  n: number,
  k: number,
  q: number,
  scratch: ExtendScratch | undefined,
): GramExtension | null {
  // Z'Z over the nonzero entries of each row.
  const ztz = new Float64Array(q * q);
  const idx = new Int32Array(q);
  const val = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    let m = 0;
    const row = i * q;
    for (let t = 0; t < q; t++) {
      const v = z[row + t]!;
      if (v !== 0) {
        idx[m] = t;
        val[m++] = v;
      }
    }
    for (let a = 0; a < m; a++) {
      const ta = idx[a]! * q, va = val[a]!;
      for (let b = a; b < m; b++) ztz[ta + idx[b]!] = ztz[ta + idx[b]!]! + va * val[b]!;
    }
  }
  // S^{-1}; its pivot rule reads the diagonal of Z'Z, which equals the squared norms of Z
  // (the same squares summed in the same row order, zeros aside).
  const sInv = gramInverse(ztz, xtz, w, k, q);
  if (!sInv) return null;
  // g_i = S^{-1} ez_i = S^{-1} z_i - (S^{-1} W') x_i, summed over the nonzero entries of z_i
  // and x_i (rows of sInv and of V = W S^{-1}, k x q, are contiguous); leverages ez_i' g_i and
  // EZ'e for gamma.
  const v = new Float64Array(k * q);
  for (let j = 0; j < k; j++) {
    for (let a = 0; a < q; a++) {
      let s = 0;
      for (let b = 0; b < q; b++) s += w[j * q + b]! * sInv[b * q + a]!;
      v[j * q + a] = s;
    }
  }
  const influence = buffer(scratch, "gInfluence", n * q);
  const leverage = buffer(scratch, "gLeverage", n);
  const eze = new Float64Array(q);
  const ez = new Float64Array(q);
  for (let i = 0; i < n; i++) {
    const row = i * q;
    ezRow(i, ez, 0);
    influence.fill(0, row, row + q);
    for (let t = 0; t < q; t++) {
      const zt = z[row + t]!;
      if (zt === 0) continue;
      const st = t * q;
      for (let a = 0; a < q; a++) influence[row + a] = influence[row + a]! + zt * sInv[st + a]!;
    }
    const rowK = i * k;
    for (let j = 0; j < k; j++) {
      const xj = x[rowK + j]!;
      if (xj === 0) continue;
      const vj = j * q;
      for (let a = 0; a < q; a++) influence[row + a] = influence[row + a]! - xj * v[vj + a]!;
    }
    const e = residuals[i]!;
    let h = 0;
    for (let a = 0; a < q; a++) {
      h += ez[a]! * influence[row + a]!;
      eze[a] = eze[a]! + ez[a]! * e;
    }
    leverage[i] = h;
  }
  const gamma = new Float64Array(q);
  for (let a = 0; a < q; a++) {
    let s = 0;
    for (let b = 0; b < q; b++) s += sInv[a * q + b]! * eze[b]!;
    gamma[a] = s;
  }
  return { leverage, influence, gamma };
}
