/**
 * The row passes of the per-pair tests (lib/fit/product_column.ts) in
 * WebAssembly SIMD: the four lanes of a group (one product column each) as
 * two f64x2 values, read per row from its pattern's entries, which sit side
 * by side. Each lane does exactly the scalar loop's operations in the same
 * order (WebAssembly has no fused multiply-add), so the sums are the same
 * bits; the terms the scalar loop skips (a zero weight or product) are
 * signed zeros here, which leave a sum that started at +0 as it was, the
 * values being finite (the caller's influence terms are, for every lane it
 * keeps).
 *
 * @module
 */

import {
  add,
  type Code,
  f64,
  f64At,
  forUp,
  get,
  I32,
  i32,
  i32At,
  loadF64,
  loadI32,
  loadV128,
  mul,
  set,
  simd,
  splatF64x2,
  storeV128,
  V128,
  vOr,
  wasmModule,
} from "../math/wasm.ts";
import { LEVERAGE_ONE_TOLERANCE } from "./covariance.ts";

const addV = simd(0xf0), subV = simd(0xf1), mulV = simd(0xf2), divV = simd(0xf3);
const ltV = simd(0x49);

/**
 * sums(n, patterns, residuals, ez, out): for rows i < n in order, with p the i32 at
 * patterns + 4 i, r the double at residuals + 8 i and v the four doubles at ez + 32 p:
 * s += v v and d += v r lane by lane; out gets s (4 doubles) then d (4 doubles).
 */
function sumsBody(): Code {
  const [N, PAT, RES, EZ, OUT] = [0, 1, 2, 3, 4];
  const [I, P, R, V01, V23, S01, S23, D01, D23] = [5, 6, 7, 8, 9, 10, 11, 12, 13];
  return [
    ...forUp(I, i32(0), get(N), [
      ...set(P, add(get(EZ), mul(loadI32(i32At(get(PAT), get(I))), i32(32)))),
      ...set(R, splatF64x2(loadF64(f64At(get(RES), get(I))))),
      ...set(V01, loadV128(get(P), 0)),
      ...set(V23, loadV128(get(P), 16)),
      ...set(S01, addV(get(S01), mulV(get(V01), get(V01)))),
      ...set(D01, addV(get(D01), mulV(get(V01), get(R)))),
      ...set(S23, addV(get(S23), mulV(get(V23), get(V23)))),
      ...set(D23, addV(get(D23), mulV(get(V23), get(R)))),
    ]),
    ...storeV128(get(OUT), get(S01), 0),
    ...storeV128(get(OUT), get(S23), 16),
    ...storeV128(get(OUT), get(D01), 32),
    ...storeV128(get(OUT), get(D23), 48),
  ];
}

/**
 * hc3(n, patterns, residuals, leverage, terms, out): for rows i < n in order, with the
 * pattern's 12 doubles at terms + 96 p (fitted, leverage, influence of the four lanes):
 * e = r - fitted, 1 - h = 1 - (h_i + leverage), a flag where 1 - h < LEVERAGE_ONE_TOLERANCE,
 * w = (e e) / ((1 - h)(1 - h)), v += (influence w) influence; out gets v (4 doubles) then the
 * flags (4 lanes of all-ones or zero bits).
 */
function hc3Body(): Code {
  const [N, PAT, RES, LEV, TERMS, OUT] = [0, 1, 2, 3, 4, 5];
  const [I, P, R, H, ONE, TOL, E, OMH, W, INF] = [6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
  const V = [16, 17], FLAG = [18, 19];
  const half = (at: number, v: number, flag: number): Code => [
    ...set(INF, loadV128(get(P), 64 + at)),
    ...set(E, subV(get(R), loadV128(get(P), at))),
    ...set(OMH, subV(get(ONE), addV(get(H), loadV128(get(P), 32 + at)))),
    ...set(flag, vOr(get(flag), ltV(get(OMH), get(TOL)))),
    ...set(W, divV(mulV(get(E), get(E)), mulV(get(OMH), get(OMH)))),
    ...set(v, addV(get(v), mulV(mulV(get(INF), get(W)), get(INF)))),
  ];
  return [
    ...set(ONE, splatF64x2(f64(1))),
    ...set(TOL, splatF64x2(f64(LEVERAGE_ONE_TOLERANCE))),
    ...forUp(I, i32(0), get(N), [
      ...set(P, add(get(TERMS), mul(loadI32(i32At(get(PAT), get(I))), i32(96)))),
      ...set(R, splatF64x2(loadF64(f64At(get(RES), get(I))))),
      ...set(H, splatF64x2(loadF64(f64At(get(LEV), get(I))))),
      ...half(0, V[0]!, FLAG[0]!),
      ...half(16, V[1]!, FLAG[1]!),
    ]),
    ...storeV128(get(OUT), get(V[0]!), 0),
    ...storeV128(get(OUT), get(V[1]!), 16),
    ...storeV128(get(OUT), get(FLAG[0]!), 32),
    ...storeV128(get(OUT), get(FLAG[1]!), 48),
  ];
}

/**
 * residuals(patterns, starts, columns, w, ez): for each pattern p, the four lanes at ez + 32 p
 * (z, written by the caller) minus w's four lanes at w + 32 j for each present column j (the i32
 * at columns + 4 t for t from the i32 at starts + 4 p to the next), in list order.
 */
function residualsBody(): Code {
  const [PATTERNS, STARTS, COLUMNS, W, EZ] = [0, 1, 2, 3, 4];
  const [P, T, END, AT, J, S01, S23] = [5, 6, 7, 8, 9, 10, 11];
  return forUp(P, i32(0), get(PATTERNS), [
    ...set(AT, add(get(EZ), mul(get(P), i32(32)))),
    ...set(S01, loadV128(get(AT), 0)),
    ...set(S23, loadV128(get(AT), 16)),
    ...set(END, loadI32(i32At(get(STARTS), get(P)), 4)),
    ...forUp(T, loadI32(i32At(get(STARTS), get(P))), get(END), [
      ...set(J, add(get(W), mul(loadI32(i32At(get(COLUMNS), get(T))), i32(32)))),
      ...set(S01, subV(get(S01), loadV128(get(J), 0))),
      ...set(S23, subV(get(S23), loadV128(get(J), 16))),
    ]),
    ...storeV128(get(AT), get(S01), 0),
    ...storeV128(get(AT), get(S23), 16),
  ]);
}

/**
 * influence(patterns, ez, terms, scale): with s (four lanes) at scale and gamma (four lanes) at
 * scale + 32, for each pattern p: influence = ez / s, leverage = ez influence and fitted =
 * 0 + ez gamma, written at terms + 96 p as fitted, leverage, influence (four lanes each).
 */
function influenceBody(): Code {
  const [PATTERNS, EZ, TERMS, SCALE] = [0, 1, 2, 3];
  const [P, AT, TO, E, INF, S01, S23, G01, G23, ZERO] = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const half = (at: number, s: number, g: number): Code => [
    ...set(E, loadV128(get(AT), at)),
    ...set(INF, divV(get(E), get(s))),
    ...storeV128(get(TO), get(INF), 64 + at),
    ...storeV128(get(TO), mulV(get(E), get(INF)), 32 + at),
    ...storeV128(get(TO), addV(get(ZERO), mulV(get(E), get(g))), at),
  ];
  return [
    ...set(S01, loadV128(get(SCALE), 0)),
    ...set(S23, loadV128(get(SCALE), 16)),
    ...set(G01, loadV128(get(SCALE), 32)),
    ...set(G23, loadV128(get(SCALE), 48)),
    ...forUp(P, i32(0), get(PATTERNS), [
      ...set(AT, add(get(EZ), mul(get(P), i32(32)))),
      ...set(TO, add(get(TERMS), mul(get(P), i32(96)))),
      ...half(0, S01, G01),
      ...half(16, S23, G23),
    ]),
  ];
}

let compiled: WebAssembly.Module | null | undefined;

/** The two row passes over one instance's memory. */
export interface LanesKernel {
  /** This instance's own memory (the caller lays out its arrays in it). */
  readonly memory: WebAssembly.Memory;
  readonly sums: (n: number, patterns: number, residuals: number, ez: number, out: number) => void;
  readonly hc3: (
    n: number,
    patterns: number,
    residuals: number,
    leverage: number,
    terms: number,
    out: number,
  ) => void;
  readonly residuals: (
    patterns: number,
    starts: number,
    columns: number,
    w: number,
    ez: number,
  ) => void;
  readonly influence: (patterns: number, ez: number, terms: number, scale: number) => void;
}

/**
 * A new instance (its own memory, grown to `bytes`) of the row passes, or
 * null where the runtime has no WebAssembly SIMD.
 */
export function lanesKernel(bytes: number): LanesKernel | null {
  if (compiled === undefined) {
    compiled = wasmModule([
      {
        name: "sums",
        params: [I32, I32, I32, I32, I32],
        locals: [[2, I32], [7, V128]],
        code: sumsBody(),
      },
      {
        name: "hc3",
        params: [I32, I32, I32, I32, I32, I32],
        locals: [[2, I32], [12, V128]],
        code: hc3Body(),
      },
      {
        name: "residuals",
        params: [I32, I32, I32, I32, I32],
        locals: [[5, I32], [2, V128]],
        code: residualsBody(),
      },
      {
        name: "influence",
        params: [I32, I32, I32, I32],
        locals: [[3, I32], [7, V128]],
        code: influenceBody(),
      },
    ]);
  }
  if (!compiled || bytes > 2 ** 31) return null;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
  return {
    memory,
    sums: instance.exports.sums as LanesKernel["sums"],
    hc3: instance.exports.hc3 as LanesKernel["hc3"],
    residuals: instance.exports.residuals as LanesKernel["residuals"],
    influence: instance.exports.influence as LanesKernel["influence"],
  };
}
