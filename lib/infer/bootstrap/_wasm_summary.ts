/**
 * The per-coefficient summaries of bootstrap draws in WebAssembly: the
 * draws of one coefficient gathered (NaN draws left out) and summed in draw
 * order, sorted ascending (an 11-bit least-significant-digit radix sort
 * over the IEEE-754 bits, as lib/math/sort_float64.ts), and the sum of
 * squared deviations from the mean in sorted order: the loops of
 * finishBootstrap (bootstrap.ts), with the same operations in the same
 * order, so the same bits. A summary runs once per metric and column, so
 * in a fresh process the scalar loops would run mostly before the JIT has
 * compiled them; here they are compiled once, up front.
 *
 * @module
 */
import {
  add,
  addF64,
  type Code,
  eqz,
  F64,
  f64,
  f64At,
  forUp,
  get,
  I32,
  i32,
  i32At,
  i32s,
  ifElse,
  loadF64,
  loadI32,
  mul,
  mulF64,
  RETURN,
  set,
  sleb,
  storeF64,
  storeI32,
  sub,
  subF64,
  wasmModule,
} from "../../math/wasm.ts";
import { sortFloat64 } from "../../math/sort_float64.ts";

const I64 = 0x7e;
const loadI64 = (at: Code): Code => [...at, 0x29, 3, 0];
const storeI64 = (at: Code, v: Code): Code => [...at, ...v, 0x37, 3, 0];
const i64 = (v: number): Code => [0x42, ...sleb(v)];
const i64Op = (code: number) => (a: Code, b: Code): Code => [...a, ...b, code];
const andI64 = i64Op(0x83), orI64 = i64Op(0x84), xorI64 = i64Op(0x85);
const shlI64 = i64Op(0x86), shrSI64 = i64Op(0x87), shrUI64 = i64Op(0x88);
const wrap = (a: Code): Code => [...a, 0xa7];
const extendU = (a: Code): Code => [...a, 0xad];
const neF64 = (a: Code, b: Code): Code => [...a, ...b, 0x62];
const BITS = 11, BUCKETS = 1 << BITS;

// column(coef, draws, stride, offset, out, sumAt) -> used: out[used++] = coef[d * stride +
// offset] for each non-NaN draw d, sum += it in draw order, the sum stored at sumAt.
const C = { coef: 0, draws: 1, stride: 2, offset: 3, out: 4, sumAt: 5 };
const CL = { d: 6, used: 7, v: 8, sum: 9 };
const columnCode: Code = [
  ...set(CL.sum, f64(0)),
  ...set(CL.used, i32(0)),
  ...forUp(CL.d, i32(0), get(C.draws), [
    ...set(CL.v, loadF64(f64At(get(C.coef), add(mul(get(CL.d), get(C.stride)), get(C.offset))))),
    ...ifElse(eqz(neF64(get(CL.v), get(CL.v))), [
      ...storeF64(f64At(get(C.out), get(CL.used)), get(CL.v)),
      ...set(CL.used, add(get(CL.used), i32(1))),
      ...set(CL.sum, addF64(get(CL.sum), get(CL.v))),
    ]),
  ]),
  ...storeF64(get(C.sumAt), get(CL.sum)),
  ...get(CL.used),
];

// sort(values, n, tmp, counts): values (n doubles, no NaN) sorted ascending in place, in the
// order of Float64Array.prototype.sort; tmp holds n doubles, counts 2^11 i32.
const S = { values: 0, n: 1, tmp: 2, counts: 3 };
const SL = { i: 4, pass: 5, src: 6, dst: 7, d: 8, at: 9, swap: 10, key: 11, shift: 12 };
const SIGN = shlI64(i64(1), i64(63));
/** Bits to key and back: x ^ ((x >> 63) | sign), with `top` the value whose sign decides. */
const flip = (x: Code, top: Code): Code => xorI64(x, orI64(shrSI64(top, i64(63)), SIGN));
const digit = (key: Code): Code => wrap(andI64(shrUI64(key, get(SL.shift)), i64(BUCKETS - 1)));
const count = (d: Code): Code => i32At(get(S.counts), d);
const sortCode: Code = [
  ...forUp(SL.i, i32(0), get(S.n), [
    ...set(SL.key, loadI64(f64At(get(S.values), get(SL.i)))),
    ...storeI64(f64At(get(S.values), get(SL.i)), flip(get(SL.key), get(SL.key))),
  ]),
  ...set(SL.src, get(S.values)),
  ...set(SL.dst, get(S.tmp)),
  ...forUp(SL.pass, i32(0), i32(6), [
    ...set(SL.shift, extendU(mul(get(SL.pass), i32(BITS)))),
    ...forUp(SL.d, i32(0), i32(BUCKETS), storeI32(count(get(SL.d)), i32(0), 0)),
    ...forUp(SL.i, i32(0), get(S.n), [
      ...set(SL.d, digit(loadI64(f64At(get(SL.src), get(SL.i))))),
      ...storeI32(count(get(SL.d)), add(loadI32(count(get(SL.d))), i32(1)), 0),
    ]),
    // One digit value for all: nothing moves in this pass.
    ...ifElse(
      eqz(sub(loadI32(count(digit(loadI64(get(SL.src))))), get(S.n))),
      [],
      [
        ...set(SL.at, i32(0)),
        ...forUp(SL.d, i32(0), i32(BUCKETS), [
          ...set(SL.i, loadI32(count(get(SL.d)))),
          ...storeI32(count(get(SL.d)), get(SL.at), 0),
          ...set(SL.at, add(get(SL.at), get(SL.i))),
        ]),
        ...forUp(SL.i, i32(0), get(S.n), [
          ...set(SL.key, loadI64(f64At(get(SL.src), get(SL.i)))),
          ...set(SL.d, digit(get(SL.key))),
          ...set(SL.at, loadI32(count(get(SL.d)))),
          ...storeI32(count(get(SL.d)), add(get(SL.at), i32(1)), 0),
          ...storeI64(f64At(get(SL.dst), get(SL.at)), get(SL.key)),
        ]),
        ...set(SL.swap, get(SL.src)),
        ...set(SL.src, get(SL.dst)),
        ...set(SL.dst, get(SL.swap)),
      ],
    ),
  ]),
  // Keys back to bits, into values (from tmp when the last move left them there).
  ...forUp(SL.i, i32(0), get(S.n), [
    ...set(SL.key, loadI64(f64At(get(SL.src), get(SL.i)))),
    ...storeI64(
      f64At(get(S.values), get(SL.i)),
      flip(get(SL.key), xorI64(get(SL.key), i64(-1))),
    ),
  ]),
];

// squares(values, n, mean) -> sum of (values[i] - mean)^2, i ascending.
const Q = { values: 0, n: 1, mean: 2 };
const QL = { i: 3, ss: 4, d: 5 };
const squaresCode: Code = [
  ...set(QL.ss, f64(0)),
  ...forUp(QL.i, i32(0), get(Q.n), [
    ...set(QL.d, subF64(loadF64(f64At(get(Q.values), get(QL.i))), get(Q.mean))),
    ...set(QL.ss, addF64(get(QL.ss), mulF64(get(QL.d), get(QL.d)))),
  ]),
  ...get(QL.ss),
  RETURN,
];

let compiled: WebAssembly.Module | null | undefined;

/** Summaries of the draws of a (draws x stride) coefficient table copied into WebAssembly memory. */
export interface DrawSummaries {
  /**
   * Gathers the non-NaN draws of column `offset` (entry d * stride + offset), sorts them and
   * returns them (a view, valid until the next call) with their sum in draw order.
   */
  column(offset: number): { readonly sorted: Float64Array; readonly sum: number };
  /** Sum of (sorted[i] - mean)^2 over the last column, i ascending. */
  squares(mean: number): number;
}

/**
 * The same summaries by the scalar loops (the fallback where the runtime has
 * no WebAssembly, and the twin the tests compare it with).
 */
export function scalarDrawSummaries(
  coefficients: Float64Array,
  draws: number,
  stride: number,
): DrawSummaries {
  const column = new Float64Array(draws);
  let sorted = column.subarray(0, 0);
  return {
    column(offset) {
      let used = 0, sum = 0;
      for (let d = 0; d < draws; d++) {
        const v = coefficients[d * stride + offset]!;
        if (Number.isNaN(v)) continue;
        column[used++] = v;
        sum += v;
      }
      sorted = sortFloat64(column.subarray(0, used));
      return { sorted, sum };
    },
    squares(mean) {
      let ss = 0;
      for (let i = 0; i < sorted.length; i++) ss += (sorted[i]! - mean) ** 2;
      return ss;
    },
  };
}

/**
 * Summaries over `coefficients` (draws x stride), or null where the runtime
 * has no WebAssembly (or the table does not fit in 2 GiB).
 */
export function drawSummaries(
  coefficients: Float64Array,
  draws: number,
  stride: number,
): DrawSummaries | null {
  compiled ??= wasmModule([
    {
      name: "column",
      params: i32s(6),
      results: [I32],
      locals: [[2, I32], [2, F64]],
      code: columnCode,
    },
    { name: "sort", params: i32s(4), locals: [[7, I32], [2, I64]], code: sortCode },
    {
      name: "squares",
      params: [I32, I32, F64],
      results: [F64],
      locals: [[1, I32], [2, F64]],
      code: squaresCode,
    },
  ]);
  if (!compiled) return null;
  const coefAt = 0, outAt = coefficients.length * 8, tmpAt = outAt + draws * 8;
  const countsAt = tmpAt + draws * 8, sumAt = countsAt + BUCKETS * 4, end = sumAt + 8;
  if (end > 2 ** 31) return null;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  memory.grow(Math.ceil(end / 65536));
  new Float64Array(memory.buffer, coefAt, coefficients.length).set(coefficients);
  const e = instance.exports as Record<string, (...args: number[]) => number>;
  const sum = new Float64Array(memory.buffer, sumAt, 1);
  let used = 0;
  return {
    column(offset) {
      used = e.column!(coefAt, draws, stride, offset, outAt, sumAt);
      e.sort!(outAt, used, tmpAt, countsAt);
      return { sorted: new Float64Array(memory.buffer, outAt, used), sum: sum[0]! };
    },
    squares(mean) {
      return e.squares!(outAt, used, mean);
    },
  };
}
