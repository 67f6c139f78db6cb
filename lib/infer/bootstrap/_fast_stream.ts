/**
 * A fast private copy of gatelab's xoshiro128** stream
 * (lib/math/prng.ts): the same seeding (`xoshiroState`), the same outputs, same `nextInt` rule, but
 * the state lives in plain fields so the bootstrap's G x B integer draws
 * stay cheap. tests/infer_bootstrap_test.ts checks with fast-check that its
 * outputs equal `createPrng(seed)` call for call.
 *
 * @module
 */

import { xoshiroState } from "../../math/prng.ts";

/** xoshiro128** with state in fields; equal to `createPrng(seed)`. */
export class FastStream {
  s0: number;
  s1: number;
  s2: number;
  s3: number;

  constructor(seed: number) {
    const s = xoshiroState(seed);
    this.s0 = s[0]! | 0;
    this.s1 = s[1]! | 0;
    this.s2 = s[2]! | 0;
    this.s3 = s[3]! | 0;
  }

  /** Uniform 32-bit unsigned integer (same as Prng.nextUint32). */
  nextUint32(): number {
    const s0 = this.s0, s1 = this.s1;
    let s2 = this.s2, s3 = this.s3;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    this.s1 = s1 ^ s2;
    this.s0 = s0 ^ s3;
    this.s2 = s2 ^ t;
    this.s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /**
   * Adds one bootstrap draw of G tasks to zeroed counts: G calls of
   * nextInt(G), exactly as `Prng.nextInt` (rejection below the largest
   * multiple of G, then modulo); task c's count is at `counts[c * stride + offset]`.
   */
  drawCounts(
    counts: Int32Array | Float64Array,
    g = counts.length,
    stride = 1,
    offset = 0,
  ): void {
    const limit = 0x100000000 - (0x100000000 % g);
    let s0 = this.s0, s1 = this.s1, s2 = this.s2, s3 = this.s3;
    for (let t = 0; t < g; t++) {
      let x: number;
      do {
        const m = Math.imul(s1, 5);
        x = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
        const tt = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= tt;
        s3 = (s3 << 11) | (s3 >>> 21);
      } while (x >= limit);
      // x - floor(x / g) * g equals x % g exactly for x < 2^32 (the quotient's
      // distance to the next integer, >= 1/g, is far above double rounding).
      const at = (x - Math.floor(x / g) * g) * stride + offset;
      counts[at] = counts[at]! + 1;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /** Consumes one draw's G calls of nextInt(G) exactly as `drawCounts`, counting nothing. */
  skipCounts(g: number): void {
    const limit = 0x100000000 - (0x100000000 % g);
    let s0 = this.s0, s1 = this.s1, s2 = this.s2, s3 = this.s3;
    for (let t = 0; t < g; t++) {
      let x: number;
      do {
        const m = Math.imul(s1, 5);
        x = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
        const tt = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= tt;
        s3 = (s3 << 11) | (s3 >>> 21);
      } while (x >= limit);
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }
}
