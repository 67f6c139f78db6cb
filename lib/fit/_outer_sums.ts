/**
 * The sandwich sums of lib/fit/covariance.ts, sum_r left_ra right_rb over
 * rows r in order for every entry a <= b of a q x q upper triangle, with
 * the inner loop in WebAssembly SIMD (lib/math/dense_wasm.ts `add4`): two
 * entries per lane pair, four pairs per call, each entry its own chain of
 * adds in row order, the product rounded once and then added, as the
 * scalar loops do. The rows are copied into the kernel's memory in blocks,
 * so it holds O(q BLOCK_ROWS) doubles whatever the number of rows.
 *
 * @module
 */

import { denseWasm } from "../math/dense_wasm.ts";

/**
 * Rows from..from+count-1 into the kernel's memory: column a of the right side at
 * a * column + r, the left side's pair a >> 1 at leftAt + (a >> 1) * pair + 2 r + (a & 1).
 * Returns the sum of v - v over the values written: 0 when all are finite, else NaN.
 */
function copyBlock(
  values: ArrayLike<number>,
  weights: ArrayLike<number> | null,
  shape: {
    readonly q: number;
    readonly stride: number;
    readonly offset: number;
    readonly both?: boolean;
  },
  from: number,
  count: number,
  m: Float64Array,
  column: number,
  pair: number,
  leftAt: number,
): number {
  const { q, stride, offset } = shape;
  const both = shape.both === true && weights !== null;
  let check = 0;
  for (let r = 0; r < count; r++) {
    const base = (from + r) * stride + offset;
    const w = weights === null ? 1 : weights[from + r]!;
    for (let a = 0; a < q; a++) {
      const v = values[base + a]!;
      const left = weights === null ? v : v * w;
      const right = both ? left : v;
      m[a * column + r] = right;
      m[leftAt + (a >> 1) * pair + 2 * r + (a & 1)] = left;
      check += (left - left) + (right - right);
    }
  }
  return check;
}

/** Rows per block copied into the kernel's memory. */
const BLOCK_ROWS = 1024;

/** Orders below this stay in the callers' scalar loops. */
export const OUTER_SUMS_FROM = 4;

/**
 * Sets upper[a q + b], for every a <= b < q, to sum_r (values[r s + o + a]
 * weight_r) values[r s + o + b] over rows r = 0..rows-1 in order (s =
 * stride, o = offset; the bare value when `weights` is null), as the loop
 * `for r: for a: ua = v_a w; for b >= a: upper[a q + b] += ua v_b` does on
 * a zero matrix; with `shape.both`, (v_a w_r)(v_b w_r) instead.
 * Terms the loop skips (a zero weight, a zero ua) are signed zeros here,
 * which leave a sum that started at +0 as it was, as long as every value
 * multiplied is finite: when one is not, nothing is written and the result
 * is false, for the caller's scalar loop.
 *
 * @param values Row r's q values at r * stride + offset.
 * @param weights Per-row weights, or null for 1.
 * @param shape rows, q, stride, offset.
 * @param upper The q x q matrix whose upper triangle (a <= b) receives the sums.
 * @returns false (nothing written) when the runtime has no WebAssembly SIMD or a value is not finite.
 */
export function addOuterSums(
  values: ArrayLike<number>,
  weights: ArrayLike<number> | null,
  shape: {
    readonly rows: number;
    readonly q: number;
    readonly stride: number;
    readonly offset: number;
    readonly both?: boolean;
  },
  upper: Float64Array,
): boolean {
  const wasm = denseWasm();
  if (!wasm) return false;
  const { rows, q } = shape;
  const pairs = (q + 1) >> 1, groups = (q + 3) >> 2, width = 4 * groups;
  const block = Math.min(BLOCK_ROWS, Math.max(rows, 1));
  // Memory: right columns (width of them), left lane pairs (pairs of them), accumulators. Each
  // column and pair is padded by 64 bytes, so the streams do not sit a multiple of 4 KiB apart
  // (where they would share cache sets).
  const column = block + 8, pair = 2 * block + 8;
  const rightAt = 0, leftAt = width * column, accAt = leftAt + pairs * pair;
  const m = wasm.view(accAt + pairs * groups * 8);
  m.fill(0, 0, accAt + pairs * groups * 8);
  let check = 0;
  for (let from = 0; from < rows; from += block) {
    const count = Math.min(block, rows - from);
    check += copyBlock(values, weights, shape, from, count, m, column, pair, leftAt);
    for (let p = 0; p < pairs; p++) {
      const left = 8 * (leftAt + p * pair);
      // Groups whose columns reach the pair's first row a = 2p (the upper triangle).
      for (let g = (2 * p) >> 2; g < groups; g++) {
        const right = 8 * (rightAt + 4 * g * column), step = 8 * column;
        const acc = 8 * (accAt + (p * groups + g) * 8);
        wasm.add4(left, right, right + step, right + 2 * step, right + 3 * step, count, acc);
      }
    }
  }
  // A value that is not finite (NaN or infinite, given or from a product) makes check NaN: the
  // zero terms the scalar loop skips could then be NaN here, so leave the sums to it.
  if (check !== 0) return false;
  for (let a = 0; a < q; a++) {
    const p = a >> 1, lane = a & 1;
    for (let b = a; b < q; b++) {
      const g = b >> 2, i = b & 3;
      upper[a * q + b] = m[accAt + (p * groups + g) * 8 + 2 * i + lane]!;
    }
  }
  return true;
}
