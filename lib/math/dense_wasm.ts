/**
 * The inner loop of the dense kernels of lib/math/dense.ts in WebAssembly
 * SIMD: four 2-lane sums updated together,
 *
 *     acc_i = acc_i + v_j * w_ij   (or acc_i - v_j * w_ij),  j = 0 .. count - 1,
 *
 * with v_j a pair of doubles (one per lane, 16 bytes apart per j) and w_ij
 * one double per sum (8 bytes apart per j) read into both lanes. Each lane is
 * one entry's own chain of adds: the product v_j w_ij rounded once, then
 * added to the entry, j ascending, exactly as the scalar loops do
 * (WebAssembly has no fused multiply-add), so the results are the same bits.
 *
 * The module is assembled below from a few opcodes (no toolchain, no binary
 * file). {@linkcode denseWasm} is null where the runtime has no WebAssembly
 * SIMD; the kernels then run their scalar loops.
 *
 * @module
 */

import {
  BLOCK,
  BR,
  BR_IF,
  type Code,
  END,
  F64,
  F64_CONST,
  I32,
  I32_CONST,
  I32_EQZ,
  IF,
  LOCAL_GET,
  LOCAL_SET,
  LOOP,
  SIMD,
  uleb,
  V128,
  VOID,
  wasmModule,
} from "./wasm.ts";

const I32_ADD = 0x6a, I32_SUB = 0x6b, I32_LT_U = 0x49, I32_LOAD = 0x28, I32_GE_U = 0x4f;
const V128_LOAD = [SIMD, 0x00], LOAD64_SPLAT = [SIMD, 0x0a], V128_STORE = [SIMD, 0x0b];
const F64X2_ADD = [SIMD, 0xf0, 0x01], F64X2_SUB = [SIMD, 0xf1, 0x01];
const F64X2_MUL = [SIMD, 0xf2, 0x01], F64X2_ABS = [SIMD, 0xec, 0x01], F64X2_SPLAT = [SIMD, 0x14];

// Parameters (all i32 byte addresses or counts) and locals of the loop.
const P_V = 0, P_W = [1, 2, 3, 4], P_COUNT = 5, P_ACC = 6;
const L_ACC = [7, 8, 9, 10], L_V = 11;

/** The body of acc4(v, w0, w1, w2, w3, count, acc) with `combine` f64x2.add or f64x2.sub. */
function loopBody(combine: Code): Code {
  const get = (i: number): Code => [LOCAL_GET, i];
  const set = (i: number): Code => [LOCAL_SET, i];
  const bump = (i: number, by: number): Code => [...get(i), I32_CONST, by, I32_ADD, ...set(i)];
  const code: Code = [];
  L_ACC.forEach((acc, i) =>
    code.push(...get(P_ACC), ...V128_LOAD, 4, ...uleb(16 * i), ...set(acc))
  );
  // One step j at byte offsets `at` past the stream pointers.
  const step = (at: number): Code => {
    const out: Code = [...get(P_V), ...V128_LOAD, 4, ...uleb(2 * at), ...set(L_V)];
    L_ACC.forEach((acc, i) => {
      out.push(...get(acc), ...get(L_V), ...get(P_W[i]!), ...LOAD64_SPLAT, 3, ...uleb(at));
      out.push(...F64X2_MUL, ...combine, ...set(acc));
    });
    return out;
  };
  // Two steps per turn while two are left, then the last one: j stays ascending.
  code.push(BLOCK, VOID, LOOP, VOID);
  code.push(...get(P_COUNT), I32_CONST, 2, I32_LT_U, BR_IF, 1);
  code.push(...step(0), ...step(8));
  code.push(...bump(P_V, 32));
  for (const w of P_W) code.push(...bump(w, 16));
  code.push(...get(P_COUNT), I32_CONST, 2, I32_SUB, ...set(P_COUNT));
  code.push(BR, 0, END, END);
  code.push(...get(P_COUNT), IF, VOID, ...step(0), END);
  L_ACC.forEach((acc, i) =>
    code.push(...get(P_ACC), ...get(acc), ...V128_STORE, 4, ...uleb(16 * i))
  );
  return code;
}

/**
 * The body of cancel(rows, end, pairs, w, zi, entry, terms): for each lane pair t (16 bytes
 * apart), px = the sum over the row offsets rows[0 .. end) (bytes) of the pair at that offset
 * plus t, in list order from 0; then entry += (w ez) ez and terms += (w mag) mag with
 * ez = zi - px and mag = zi + |px|, lane by lane.
 */
function cancelBody(): Code {
  const [rows, end, pairs, w, zi, entry, terms] = [0, 1, 2, 3, 4, 5, 6];
  const [tp, c, acc, z, ez, wv, mag] = [7, 8, 9, 10, 11, 12, 13];
  const get = (i: number): Code => [LOCAL_GET, i];
  const set = (i: number): Code => [LOCAL_SET, i];
  const at = (base: number): Code => [...get(base), ...get(tp), I32_ADD];
  const load = (address: Code): Code => [...address, ...V128_LOAD, 4, 0];
  const accumulate = (into: number, v: number): Code => [
    ...at(into),
    ...load(at(into)),
    ...get(wv),
    ...get(v),
    ...F64X2_MUL,
    ...get(v),
    ...F64X2_MUL,
    ...F64X2_ADD,
    ...V128_STORE,
    4,
    0,
  ];
  return [
    ...get(w),
    ...F64X2_SPLAT,
    ...set(wv),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(pairs),
    I32_EQZ,
    BR_IF,
    1,
    F64_CONST,
    ...new Uint8Array(Float64Array.of(0).buffer),
    ...F64X2_SPLAT,
    ...set(acc),
    I32_CONST,
    0,
    ...set(c),
    BLOCK,
    VOID,
    LOOP,
    VOID,
    ...get(c),
    ...get(end),
    I32_GE_U,
    BR_IF,
    1,
    ...get(acc),
    ...get(rows),
    ...get(c),
    I32_ADD,
    I32_LOAD,
    2,
    0,
    ...get(tp),
    I32_ADD,
    ...V128_LOAD,
    4,
    0,
    ...F64X2_ADD,
    ...set(acc),
    ...get(c),
    I32_CONST,
    4,
    I32_ADD,
    ...set(c),
    BR,
    0,
    END,
    END,
    ...load(at(zi)),
    ...set(z),
    ...get(z),
    ...get(acc),
    ...F64X2_SUB,
    ...set(ez),
    ...get(z),
    ...get(acc),
    ...F64X2_ABS,
    ...F64X2_ADD,
    ...set(mag),
    ...accumulate(entry, ez),
    ...accumulate(terms, mag),
    ...get(tp),
    I32_CONST,
    16,
    I32_ADD,
    ...set(tp),
    ...get(pairs),
    I32_CONST,
    1,
    I32_SUB,
    ...set(pairs),
    BR,
    0,
    END,
    END,
  ];
}

function compile(): WebAssembly.Module | null {
  const acc4 = { params: Array<number>(7).fill(I32), locals: [[L_ACC.length + 1, V128]] as const };
  return wasmModule([
    { name: "add4", ...acc4, code: loopBody(F64X2_ADD) },
    { name: "sub4", ...acc4, code: loopBody(F64X2_SUB) },
    {
      name: "cancel",
      params: [I32, I32, I32, F64, I32, I32, I32],
      locals: [[2, I32], [5, V128]],
      code: cancelBody(),
    },
  ]);
}

/** The loop's two forms over one growable memory. */
export interface DenseWasm {
  /** acc_i += v_j w_ij over j (addresses in bytes; acc holds four lane pairs, 64 bytes). */
  readonly add4: (
    v: number,
    w0: number,
    w1: number,
    w2: number,
    w3: number,
    count: number,
    acc: number,
  ) => void;
  /** acc_i -= v_j w_ij over j. */
  readonly sub4: DenseWasm["add4"];
  /**
   * For each of `pairs` lane pairs t: px = the sum of the pairs at byte offset t past each
   * address in the i32 list rows[0 .. end), then entry += (w ez) ez and terms += (w mag) mag
   * with ez = zi - px, mag = zi + |px| (all addresses in bytes).
   */
  readonly cancel: (
    rows: number,
    end: number,
    pairs: number,
    w: number,
    zi: number,
    entry: number,
    terms: number,
  ) => void;
  /** Float64Array over the first `doubles` doubles of the memory, grown when needed. */
  view(doubles: number): Float64Array;
}

let compiled: WebAssembly.Module | null | undefined;
let shared: DenseWasm | null | undefined;

/**
 * The loops, or null when the runtime has no WebAssembly SIMD. One instance
 * serves every call (the kernels lay out their arrays from address 0 and
 * copy their results out before returning).
 */
export function denseWasm(): DenseWasm | null {
  if (shared !== undefined) return shared;
  compiled = compile();
  if (!compiled) return (shared = null);
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  shared = {
    add4: instance.exports.add4 as DenseWasm["add4"],
    sub4: instance.exports.sub4 as DenseWasm["add4"],
    cancel: instance.exports.cancel as DenseWasm["cancel"],
    view(doubles: number): Float64Array {
      const bytes = doubles * 8;
      if (bytes > 2 ** 31) throw new RangeError(`Cannot hold ${doubles} doubles in the kernel`);
      const have = memory.buffer.byteLength;
      if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
      return new Float64Array(memory.buffer, 0, doubles);
    },
  };
  return shared;
}
