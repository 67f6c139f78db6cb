/**
 * Dense kernels for the q x q Gram systems of the extended fit and the joint
 * Wald test (q up to about a thousand product columns): Cholesky, the inverse
 * of the triangular factor and the inverse of the matrix from it.
 *
 * Every entry is the same sum, in the same order, as the plain
 * one-dot-product-per-entry loops these replace, so the results are the
 * same bits; what changes is that four entries are summed at once, as four
 * independent chains of adds over one shared stream of loads, instead of
 * one chain whose add latency bounds the loop.
 *
 * Where the runtime has WebAssembly SIMD (lib/math/dense_wasm.ts) and the
 * order is at least SIMD_FROM, the shared inner loops run there, two
 * entries per 128-bit lane pair, each lane still its entry's own chain of
 * adds in the same order: the same bits again (tests/math_dense_test.ts
 * compares both paths with the plain loops).
 *
 * @module
 */

import { type DenseWasm, denseWasm } from "./dense_wasm.ts";

/** Options of the kernels. */
export interface DenseOptions {
  /** Run the inner loops in WebAssembly SIMD where the runtime has it. @default {true} */
  readonly simd?: boolean;
}

/** Orders below this stay in the scalar loops (the calls into WebAssembly would not pay). */
const SIMD_FROM = 16;

/** The WebAssembly loops for order q, or null for the scalar ones. */
function simdFor(q: number, options: DenseOptions): DenseWasm | null {
  return options.simd === false || q < SIMD_FROM ? null : denseWasm();
}

/** n rounded up to even, so a region after n doubles starts 16-byte aligned. */
function even(n: number): number {
  return n + (n & 1);
}

/**
 * In-place Cholesky A = L L' of a row-major q x q matrix whose lower
 * triangle (row u, column t <= u) holds A: left-looking by columns, entry
 * (u, t) is (A_ut - sum_{j < t} L_uj L_tj) / L_tt with j ascending, and the
 * pivot d_t = A_tt - sum_{j < t} L_tj^2. Stops at the first pivot that is not
 * above `floor[t]` (NaN included).
 *
 * @param l The matrix, lower triangle read and overwritten by L (the upper is left as is).
 * @param q Order.
 * @param floor The bound each pivot d_t must exceed.
 * @returns true when every pivot passed.
 */
export function choleskyLower(
  l: Float64Array,
  q: number,
  floor: ArrayLike<number>,
  options: DenseOptions = {},
): boolean {
  const wasm = simdFor(q, options);
  if (!wasm) return choleskyScalar(l, q, floor);
  const vAt = even(q * q), accAt = vAt + 2 * q;
  const mem = wasm.view(accAt + 8);
  mem.set(l);
  const passed = choleskyOn(mem, q, floor, wasm, vAt, accAt);
  l.set(mem.subarray(0, q * q));
  return passed;
}

function choleskyScalar(l: Float64Array, q: number, floor: ArrayLike<number>): boolean {
  // Two columns t and v = t + 1 at a time: rows below share their loads of L_uj (j < t) for both
  // entries, and entry (u, v) adds its last term L_ut L_vt once L_ut is known; four rows at once.
  let t = 0;
  for (; t + 1 < q; t += 2) {
    const v = t + 1, tq = t * q, vq = tq + q;
    let d = l[tq + t]!;
    for (let j = 0; j < t; j++) d -= l[tq + j]! * l[tq + j]!;
    if (!(d > floor[t]!)) return false;
    const root = Math.sqrt(d);
    l[tq + t] = root;
    let s = l[vq + t]!;
    for (let j = 0; j < t; j++) s -= l[vq + j]! * l[tq + j]!;
    const lvt = s / root;
    l[vq + t] = lvt;
    let dv = l[vq + v]!;
    for (let j = 0; j < v; j++) dv -= l[vq + j]! * l[vq + j]!;
    if (!(dv > floor[v]!)) return false;
    const rootV = Math.sqrt(dv);
    l[vq + v] = rootV;
    let u = t + 2;
    for (; u + 3 < q; u += 4) {
      const r0 = u * q, r1 = r0 + q, r2 = r1 + q, r3 = r2 + q;
      let s0 = l[r0 + t]!, s1 = l[r1 + t]!, s2 = l[r2 + t]!, s3 = l[r3 + t]!;
      let w0 = l[r0 + v]!, w1 = l[r1 + v]!, w2 = l[r2 + v]!, w3 = l[r3 + v]!;
      for (let j = 0; j < t; j++) {
        const a = l[tq + j]!, b = l[vq + j]!;
        const x0 = l[r0 + j]!, x1 = l[r1 + j]!, x2 = l[r2 + j]!, x3 = l[r3 + j]!;
        s0 -= x0 * a;
        s1 -= x1 * a;
        s2 -= x2 * a;
        s3 -= x3 * a;
        w0 -= x0 * b;
        w1 -= x1 * b;
        w2 -= x2 * b;
        w3 -= x3 * b;
      }
      s0 /= root;
      s1 /= root;
      s2 /= root;
      s3 /= root;
      l[r0 + t] = s0;
      l[r1 + t] = s1;
      l[r2 + t] = s2;
      l[r3 + t] = s3;
      w0 -= s0 * lvt;
      w1 -= s1 * lvt;
      w2 -= s2 * lvt;
      w3 -= s3 * lvt;
      l[r0 + v] = w0 / rootV;
      l[r1 + v] = w1 / rootV;
      l[r2 + v] = w2 / rootV;
      l[r3 + v] = w3 / rootV;
    }
    for (; u < q; u++) {
      const r0 = u * q;
      let s0 = l[r0 + t]!, w0 = l[r0 + v]!;
      for (let j = 0; j < t; j++) {
        s0 -= l[r0 + j]! * l[tq + j]!;
        w0 -= l[r0 + j]! * l[vq + j]!;
      }
      s0 /= root;
      l[r0 + t] = s0;
      w0 -= s0 * lvt;
      l[r0 + v] = w0 / rootV;
    }
  }
  if (t < q) {
    // The last column of an odd order: its pivot only.
    const tq = t * q;
    let d = l[tq + t]!;
    for (let j = 0; j < t; j++) d -= l[tq + j]! * l[tq + j]!;
    if (!(d > floor[t]!)) return false;
    l[tq + t] = Math.sqrt(d);
  }
  return true;
}

/**
 * L^{-1} of a lower triangular L (row-major q x q, lower triangle read),
 * stored by columns: `out[c * q + r]` = (L^{-1})_rc for r >= c (zero above).
 * Column c is solved downwards, (L^{-1})_rc = -(sum_{j=c}^{r-1} L_rj (L^{-1})_jc) / L_rr
 * with j ascending, and (L^{-1})_cc = 1 / L_cc.
 *
 * @param l Lower triangular factor.
 * @param q Order.
 * @returns The inverse, column-stored.
 */
export function lowerInverseByColumns(
  l: Float64Array,
  q: number,
  options: DenseOptions = {},
): Float64Array {
  const wasm = simdFor(q, options);
  if (!wasm) return lowerInverseScalar(l, q);
  const size = even(q * q), accAt = 3 * size;
  const mem = wasm.view(accAt + 8);
  mem.set(l);
  lowerInverseOn(mem, q, wasm, size, 2 * size, accAt);
  return mem.slice(2 * size, 2 * size + q * q);
}

function lowerInverseScalar(l: Float64Array, q: number): Float64Array {
  const lt = new Float64Array(q * q), lead = new Float64Array(8);
  let c = 0;
  for (; c + 3 < q; c += 4) {
    const c0 = c * q, c1 = c0 + q, c2 = c1 + q, c3 = c2 + q;
    blockTriangle(l, lt, q, c);
    // Rows below the block, two at a time (r and r + 1): each column's leading terms
    // (j < c + 3), the common j = c + 3 .. r - 1 for all eight sums, then row r + 1's last
    // term j = r once row r is solved.
    const j3 = c + 3;
    let r = c + 4;
    for (; r + 1 < q; r += 2) {
      const rq = r * q, pq = rq + q;
      leading(l, lt, rq, pq, c, c0, c1, c2, lead, 0);
      let s0 = lead[0]!, t0 = lead[1]!, s1 = lead[2]!, t1 = lead[3]!, s2 = lead[4]!, t2 = lead[5]!;
      let s3 = 0, t3 = 0;
      for (let j = j3; j < r; j++) {
        const a = l[rq + j]!, b = l[pq + j]!;
        const v0 = lt[c0 + j]!, v1 = lt[c1 + j]!, v2 = lt[c2 + j]!, v3 = lt[c3 + j]!;
        s0 += a * v0;
        s1 += a * v1;
        s2 += a * v2;
        s3 += a * v3;
        t0 += b * v0;
        t1 += b * v1;
        t2 += b * v2;
        t3 += b * v3;
      }
      const d = l[rq + r]!;
      const v0 = -s0 / d, v1 = -s1 / d, v2 = -s2 / d, v3 = -s3 / d;
      lt[c0 + r] = v0;
      lt[c1 + r] = v1;
      lt[c2 + r] = v2;
      lt[c3 + r] = v3;
      const b = l[pq + r]!, e = l[pq + r + 1]!;
      t0 += b * v0;
      t1 += b * v1;
      t2 += b * v2;
      t3 += b * v3;
      lt[c0 + r + 1] = -t0 / e;
      lt[c1 + r + 1] = -t1 / e;
      lt[c2 + r + 1] = -t2 / e;
      lt[c3 + r + 1] = -t3 / e;
    }
    if (r < q) lastRow(l, lt, q, c, r);
  }
  lastColumns(l, lt, q, c);
  return lt;
}

/**
 * A^{-1} = L^{-T} L^{-1} (dense, both triangles) from the column-stored
 * L^{-1} of {@linkcode lowerInverseByColumns}: entry (a, b), a <= b, is
 * sum_{r=b}^{q-1} (L^{-1})_ra (L^{-1})_rb with r ascending.
 *
 * @param lt L^{-1} stored by columns.
 * @param q Order.
 * @returns The symmetric inverse, row-major q x q.
 */
export function inverseFromLowerInverse(
  lt: Float64Array,
  q: number,
  options: DenseOptions = {},
): Float64Array {
  const wasm = simdFor(q, options);
  if (!wasm) return inverseScalar(lt, q);
  const size = even(q * q), accAt = 3 * size;
  const mem = wasm.view(accAt + 8);
  mem.set(lt);
  inverseOn(mem, q, wasm, 0, size, 2 * size, accAt);
  return mem.slice(2 * size, 2 * size + q * q);
}

function inverseScalar(lt: Float64Array, q: number): Float64Array {
  const out = new Float64Array(q * q), lead = new Float64Array(8);
  // Rows a and a + 1 at a time: entry (a, a) alone, then columns b >= a + 1 four at a time for
  // both rows (entries (a, b) and (a + 1, b) sum over the same r >= b): each column's leading
  // terms (r < b + 3), then the common r for all eight sums.
  let a = 0;
  for (; a + 1 < q; a += 2) {
    const aq = a * q, pq = aq + q;
    diagonal(lt, out, q, a);
    let b = a + 1;
    for (; b + 3 < q; b += 4) {
      const b0 = b * q, b1 = b0 + q, b2 = b1 + q, b3 = b2 + q;
      leading(lt, lt, aq, pq, b, b0, b1, b2, lead, 0);
      let s0 = lead[0]!, t0 = lead[1]!, s1 = lead[2]!, t1 = lead[3]!, s2 = lead[4]!, t2 = lead[5]!;
      let s3 = 0, t3 = 0;
      for (let r = b + 3; r < q; r++) {
        const x = lt[aq + r]!, y = lt[pq + r]!;
        const v0 = lt[b0 + r]!, v1 = lt[b1 + r]!, v2 = lt[b2 + r]!, v3 = lt[b3 + r]!;
        s0 += x * v0;
        s1 += x * v1;
        s2 += x * v2;
        s3 += x * v3;
        t0 += y * v0;
        t1 += y * v1;
        t2 += y * v2;
        t3 += y * v3;
      }
      symmetric(out, q, a, b, s0);
      symmetric(out, q, a, b + 1, s1);
      symmetric(out, q, a, b + 2, s2);
      symmetric(out, q, a, b + 3, s3);
      symmetric(out, q, a + 1, b, t0);
      symmetric(out, q, a + 1, b + 1, t1);
      symmetric(out, q, a + 1, b + 2, t2);
      symmetric(out, q, a + 1, b + 3, t3);
    }
    for (; b < q; b++) twoRowsColumn(lt, out, q, a, b);
  }
  if (a < q) diagonal(lt, out, q, a);
  return out;
}

/**
 * The leading terms of two rows' sums over a block of four columns: for rows ra and rb of x and
 * the columns at offsets k0, k1, k2 of lt, the sums s_i = sum over j = col + i .. col + 2 of
 * x[row + j] lt[k_i + j] (j ascending, from 0), written to into[at ..] as (s0 of ra, of rb,
 * s1 of ra, of rb, s2 of ra, of rb, 0, 0): the fourth column has no leading term.
 */
function leading(
  x: Float64Array,
  lt: Float64Array,
  ra: number,
  rb: number,
  col: number,
  k0: number,
  k1: number,
  k2: number,
  into: Float64Array,
  at: number,
): void {
  let s0 = 0, s1 = 0, s2 = 0, t0 = 0, t1 = 0, t2 = 0;
  s0 += x[ra + col]! * lt[k0 + col]!;
  s0 += x[ra + col + 1]! * lt[k0 + col + 1]!;
  s0 += x[ra + col + 2]! * lt[k0 + col + 2]!;
  s1 += x[ra + col + 1]! * lt[k1 + col + 1]!;
  s1 += x[ra + col + 2]! * lt[k1 + col + 2]!;
  s2 += x[ra + col + 2]! * lt[k2 + col + 2]!;
  t0 += x[rb + col]! * lt[k0 + col]!;
  t0 += x[rb + col + 1]! * lt[k0 + col + 1]!;
  t0 += x[rb + col + 2]! * lt[k0 + col + 2]!;
  t1 += x[rb + col + 1]! * lt[k1 + col + 1]!;
  t1 += x[rb + col + 2]! * lt[k1 + col + 2]!;
  t2 += x[rb + col + 2]! * lt[k2 + col + 2]!;
  into[at] = s0;
  into[at + 1] = t0;
  into[at + 2] = s1;
  into[at + 3] = t1;
  into[at + 4] = s2;
  into[at + 5] = t2;
  into[at + 6] = 0;
  into[at + 7] = 0;
}

/** The triangle of L^{-1} inside the column block c .. c + 3, one column at a time. */
function blockTriangle(l: Float64Array, lt: Float64Array, q: number, c: number): void {
  for (let b = c; b < c + 4; b++) {
    const bq = b * q;
    lt[bq + b] = 1 / l[b * q + b]!;
    for (let r = b + 1; r < c + 4; r++) {
      const rq = r * q;
      let s = 0;
      for (let j = b; j < r; j++) s += l[rq + j]! * lt[bq + j]!;
      lt[bq + r] = -s / l[rq + r]!;
    }
  }
}

/** Row r (the last, left when rows go two at a time) of L^{-1}'s column block c .. c + 3. */
function lastRow(l: Float64Array, lt: Float64Array, q: number, c: number, r: number): void {
  const c0 = c * q, c1 = c0 + q, c2 = c1 + q, c3 = c2 + q, j3 = c + 3, rq = r * q;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  s0 += l[rq + c]! * lt[c0 + c]!;
  s0 += l[rq + c + 1]! * lt[c0 + c + 1]!;
  s0 += l[rq + c + 2]! * lt[c0 + c + 2]!;
  s1 += l[rq + c + 1]! * lt[c1 + c + 1]!;
  s1 += l[rq + c + 2]! * lt[c1 + c + 2]!;
  s2 += l[rq + c + 2]! * lt[c2 + c + 2]!;
  for (let j = j3; j < r; j++) {
    const a = l[rq + j]!;
    s0 += a * lt[c0 + j]!;
    s1 += a * lt[c1 + j]!;
    s2 += a * lt[c2 + j]!;
    s3 += a * lt[c3 + j]!;
  }
  const d = l[rq + r]!;
  lt[c0 + r] = -s0 / d;
  lt[c1 + r] = -s1 / d;
  lt[c2 + r] = -s2 / d;
  lt[c3 + r] = -s3 / d;
}

/** The columns c .. q - 1 of L^{-1} left after the blocks of four, one at a time. */
function lastColumns(l: Float64Array, lt: Float64Array, q: number, c: number): void {
  for (; c < q; c++) {
    const cq = c * q;
    lt[cq + c] = 1 / l[cq + c]!;
    for (let r = c + 1; r < q; r++) {
      const rq = r * q;
      let s = 0;
      for (let j = c; j < r; j++) s += l[rq + j]! * lt[cq + j]!;
      lt[cq + r] = -s / l[rq + r]!;
    }
  }
}

/** Entry (a, a) of A^{-1}: the sum over r >= a of (L^{-1})_{ra}^2. */
function diagonal(lt: Float64Array, out: Float64Array, q: number, a: number): void {
  const aq = a * q;
  let s = 0;
  for (let r = a; r < q; r++) s += lt[aq + r]! * lt[aq + r]!;
  out[aq + a] = s;
}

/** Entries (a, b) and (a + 1, b) of A^{-1} (and their mirrors), one column b. */
function twoRowsColumn(lt: Float64Array, out: Float64Array, q: number, a: number, b: number): void {
  const aq = a * q, pq = aq + q, bq = b * q;
  let s0 = 0, t0 = 0;
  for (let r = b; r < q; r++) {
    s0 += lt[aq + r]! * lt[bq + r]!;
    t0 += lt[pq + r]! * lt[bq + r]!;
  }
  symmetric(out, q, a, b, s0);
  symmetric(out, q, a + 1, b, t0);
}

/** Writes v at (a, b) and (b, a). */
function symmetric(out: Float64Array, q: number, a: number, b: number, v: number): void {
  out[a * q + b] = v;
  out[b * q + a] = v;
}

/**
 * A^{-1} of a symmetric positive definite A by {@linkcode choleskyLower},
 * {@linkcode lowerInverseByColumns} and {@linkcode inverseFromLowerInverse}
 * in turn (the same bits), kept in the WebAssembly memory from the first step
 * to the last where the runtime has SIMD; null when a pivot is not above its
 * floor.
 *
 * @param l A, lower triangle read (the array may be overwritten).
 * @param q Order.
 * @param floor The bound each pivot d_t must exceed.
 * @returns The symmetric inverse, row-major q x q, or null.
 */
export function spdInverse(
  l: Float64Array,
  q: number,
  floor: ArrayLike<number>,
  options: DenseOptions = {},
): Float64Array | null {
  const wasm = simdFor(q, options);
  if (!wasm) {
    if (!choleskyScalar(l, q, floor)) return null;
    return inverseScalar(lowerInverseScalar(l, q), q);
  }
  // L at 0, the interleaved pairs at `size`, L^{-1} at 2 size; the inverse is written over L.
  const size = even(q * q), accAt = 3 * size;
  const mem = wasm.view(accAt + 8);
  mem.set(l);
  if (!choleskyOn(mem, q, floor, wasm, size, accAt)) return null;
  lowerInverseOn(mem, q, wasm, size, 2 * size, accAt);
  inverseOn(mem, q, wasm, 2 * size, size, 0, accAt);
  return mem.slice(0, q * q);
}

/**
 * choleskyScalar's loop on `m` (L in its first q * q doubles) with the sums over j < t of four
 * rows and both columns t, v = t + 1 in WebAssembly: lanes (t, v), v_j = (L_tj, L_vj) copied to
 * `vAt`, w_ij = L_{u_i j} read in place.
 */
function choleskyOn(
  m: Float64Array,
  q: number,
  floor: ArrayLike<number>,
  wasm: DenseWasm,
  vAt: number,
  accAt: number,
): boolean {
  let t = 0;
  for (; t + 1 < q; t += 2) {
    const v = t + 1, tq = t * q, vq = tq + q;
    let d = m[tq + t]!;
    for (let j = 0; j < t; j++) d -= m[tq + j]! * m[tq + j]!;
    if (!(d > floor[t]!)) return false;
    const root = Math.sqrt(d);
    m[tq + t] = root;
    let s = m[vq + t]!;
    for (let j = 0; j < t; j++) s -= m[vq + j]! * m[tq + j]!;
    const lvt = s / root;
    m[vq + t] = lvt;
    let dv = m[vq + v]!;
    for (let j = 0; j < v; j++) dv -= m[vq + j]! * m[vq + j]!;
    if (!(dv > floor[v]!)) return false;
    const rootV = Math.sqrt(dv);
    m[vq + v] = rootV;
    for (let j = 0; j < t; j++) {
      m[vAt + 2 * j] = m[tq + j]!;
      m[vAt + 2 * j + 1] = m[vq + j]!;
    }
    let u = t + 2;
    for (; u + 3 < q; u += 4) {
      const r0 = u * q, r1 = r0 + q, r2 = r1 + q, r3 = r2 + q;
      m[accAt] = m[r0 + t]!;
      m[accAt + 1] = m[r0 + v]!;
      m[accAt + 2] = m[r1 + t]!;
      m[accAt + 3] = m[r1 + v]!;
      m[accAt + 4] = m[r2 + t]!;
      m[accAt + 5] = m[r2 + v]!;
      m[accAt + 6] = m[r3 + t]!;
      m[accAt + 7] = m[r3 + v]!;
      wasm.sub4(8 * vAt, 8 * r0, 8 * r1, 8 * r2, 8 * r3, t, 8 * accAt);
      for (let i = 0; i < 4; i++) {
        const row = r0 + i * q;
        const lut = m[accAt + 2 * i]! / root;
        m[row + t] = lut;
        m[row + v] = (m[accAt + 2 * i + 1]! - lut * lvt) / rootV;
      }
    }
    for (; u < q; u++) {
      const r0 = u * q;
      let s0 = m[r0 + t]!, w0 = m[r0 + v]!;
      for (let j = 0; j < t; j++) {
        s0 -= m[r0 + j]! * m[tq + j]!;
        w0 -= m[r0 + j]! * m[vq + j]!;
      }
      s0 /= root;
      m[r0 + t] = s0;
      w0 -= s0 * lvt;
      m[r0 + v] = w0 / rootV;
    }
  }
  if (t < q) {
    const tq = t * q;
    let d = m[tq + t]!;
    for (let j = 0; j < t; j++) d -= m[tq + j]! * m[tq + j]!;
    if (!(d > floor[t]!)) return false;
    m[tq + t] = Math.sqrt(d);
  }
  return true;
}

/**
 * lowerInverseScalar's loop on `m` (L in its first q * q doubles) writing L^{-1} at `ltAt`, with
 * the common sums of two rows r, r + 1 and four columns in WebAssembly: lanes (r, r + 1), rows of
 * L interleaved in pairs at `pairsAt` (v_j = (L_rj, L_{r+1,j})), w_ij = (L^{-1})_{j c_i} read in
 * place.
 */
function lowerInverseOn(
  m: Float64Array,
  q: number,
  wasm: DenseWasm,
  pairsAt: number,
  ltAt: number,
  accAt: number,
): void {
  for (let r = 0; r + 1 < q; r += 2) interleave(m, pairsAt + r * q, m, r * q, q, 0, r);
  const l = m, lt = m.subarray(ltAt, ltAt + q * q);
  lt.fill(0);
  let c = 0;
  for (; c + 3 < q; c += 4) {
    const c0 = c * q, c1 = c0 + q, c2 = c1 + q, c3 = c2 + q;
    blockTriangle(l, lt, q, c);
    const j3 = c + 3;
    let r = c + 4;
    for (; r + 1 < q; r += 2) {
      const rq = r * q, pq = rq + q;
      leading(l, lt, rq, pq, c, c0, c1, c2, m, accAt);
      const w = 8 * (ltAt + j3);
      wasm.add4(
        8 * (pairsAt + r * q + 2 * j3),
        w + 8 * c0,
        w + 8 * c1,
        w + 8 * c2,
        w + 8 * c3,
        r - j3,
        8 * accAt,
      );
      const d = l[rq + r]!, b = l[pq + r]!, e = l[pq + r + 1]!;
      for (let i = 0; i < 4; i++) {
        const col = c0 + i * q;
        const value = -m[accAt + 2 * i]! / d;
        lt[col + r] = value;
        let t = m[accAt + 2 * i + 1]!;
        t += b * value;
        lt[col + r + 1] = -t / e;
      }
    }
    if (r < q) lastRow(l, lt, q, c, r);
  }
  lastColumns(l, lt, q, c);
}

/**
 * inverseScalar's loop on `m` (L^{-1} by columns in its first q * q doubles) writing A^{-1} at
 * `outAt`, with the common sums of two rows a, a + 1 and four columns b in WebAssembly: lanes
 * (a, a + 1), columns of L^{-1} interleaved in pairs at `pairsAt`, w_ir = (L^{-1})_{r b_i} read
 * in place.
 */
function inverseOn(
  m: Float64Array,
  q: number,
  wasm: DenseWasm,
  ltAt: number,
  pairsAt: number,
  outAt: number,
  accAt: number,
): void {
  const lt = m.subarray(ltAt, ltAt + q * q), out = m.subarray(outAt, outAt + q * q);
  for (let a = 0; a + 1 < q; a += 2) interleave(m, pairsAt + a * q, lt, a * q, q, a, q);
  let a = 0;
  for (; a + 1 < q; a += 2) {
    const aq = a * q, pq = aq + q;
    diagonal(lt, out, q, a);
    let b = a + 1;
    for (; b + 3 < q; b += 4) {
      const b0 = b * q, b1 = b0 + q, b2 = b1 + q;
      leading(lt, lt, aq, pq, b, b0, b1, b2, m, accAt);
      const r3 = b + 3, w = 8 * (ltAt + r3);
      wasm.add4(
        8 * (pairsAt + a * q + 2 * r3),
        w + 8 * b0,
        w + 8 * b1,
        w + 8 * b2,
        w + 8 * (b2 + q),
        q - r3,
        8 * accAt,
      );
      for (let i = 0; i < 4; i++) {
        symmetric(out, q, a, b + i, m[accAt + 2 * i]!);
        symmetric(out, q, a + 1, b + i, m[accAt + 2 * i + 1]!);
      }
    }
    for (; b < q; b++) twoRowsColumn(lt, out, q, a, b);
  }
  if (a < q) diagonal(lt, out, q, a);
}

/**
 * Two rows of `source` (from `row` and `row + stride`) interleaved into m from `at`:
 * m[at + 2j] = source[row + j] and m[at + 2j + 1] = source[row + stride + j], j in [first, end).
 */
function interleave(
  m: Float64Array,
  at: number,
  source: Float64Array,
  row: number,
  stride: number,
  first: number,
  end: number,
): void {
  const next = row + stride;
  for (let j = first; j < end; j++) {
    m[at + 2 * j] = source[row + j]!;
    m[at + 2 * j + 1] = source[next + j]!;
  }
}

/**
 * C = A B' for row-major A (rowsA x width) and B (rowsB x width): entry (i, r)
 * is sum_j A_ij B_rj with j ascending, the plain dot product of two rows.
 *
 * @param a A, row-major.
 * @param rowsA Rows of A.
 * @param b B, row-major.
 * @param rowsB Rows of B.
 * @param width Columns of both.
 * @returns C, row-major rowsA x rowsB.
 */
export function rowDots(
  a: Float64Array,
  rowsA: number,
  b: Float64Array,
  rowsB: number,
  width: number,
  options: DenseOptions = {},
): Float64Array {
  const wasm = options.simd === false || width < SIMD_FROM ? null : denseWasm();
  const out = new Float64Array(rowsA * rowsB);
  let i = 0, m: Float64Array | null = null, pairsAt = 0, accAt = 0;
  if (wasm) {
    pairsAt = even(rowsB * width);
    accAt = pairsAt + 2 * width;
    m = wasm.view(accAt + 8);
    m.set(b);
  }
  for (; m && i + 1 < rowsA; i += 2) {
    // Rows i and i + 1 of A interleaved (the lanes), four rows of B at a time in place.
    const ai = i * width, ah = ai + width;
    for (let j = 0; j < width; j++) {
      m[pairsAt + 2 * j] = a[ai + j]!;
      m[pairsAt + 2 * j + 1] = a[ah + j]!;
    }
    rowPairDots(m, wasm!, out, i, rowsB, width, pairsAt, accAt);
  }
  for (; i < rowsA; i++) {
    const ai = i * width;
    for (let r = 0; r < rowsB; r++) {
      const br = r * width;
      let s = 0;
      for (let j = 0; j < width; j++) s += a[ai + j]! * b[br + j]!;
      out[i * rowsB + r] = s;
    }
  }
  return out;
}

/** Row i and i + 1 of rowDots' C: the pair interleaved at `pairsAt`, B from address 0. */
function rowPairDots(
  m: Float64Array,
  wasm: DenseWasm,
  out: Float64Array,
  i: number,
  rowsB: number,
  width: number,
  pairsAt: number,
  accAt: number,
): void {
  let r = 0;
  for (; r + 3 < rowsB; r += 4) {
    m.fill(0, accAt, accAt + 8);
    const w = 8 * r * width, step = 8 * width;
    wasm.add4(8 * pairsAt, w, w + step, w + 2 * step, w + 3 * step, width, 8 * accAt);
    for (let l = 0; l < 4; l++) {
      out[i * rowsB + r + l] = m[accAt + 2 * l]!;
      out[(i + 1) * rowsB + r + l] = m[accAt + 2 * l + 1]!;
    }
  }
  for (; r < rowsB; r++) {
    const br = r * width;
    let s = 0, t = 0;
    for (let j = 0; j < width; j++) {
      s += m[pairsAt + 2 * j]! * m[br + j]!;
      t += m[pairsAt + 2 * j + 1]! * m[br + j]!;
    }
    out[i * rowsB + r] = s;
    out[(i + 1) * rowsB + r] = t;
  }
}
