/**
 * A fast private copy of gatelab's xoshiro128** stream
 * (lib/math/prng.ts): same seeding, same outputs, same `nextInt` rule, but
 * the state lives in plain fields so the bootstrap's G x B integer draws
 * stay cheap. tests/infer_bootstrap_test.ts checks with fast-check that its
 * outputs equal `createPrng(seed)` call for call.
 *
 * @module
 */

function splitmix32(state: number): [number, number] {
  state = (state + 0x9e3779b9) | 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [state, (z ^ (z >>> 16)) >>> 0];
}

/** xoshiro128** with state in fields; equal to `createPrng(seed)`. */
export class FastStream {
  s0: number;
  s1: number;
  s2: number;
  s3: number;

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) {
      throw new RangeError(`Cannot seed generator: ${seed} is not a safe integer`);
    }
    let st = (seed % 0x100000000) | 0;
    st = (st ^ Math.imul(Math.floor(seed / 0x100000000) | 0, 0x27d4eb2f)) | 0;
    const s: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [next, out] = splitmix32(st);
      st = next;
      s.push(out);
    }
    if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
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
