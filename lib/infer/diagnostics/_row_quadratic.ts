/**
 * The quadratic form z_i' A z_i of a 0/1 row with A symmetric, as the
 * joint test's leverages need it (lib/infer/diagnostics/joint_wald.ts): a sum over the
 * row's ones in a fixed order, eight chains of adds side by side.
 *
 * @module
 */

/**
 * sum_a (A_{t_a t_a} + 2 s_a) with s_a = sum_{b > a} A_{t_a t_b} over the first m indices t
 * of `idx` (A symmetric, order q), a ascending, each s_a summed from 0 with b ascending. Eight
 * a at once (then two, then one), so eight chains of adds run side by side; every s_a and the
 * sum over a keep their terms in their order.
 */
export function rowQuadratic(idx: Int32Array, m: number, matrix: Float64Array, q: number): number {
  let sum = 0, a = 0;
  for (; a + 7 < m; a += 8) {
    const t0 = idx[a]!, t1 = idx[a + 1]!, t2 = idx[a + 2]!, t3 = idx[a + 3]!;
    const t4 = idx[a + 4]!, t5 = idx[a + 5]!, t6 = idx[a + 6]!, t7 = idx[a + 7]!;
    const r0 = t0 * q, r1 = t1 * q, r2 = t2 * q, r3 = t3 * q;
    const r4 = t4 * q, r5 = t5 * q, r6 = t6 * q, r7 = t7 * q;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    // The block's own triangle, column by column, so each chain adds its b in order.
    s0 += matrix[r0 + t1]!;
    s0 += matrix[r0 + t2]!;
    s1 += matrix[r1 + t2]!;
    s0 += matrix[r0 + t3]!;
    s1 += matrix[r1 + t3]!;
    s2 += matrix[r2 + t3]!;
    s0 += matrix[r0 + t4]!;
    s1 += matrix[r1 + t4]!;
    s2 += matrix[r2 + t4]!;
    s3 += matrix[r3 + t4]!;
    s0 += matrix[r0 + t5]!;
    s1 += matrix[r1 + t5]!;
    s2 += matrix[r2 + t5]!;
    s3 += matrix[r3 + t5]!;
    s4 += matrix[r4 + t5]!;
    s0 += matrix[r0 + t6]!;
    s1 += matrix[r1 + t6]!;
    s2 += matrix[r2 + t6]!;
    s3 += matrix[r3 + t6]!;
    s4 += matrix[r4 + t6]!;
    s5 += matrix[r5 + t6]!;
    s0 += matrix[r0 + t7]!;
    s1 += matrix[r1 + t7]!;
    s2 += matrix[r2 + t7]!;
    s3 += matrix[r3 + t7]!;
    s4 += matrix[r4 + t7]!;
    s5 += matrix[r5 + t7]!;
    s6 += matrix[r6 + t7]!;
    for (let b = a + 8; b < m; b++) {
      const u = idx[b]!;
      s0 += matrix[r0 + u]!;
      s1 += matrix[r1 + u]!;
      s2 += matrix[r2 + u]!;
      s3 += matrix[r3 + u]!;
      s4 += matrix[r4 + u]!;
      s5 += matrix[r5 + u]!;
      s6 += matrix[r6 + u]!;
      s7 += matrix[r7 + u]!;
    }
    sum += matrix[r0 + t0]! + 2 * s0;
    sum += matrix[r1 + t1]! + 2 * s1;
    sum += matrix[r2 + t2]! + 2 * s2;
    sum += matrix[r3 + t3]! + 2 * s3;
    sum += matrix[r4 + t4]! + 2 * s4;
    sum += matrix[r5 + t5]! + 2 * s5;
    sum += matrix[r6 + t6]! + 2 * s6;
    sum += matrix[r7 + t7]! + 2 * s7;
  }
  for (; a + 1 < m; a += 2) {
    const ta = idx[a]!, at = ta * q, tb = idx[a + 1]!, bt = tb * q;
    let s = 0, t = 0;
    s += matrix[at + tb]!;
    for (let b = a + 2; b < m; b++) {
      const u = idx[b]!;
      s += matrix[at + u]!;
      t += matrix[bt + u]!;
    }
    sum += matrix[at + ta]! + 2 * s;
    sum += matrix[bt + tb]! + 2 * t;
  }
  if (a < m) {
    const ta = idx[a]!;
    sum += matrix[ta * q + ta]! + 2 * 0; // the same expression with an empty inner sum
  }
  return sum;
}
