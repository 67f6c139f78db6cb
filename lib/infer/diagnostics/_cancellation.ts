/**
 * The cancellation check's row sums of the joint Wald test's HC3 middle
 * (lib/infer/diagnostics/joint_wald.ts): for each column t of Z,
 * entry_t = sum_i w_i ez_it^2 and terms_t = sum_i w_i (z_it + |(P'x_i)_t|)^2
 * with ez_i = z_i - P'x_i, rows added in order. P'x_i is the sum of the rows
 * of P at x_i's ones, in their order; then entry_t += (w ez) ez and
 * terms_t += (w mag) mag. Where the runtime has WebAssembly SIMD
 * (lib/math/dense_wasm.ts `cancel`) two columns run per lane pair, each lane
 * its column's own operations in the same order, so the sums are the same
 * bits as the scalar loops (tests/infer_cancellation_test.ts).
 *
 * @module
 */

import { type DenseWasm, denseWasm } from "../../math/dense_wasm.ts";

/** Sums of the check, row by row. */
export class CancellationSums {
  readonly #q: number;
  readonly #pm: Float64Array;
  readonly #wasm: DenseWasm | null;
  // Scalar path.
  readonly #px: Float64Array;
  readonly #zi: Uint8Array;
  readonly #entry: Float64Array;
  readonly #terms: Float64Array;
  // WebAssembly path: P with rows padded to an even length from 0, then z_i (0/1 doubles),
  // entry, terms, and the list of row addresses (i32).
  #memory: Float64Array | null = null;
  #rowAddresses: Int32Array | null = null;
  readonly #width: number;
  readonly #ziAt: number;
  readonly #entryAt: number;
  readonly #termsAt: number;

  /**
   * @param pm P, row-major k x q.
   * @param k Rows of P.
   * @param q Columns of P (of Z).
   * @param simd Use WebAssembly SIMD where the runtime has it. @default {true}
   */
  constructor(pm: Float64Array, k: number, q: number, simd = true) {
    this.#q = q;
    this.#pm = pm;
    this.#wasm = simd && q >= 16 ? denseWasm() : null;
    const width = q + (q & 1);
    this.#width = width;
    this.#ziAt = k * width;
    this.#entryAt = this.#ziAt + width;
    this.#termsAt = this.#entryAt + width;
    this.#px = new Float64Array(this.#wasm ? 0 : q);
    this.#zi = new Uint8Array(this.#wasm ? 0 : q);
    this.#entry = new Float64Array(this.#wasm ? 0 : q);
    this.#terms = new Float64Array(this.#wasm ? 0 : q);
  }

  /**
   * Takes the WebAssembly memory (call once before the rows; nothing else may use the memory
   * until {@linkcode CancellationSums.sums}).
   */
  begin(): void {
    if (!this.#wasm) return;
    const q = this.#q, width = this.#width, k = this.#ziAt / width;
    const m = this.#wasm.view(this.#termsAt + width + Math.ceil(k / 2) + 1);
    m.fill(0, 0, this.#termsAt + width);
    for (let j = 0; j < k; j++) m.set(this.#pm.subarray(j * q, j * q + q), j * width);
    this.#memory = m;
    this.#rowAddresses = new Int32Array(m.buffer, 8 * (this.#termsAt + width), k);
  }

  /** Adds row i with weight w, z_i's ones zIdx[0..m) and x_i's ones xIdx[0..mx). */
  add(xIdx: Int32Array, mx: number, zIdx: Int32Array, m: number, w: number): void {
    const mem = this.#memory;
    if (mem) {
      const rows = this.#rowAddresses!, width = this.#width, ziAt = this.#ziAt;
      for (let c = 0; c < mx; c++) rows[c] = 8 * xIdx[c]! * width;
      for (let a = 0; a < m; a++) mem[ziAt + zIdx[a]!] = 1;
      this.#wasm!.cancel(
        rows.byteOffset,
        4 * mx,
        width / 2,
        w,
        8 * ziAt,
        8 * this.#entryAt,
        8 * this.#termsAt,
      );
      for (let a = 0; a < m; a++) mem[ziAt + zIdx[a]!] = 0;
      return;
    }
    const q = this.#q, pm = this.#pm, px = this.#px, zi = this.#zi;
    const entry = this.#entry, terms = this.#terms;
    // Two rows of P at once: each entry still adds them in the order of c.
    px.fill(0);
    let c = 0;
    for (; c + 1 < mx; c += 2) {
      const jq = xIdx[c]! * q, lq = xIdx[c + 1]! * q;
      for (let t = 0; t < q; t++) px[t] = px[t]! + pm[jq + t]! + pm[lq + t]!;
    }
    if (c < mx) {
      const jq = xIdx[c]! * q;
      for (let t = 0; t < q; t++) px[t] = px[t]! + pm[jq + t]!;
    }
    for (let a = 0; a < m; a++) zi[zIdx[a]!] = 1;
    for (let t = 0; t < q; t++) {
      const ez = zi[t]! - px[t]!, magnitude = zi[t]! + Math.abs(px[t]!);
      entry[t] = entry[t]! + w * ez * ez;
      terms[t] = terms[t]! + w * magnitude * magnitude;
    }
    for (let a = 0; a < m; a++) zi[zIdx[a]!] = 0;
  }

  /** entry and terms (length q) after the rows added. */
  sums(): { entry: Float64Array; terms: Float64Array } {
    const mem = this.#memory, q = this.#q;
    if (!mem) return { entry: this.#entry, terms: this.#terms };
    return {
      entry: mem.slice(this.#entryAt, this.#entryAt + q),
      terms: mem.slice(this.#termsAt, this.#termsAt + q),
    };
  }
}
