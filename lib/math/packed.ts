/**
 * The one SPD solver for normal equations: packed upper-triangle storage
 * and Cholesky solves on small symmetric positive definite systems (k up to
 * a few hundred), for the loops that accumulate X'WX (bootstrap draws,
 * jackknife, power simulation) and small q x q Wald systems. Least-squares
 * fits on a design go through lib/fit (Householder QR); both use the rank
 * rule of lib/math/rank.ts. Not exported from mod.ts.
 *
 * Packed layout: the upper triangle row by row, entry (i, j) with i <= j at
 * `packedIndex(k, i, j)`; k(k+1)/2 entries.
 *
 * @module
 */

import { PIVOT_TOLERANCE } from "./rank.ts";

/** Number of entries of a packed upper triangle of a k x k matrix. */
export function packedSize(k: number): number {
  return (k * (k + 1)) / 2;
}

/** Index of entry (i, j), i <= j, in packed upper storage. */
export function packedIndex(k: number, i: number, j: number): number {
  return (i * (2 * k - i + 1)) / 2 + (j - i);
}

/**
 * Relative pivot tolerance: a pivot below `tol * diag` means singular. The
 * one rank rule of lib/math/rank.ts, on squared norms.
 */
export { PIVOT_TOLERANCE };

/**
 * In-place Cholesky A = U'U of a packed symmetric matrix (upper triangle
 * overwritten by U). A column whose diagonal is exactly 0 (a design column
 * never present) is skipped: its pivot is set to 1 and `absent[j] = 1`, so
 * the other coefficients are solved without it.
 *
 * @returns true on success, false if the matrix is singular beyond absent columns.
 */
export function choleskyPacked(a: Float64Array, k: number, absent: Uint8Array): boolean {
  const off = rowOffsets(k);
  for (let j = 0; j < k; j++) {
    const offJ = off[j]! + j;
    const diagOriginal = a[offJ]!;
    absent[j] = 0;
    if (diagOriginal === 0) {
      // Column never present: its row and column are zero in A.
      for (let i = 0; i < j; i++) a[off[i]! + j] = 0;
      absent[j] = 1;
      a[offJ] = 1;
      continue;
    }
    let diag = diagOriginal;
    for (let i = 0; i < j; i++) {
      const offI = off[i]!;
      let s = a[offI + j]!;
      for (let l = 0; l < i; l++) {
        const offL = off[l]!;
        s -= a[offL + i]! * a[offL + j]!;
      }
      const u = s / a[offI + i]!;
      a[offI + j] = u;
      diag -= u * u;
    }
    if (!(diag > PIVOT_TOLERANCE * diagOriginal)) return false;
    a[offJ] = Math.sqrt(diag);
  }
  return true;
}

const OFFSETS = new Map<number, Int32Array>();

/**
 * `off[i]` such that entry (i, j), i <= j, is at `off[i] + j` (row start
 * minus i), cached per k.
 */
export function rowOffsets(k: number): Int32Array {
  let off = OFFSETS.get(k);
  if (!off) {
    off = new Int32Array(k);
    for (let i = 0; i < k; i++) off[i] = packedIndex(k, i, i) - i;
    OFFSETS.set(k, off);
  }
  return off;
}

/**
 * Solves U'U x = b in place (b becomes x) with U from {@linkcode choleskyPacked}.
 * Entries of absent columns are set to NaN.
 */
export function choleskySolvePacked(
  u: Float64Array,
  k: number,
  absent: Uint8Array,
  b: Float64Array,
  bOffset = 0,
): void {
  const off = rowOffsets(k);
  // Forward: U' z = b.
  for (let i = 0; i < k; i++) {
    let s = absent[i] ? 0 : b[bOffset + i]!;
    for (let l = 0; l < i; l++) s -= u[off[l]! + i]! * b[bOffset + l]!;
    b[bOffset + i] = s / u[off[i]! + i]!;
  }
  // Backward: U x = z.
  for (let i = k - 1; i >= 0; i--) {
    const offI = off[i]!;
    let s = b[bOffset + i]!;
    for (let j = i + 1; j < k; j++) s -= u[offI + j]! * b[bOffset + j]!;
    b[bOffset + i] = s / u[offI + i]!;
  }
  for (let i = 0; i < k; i++) if (absent[i]) b[bOffset + i] = NaN;
}

/**
 * Inverse of a packed SPD matrix from its Cholesky factor, as a dense
 * row-major k x k array (rows/columns of absent columns are NaN).
 */
export function choleskyInverseDense(u: Float64Array, k: number, absent: Uint8Array): Float64Array {
  const inv = new Float64Array(k * k);
  const e = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    e.fill(0);
    e[c] = 1;
    choleskySolvePacked(u, k, absent, e);
    for (let r = 0; r < k; r++) inv[r * k + c] = absent[c] ? NaN : e[r]!;
  }
  return inv;
}

/** Packs a dense row-major symmetric k x k matrix (upper triangle). */
export function packDense(dense: ArrayLike<number>, k: number): Float64Array {
  const out = new Float64Array(packedSize(k));
  let p = 0;
  for (let i = 0; i < k; i++) for (let j = i; j < k; j++) out[p++] = dense[i * k + j]!;
  return out;
}

/**
 * Solves the dense SPD system A x = b (A row-major q x q) by Cholesky.
 * @returns x, or null if A is not positive definite.
 */
export function solveSpd(a: Float64Array, b: Float64Array, q: number): Float64Array | null {
  const packed = packDense(a, q);
  const absent = new Uint8Array(q);
  if (!choleskyPacked(packed, q, absent)) return null;
  for (let i = 0; i < q; i++) if (absent[i]) return null;
  const x = Float64Array.from(b);
  choleskySolvePacked(packed, q, absent, x);
  return x;
}
