import { PIVOT_TOLERANCE } from "../math/rank.ts";

/** Result of {@linkcode designRank}. */
export interface DesignRank {
  /** Column rank of the design. */
  readonly rank: number;
  /** Columns (zero-based) that are linear combinations of earlier columns. */
  readonly dependent: readonly number[];
  /** Number of rows in which each column is 1. */
  readonly presence: Int32Array;
}

/**
 * Column rank of a row-major n x k 0/1 design matrix, by Gram-Schmidt in
 * Gram-matrix form (Cholesky of X'X without pivoting): column j is
 * dependent when its squared residual after projecting on the earlier
 * independent columns is at most `PIVOT_TOLERANCE` (1e-10, the one rank rule
 * of lib/math/rank.ts on squared norms) times its squared norm (an all-zero
 * column is always dependent). Columns are taken in order, so `dependent`
 * names the later column of a collinear set.
 *
 * @param design Row-major 0/1 values, length n*k.
 * @param n Rows.
 * @param k Columns.
 * @returns Rank, dependent columns and per-column presence counts.
 *
 * @example Two always-present versions of one family plus a constant column
 * ```ts
 * import { designRank } from "./rank.ts";
 * import { deepEqual } from "node:assert/strict";
 * // columns: a, b, c with c = a + b in every row
 * const x = Uint8Array.from([1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1]);
 * const r = designRank(x, 4, 3);
 * deepEqual([r.rank, r.dependent], [2, [2]]);
 * ```
 */
export function designRank(design: ArrayLike<number>, n: number, k: number): DesignRank {
  const gram = new Float64Array(k * k);
  const presence = new Int32Array(k);
  // Per row, its present columns first, then their pairs: counts, exact in any order.
  const present = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    const row = i * k;
    let p = 0;
    for (let a = 0; a < k; a++) if (design[row + a] !== 0) present[p++] = a;
    for (let x = 0; x < p; x++) {
      const a = present[x]!, at = a * k;
      presence[a]!++;
      for (let y = x; y < p; y++) gram[at + present[y]!]!++;
    }
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) gram[a * k + b] = gram[b * k + a]!;
  // L is lower triangular: L[j][l] for independent l < j.
  const lower = new Float64Array(k * k);
  const independent: number[] = [];
  const dependent: number[] = [];
  for (let j = 0; j < k; j++) {
    const norm = gram[j * k + j]!;
    const rowJ = new Float64Array(k);
    for (const l of independent) {
      let s = gram[j * k + l]!;
      for (const m of independent) {
        if (m >= l) break;
        s -= rowJ[m]! * lower[l * k + m]!;
      }
      rowJ[l] = s / lower[l * k + l]!;
    }
    let residual = norm;
    for (const l of independent) residual -= rowJ[l]! * rowJ[l]!;
    if (norm === 0 || residual <= PIVOT_TOLERANCE * norm) {
      dependent.push(j);
      continue;
    }
    rowJ[j] = Math.sqrt(residual);
    lower.set(rowJ, j * k);
    independent.push(j);
  }
  return { rank: independent.length, dependent, presence };
}
