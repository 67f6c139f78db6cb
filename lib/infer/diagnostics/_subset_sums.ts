/**
 * Weighted counts of the sets of up to four columns of a 0/1 design, for the
 * cross products of its pairwise product columns: with z_t = x_a x_b and
 * z_u = x_c x_d, sum_i w_i z_it z_iu is the sum of w_i over the rows holding
 * every column of {a, b, c, d}, and sum_i w_i x_ij z_it the same over
 * {j, a, b}. A row with m columns present adds its weight to its
 * C(m,1) + ... + C(m,4) subsets instead of to the (m(m-1)/2)^2 / 2 pairs of
 * its products, and every product sum is then read from the set it names.
 *
 * Each set's sum adds the weights of the rows holding it in the order rows
 * are added, so it is the very sum (same terms, same order) that a pass over
 * the rows accumulating w_i z_it z_iu would give.
 *
 * Sets are stored by size, in the combinatorial number system: a sorted set
 * a < b < c < d is entry C(a,1) + C(b,2) + C(c,3) + C(d,4) of its size's array.
 *
 * @module
 */

/** Sums over the sets of at most four of k columns. */
export class SubsetSums {
  /** Number of columns. */
  readonly k: number;
  readonly #c2: Int32Array;
  readonly #c3: Int32Array;
  readonly #c4: Int32Array;
  readonly #one: Float64Array;
  readonly #two: Float64Array;
  readonly #three: Float64Array;
  readonly #four: Float64Array;

  /** Zero sums over the sets of at most four of k columns. */
  constructor(k: number) {
    this.k = k;
    this.#c2 = new Int32Array(k);
    this.#c3 = new Int32Array(k);
    this.#c4 = new Int32Array(k);
    for (let v = 0; v < k; v++) {
      this.#c2[v] = (v * (v - 1)) / 2;
      this.#c3[v] = (v * (v - 1) * (v - 2)) / 6;
      this.#c4[v] = (v * (v - 1) * (v - 2) * (v - 3)) / 24;
    }
    this.#one = new Float64Array(k);
    this.#two = new Float64Array(SubsetSums.sets(k, 2));
    this.#three = new Float64Array(SubsetSums.sets(k, 3));
    this.#four = new Float64Array(SubsetSums.sets(k, 4));
  }

  /** C(k, size), the number of sets of that size. */
  static sets(k: number, size: number): number {
    let c = 1;
    for (let s = 0; s < size; s++) c = (c * (k - s)) / (s + 1);
    return Math.max(0, Math.round(c));
  }

  /** Work of {@linkcode SubsetSums.add} for a row with m columns: its subsets of size 1 to 4. */
  static rowWork(m: number): number {
    return m + SubsetSums.sets(m, 2) + SubsetSums.sets(m, 3) + SubsetSums.sets(m, 4);
  }

  /**
   * Adds w to the sum of every set of at most four of the columns
   * `columns[0..count)` (ascending, distinct).
   */
  add(columns: Int32Array, count: number, w: number): void {
    const c2 = this.#c2, c3 = this.#c3, c4 = this.#c4;
    const one = this.#one, two = this.#two, three = this.#three, four = this.#four;
    for (let id = 0; id < count; id++) {
      const d = columns[id]!;
      one[d] = one[d]! + w;
      const at2 = c2[d]!;
      for (let ia = 0; ia < id; ia++) {
        const e = at2 + columns[ia]!;
        two[e] = two[e]! + w;
      }
      for (let ic = 1; ic < id; ic++) {
        const c = columns[ic]!;
        const at3 = c3[d]! + c2[c]!;
        for (let ia = 0; ia < ic; ia++) {
          const e = at3 + columns[ia]!;
          three[e] = three[e]! + w;
        }
        const at4 = c4[d]! + c3[c]!;
        for (let ib = 1; ib < ic; ib++) {
          const b4 = at4 + c2[columns[ib]!]!;
          for (let ia = 0; ia < ib; ia++) {
            const e = b4 + columns[ia]!;
            four[e] = four[e]! + w;
          }
        }
      }
    }
  }

  /** The sum over the rows holding column a. */
  one(a: number): number {
    return this.#one[a]!;
  }

  /** The sum over the rows holding columns a and b (in any order; equal means one column). */
  pair(a: number, b: number): number {
    if (a === b) return this.#one[a]!;
    return a < b ? this.#two[this.#c2[b]! + a]! : this.#two[this.#c2[a]! + b]!;
  }

  /** The sum over the rows holding columns j, a and b, with a < b. */
  withPair(j: number, a: number, b: number): number {
    if (j === a || j === b) return this.#two[this.#c2[b]! + a]!;
    if (j < a) return this.#three[this.#c3[b]! + this.#c2[a]! + j]!;
    if (j < b) return this.#three[this.#c3[b]! + this.#c2[j]! + a]!;
    return this.#three[this.#c3[j]! + this.#c2[b]! + a]!;
  }

  /** The sum over the rows holding columns a, b, c and d, with a < b and c < d. */
  pairs(a: number, b: number, c: number, d: number): number {
    const c2 = this.#c2, c3 = this.#c3;
    // The sorted union of {a, b} and {c, d}, case by case.
    if (c === a) {
      if (d === b) return this.#two[c2[b]! + a]!;
      return d < b ? this.#three[c3[b]! + c2[d]! + a]! : this.#three[c3[d]! + c2[b]! + a]!;
    }
    if (c === b) return this.#three[c3[d]! + c2[b]! + a]!;
    if (d === a) return this.#three[c3[b]! + c2[a]! + c]!;
    if (d === b) {
      return a < c ? this.#three[c3[b]! + c2[c]! + a]! : this.#three[c3[b]! + c2[a]! + c]!;
    }
    let s0: number, s1: number, s2: number, s3: number;
    if (b < c) {
      s0 = a;
      s1 = b;
      s2 = c;
      s3 = d;
    } else if (d < a) {
      s0 = c;
      s1 = d;
      s2 = a;
      s3 = b;
    } else {
      // Interleaved: the least of the minima, the greatest of the maxima, the other two between.
      const high = a < c ? c : a, low = b < d ? b : d;
      s0 = a < c ? a : c;
      s3 = b > d ? b : d;
      s1 = high < low ? high : low;
      s2 = high < low ? low : high;
    }
    return this.#four[this.#c4[s3]! + c3[s2]! + c2[s1]! + s0]!;
  }
}
