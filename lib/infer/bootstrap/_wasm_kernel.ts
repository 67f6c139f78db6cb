/**
 * The bootstrap kernel's block of eight draws in WebAssembly: the task
 * counts (xoshiro128** and `nextInt(G)`'s rejection rule in native 32-bit
 * integers; where rejections are rare, the eight draws side by side in
 * i32x4, each started by jumping the generator G steps ahead, and redrawn
 * one by one from the first that met a rejection; where rejections are
 * common, lane after lane into one byte per task, a quarter of the cache
 * lines of i32 tallies, redrawn in i32 should a count reach 256), the
 * counts packed for X'WX and its sums gathered per pair-list entry or
 * histogram bin (or, where the packed counts outgrow a core's cache, pushed
 * task by task into the entries, so the counts stream once), X'Wy
 * gathered per column over chunks of rows (two draws per 128-bit SIMD
 * instruction), and the unpacking, Cholesky and solves of the eight draws
 * side by side (four f64x2 per entry; a draw with an absent column or a
 * failed pivot is redone alone, as the scalar lane loop). Each gives what
 * the scalar code of bootstrap_kernel.ts and lib/math/packed.ts gives: the same
 * stream calls; per lane count x y rounded once then added to the entry,
 * rows in row order; exact integer sums for X'WX; the same factorisation
 * steps. So the doubles are bit for bit those of the scalar loops;
 * tests/infer_wasm_kernel_test.ts and infer_xtx_hist_test.ts compare them.
 *
 * The module is assembled with lib/math/wasm.ts (no toolchain, no binary
 * file). {@linkcode wasmKernel} returns null where the runtime has no
 * WebAssembly SIMD; the kernel then runs its scalar loops.
 *
 * @module
 */

import {
  add,
  addF64x2,
  BLOCK,
  BR,
  BR_IF,
  call,
  type Code,
  convertU,
  divF64,
  divU,
  END,
  eq,
  eqF64,
  eqz,
  F64,
  f64,
  f64At,
  floorF64,
  forUp,
  get,
  gtF64,
  I32,
  i32,
  I32_EQZ,
  i32At,
  i32s,
  ifElse,
  loadF64,
  loadI32,
  loadU8,
  loadV128,
  LOOP,
  ltU,
  mul,
  mulF64,
  mulF64x2,
  op,
  or,
  remU,
  RETURN,
  rotl,
  set,
  shl,
  SIMD,
  simd,
  splatF64x2,
  sqrtF64,
  storeF64,
  storeI32,
  storeU8,
  storeV128,
  sub,
  subF64,
  uleb,
  V128,
  VOID,
  vOr,
  type WasmFunction,
  wasmModule,
  xor,
} from "../../math/wasm.ts";
import type { ClusterSums } from "./cluster_sums.ts";
import type { XtxHistPlan } from "./_xtx_hist.ts";
import { packedSize, rowOffsets } from "../../math/packed.ts";

/** Draws served by one pass over the rows (the lanes of X'Wy and the counts). */
export const LANES = 8;

// SIMD instructions beyond those of _wasm.ts.
const subF64x2 = simd(0xf1), divF64x2 = simd(0xf3), gtF64x2 = simd(0x4a);
const neF64x2 = simd(0x48), vAnd = simd(0x4e);
const sqrtF64x2 = (a: Code): Code => [...a, SIMD, ...uleb(0xef)];
const ltS = op(0x48);
const splatI = (a: Code): Code => [...a, SIMD, 0x11];
const shuffle = (a: Code, b: Code, lanes: number[]): Code => [...a, ...b, SIMD, 0x0d, ...lanes];
/** f64x2.convert_low_i32x4_u: lanes 0 and 1 of an i32x4, as unsigned, to doubles. */
const convertLowU = (a: Code): Code => [...a, SIMD, ...uleb(0xff)];
/** Bytes 8..15 of a v128 to bytes 0..7 (lanes 2 and 3 of an i32x4 to 0 and 1). */
const HIGH = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];

// X'Wy by column, rows in chunks whose products stay in cache: products(n, m, cluster, y,
// counts, prod) stores a chunk's rows' eight count x y products per metric (prod + (i m +
// mm) 64 for the chunk's row i, the products of the row pass), then xtyGather(k, m, prod,
// start, rows, xty) adds them per column in registers: column j's rows of the chunk,
// ascending, are at rows[start[j] .. start[j + 1]) (byte offsets i m 64), two metrics at a
// time, each entry read from xty before and written after. Chunk after chunk, each entry
// gets the same products added in the same order (row order, from 0) as a pass over the
// rows adding each row's products to its columns would, so the same doubles, with no store
// per row.
const R = { n: 0, m: 1, cluster: 2, y: 3, counts: 4, prod: 5, i: 6, mm: 7, o: 8, yAt: 9 };
const RL = { w: 10, y: 14 };
const productsCode = (): Code => [
  ...set(R.yAt, get(R.y)),
  ...set(R.o, get(R.prod)),
  ...forUp(R.i, i32(0), get(R.n), [
    ...set(R.mm, add(get(R.counts), shl(loadI32(i32At(get(R.cluster), get(R.i))), i32(6)))),
    ...[0, 1, 2, 3].flatMap((h) => set(RL.w + h, loadV128(get(R.mm), 16 * h))),
    ...forUp(R.mm, i32(0), get(R.m), [
      ...set(RL.y, splatF64x2(loadF64(get(R.yAt)))),
      ...[0, 1, 2, 3].flatMap((h) =>
        storeV128(get(R.o), mulF64x2(get(RL.w + h), get(RL.y)), 16 * h)
      ),
      ...set(R.yAt, add(get(R.yAt), i32(8))),
      ...set(R.o, add(get(R.o), i32(64))),
    ]),
  ]),
];
const XG = { k: 0, m: 1, prod: 2, start: 3, rows: 4, xty: 5 };
const XGL = { j: 6, mm: 7, e: 8, end: 9, src: 10, p: 11, a: 12 }; // a: eight v128
const xtyGatherLoop = (metrics: number): Code => {
  const terms = [...Array(4 * metrics).keys()];
  // Entry (mm + u, j) of xty (xty[((mm + u) k + j) 8 + l]) at src + 64 k u.
  const entry = (u: number): Code =>
    u === 0 ? get(XGL.src) : add(get(XGL.src), shl(get(XG.k), i32(6)));
  return [
    ...set(
      XGL.src,
      add(get(XG.xty), shl(add(mul(get(XGL.mm), get(XG.k)), get(XGL.j)), i32(6))),
    ),
    ...terms.flatMap((t) => set(XGL.a + t, loadV128(entry(t >> 2), 16 * (t & 3)))),
    ...set(XGL.e, add(get(XG.rows), shl(loadI32(i32At(get(XG.start), get(XGL.j))), i32(2)))),
    ...set(XGL.end, add(get(XG.rows), shl(loadI32(i32At(get(XG.start), get(XGL.j)), 4), i32(2)))),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...ltS(get(XGL.e), get(XGL.end)), I32_EQZ, BR_IF, 1],
    ...set(XGL.p, add(get(XG.prod), add(loadI32(get(XGL.e)), shl(get(XGL.mm), i32(6))))),
    ...terms.flatMap((t) => set(XGL.a + t, addF64x2(get(XGL.a + t), loadV128(get(XGL.p), 16 * t)))),
    ...set(XGL.e, add(get(XGL.e), i32(4))),
    ...[BR, 0, END, END],
    ...terms.flatMap((t) => storeV128(entry(t >> 2), get(XGL.a + t), 16 * (t & 3))),
  ];
};
const xtyGatherCode = (): Code =>
  forUp(XGL.j, i32(0), get(XG.k), [
    ...set(XGL.mm, i32(0)),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...ltS(get(XGL.mm), sub(get(XG.m), i32(1))), I32_EQZ, BR_IF, 1],
    ...xtyGatherLoop(2),
    ...set(XGL.mm, add(get(XGL.mm), i32(2))),
    ...[BR, 0, END, END],
    ...ifElse(ltS(get(XGL.mm), get(XG.m)), xtyGatherLoop(1)),
  ]);

// xty(n, m, k, chunkRows, cluster, y, counts, prod, start, rows, xty): X'Wy of the current
// counts, xty zeroed and then products and xtyGather chunk after chunk (chunk q's column
// starts at start + 4 k q).
const XA = {
  n: 0,
  m: 1,
  k: 2,
  chunkRows: 3,
  cluster: 4,
  y: 5,
  counts: 6,
  prod: 7,
  start: 8,
  rows: 9,
  xty: 10,
  i: 11,
  q: 12,
  end: 13,
};
const xtyCode = (): Code => [
  // xty[0 .. m k 64 bytes) = 0.
  ...set(XA.end, add(get(XA.xty), shl(mul(get(XA.m), get(XA.k)), i32(6)))),
  ...forUp(XA.i, get(XA.xty), get(XA.end), storeV128(get(XA.i), splatF64x2(f64(0)), 0), 16),
  ...set(XA.q, get(XA.start)),
  ...set(XA.i, i32(0)),
  ...[BLOCK, VOID, LOOP, VOID],
  ...[...ltU(get(XA.i), get(XA.n)), I32_EQZ, BR_IF, 1],
  ...set(XA.end, sub(get(XA.n), get(XA.i))),
  ...call(
    PRODUCTS,
    // min(n - i, chunkRows) by select.
    [...get(XA.end), ...get(XA.chunkRows), ...ltU(get(XA.end), get(XA.chunkRows)), 0x1b],
    get(XA.m),
    i32At(get(XA.cluster), get(XA.i)),
    f64At(get(XA.y), mul(get(XA.m), get(XA.i))),
    get(XA.counts),
    get(XA.prod),
  ),
  ...call(XTY_GATHER, get(XA.k), get(XA.m), get(XA.prod), get(XA.q), get(XA.rows), get(XA.xty)),
  ...set(XA.q, add(get(XA.q), shl(get(XA.k), i32(2)))),
  ...set(XA.i, add(get(XA.i), get(XA.chunkRows))),
  ...[BR, 0, END, END],
];

// Counts: counts(state, g, rem, lanes, count, tally, laneBytes, taskShift) draws `lanes`
// draws into the tallies of lanes 0..lanes-1 (count = 1) or consumes `lanes` draws counting
// nothing (count = 0). Lane l's count of task c is the i32 at tally + l laneBytes + (c <<
// taskShift), zero on entry: one array of G per lane (laneBytes 4 G, taskShift 2) where the
// lanes are drawn one after the other, so at many tasks one lane's increments stay in cache;
// interleaved (laneBytes 4, taskShift 5) where draw8 draws them side by side. flush(counts,
// g, tally, interleaved) then writes the eight lanes' counts as doubles and zeroes the tallies.
const C = {
  state: 0,
  g: 1,
  rem: 2,
  lanes: 3,
  count: 4,
  tally: 5,
  laneBytes: 6,
  taskShift: 7,
};
const CL = { l: 8, t: 9, s0: 10, s1: 11, s2: 12, s3: 13, x: 14, m: 15, tt: 16, at: 17, base: 18 };
/** One xoshiro128** output into x, as FastStream.nextUint32 (as an i32). */
const next: Code = [
  ...set(CL.m, mul(get(CL.s1), i32(5))),
  ...set(CL.x, mul(rotl(get(CL.m), i32(7)), i32(9))),
  ...set(CL.tt, shl(get(CL.s1), i32(9))),
  ...set(CL.s2, xor(get(CL.s2), get(CL.s0))),
  ...set(CL.s3, xor(get(CL.s3), get(CL.s1))),
  ...set(CL.s1, xor(get(CL.s1), get(CL.s2))),
  ...set(CL.s0, xor(get(CL.s0), get(CL.s3))),
  ...set(CL.s2, xor(get(CL.s2), get(CL.tt))),
  ...set(CL.s3, rotl(get(CL.s3), i32(11))),
];
const countsCode = (): Code => [
  ...[0, 1, 2, 3].flatMap((h) => set(CL.s0 + h, loadI32(get(C.state), 4 * h))),
  ...forUp(CL.l, i32(0), get(C.lanes), [
    ...set(CL.base, add(get(C.tally), mul(get(CL.l), get(C.laneBytes)))),
    ...forUp(CL.t, i32(0), get(C.g), [
      // nextInt(G): redraw while x >= 2^32 - rem, i.e. while x + rem wraps past 2^32.
      ...[LOOP, VOID, ...next, ...ltU(add(get(CL.x), get(C.rem)), get(CL.x)), BR_IF, 0, END],
      ...[BLOCK, VOID, ...get(C.count), I32_EQZ, BR_IF, 0],
      ...set(CL.at, add(get(CL.base), shl(remU(get(CL.x), get(C.g)), get(C.taskShift)))),
      ...storeI32(get(CL.at), add(loadI32(get(CL.at)), i32(1)), 0),
      END,
    ]),
  ]),
  ...[0, 1, 2, 3].flatMap((h) => storeI32(get(C.state), get(CL.s0 + h), 4 * h)),
];
// countsU8(state, g, rem, lanes, limit, tally, laneBytes, taskShift) -> whether a count
// reached `limit`: counts (count = 1) with one byte per task and lane (laneBytes G, taskShift
// 0), so at many tasks a lane's increments stay in a quarter of the cache lines. A count of
// 256 would wrap: with limit 256 (or lower, for the tests) the caller then draws the lanes
// again with i32 tallies from the same start, so the counts are exact whatever they are.
const CU = { v: 19, over: 20 };
const countsU8Code = (): Code => [
  ...[0, 1, 2, 3].flatMap((h) => set(CL.s0 + h, loadI32(get(C.state), 4 * h))),
  ...set(CU.over, i32(0)),
  ...forUp(CL.l, i32(0), get(C.lanes), [
    ...set(CL.base, add(get(C.tally), mul(get(CL.l), get(C.laneBytes)))),
    ...forUp(CL.t, i32(0), get(C.g), [
      ...[LOOP, VOID, ...next, ...ltU(add(get(CL.x), get(C.rem)), get(CL.x)), BR_IF, 0, END],
      ...set(CL.at, add(get(CL.base), shl(remU(get(CL.x), get(C.g)), get(C.taskShift)))),
      ...set(CU.v, add(loadU8(get(CL.at)), i32(1))),
      ...storeU8(get(CL.at), get(CU.v)),
      ...set(CU.over, or(get(CU.over), eq(get(CU.v), get(C.count)))),
    ]),
  ]),
  ...[0, 1, 2, 3].flatMap((h) => storeI32(get(C.state), get(CL.s0 + h), 4 * h)),
  ...get(CU.over),
];
// flush(counts, g, tally, layout): counts[c * 8 + l] = lane l's count of task c for every
// lane, tallies zeroed; layout 0: i32 lane-major (counts), 1: i32 interleaved (draw8), 2:
// bytes lane-major (countsU8).
const F = { counts: 0, g: 1, tally: 2, interleaved: 3, t: 4, m: 5, at: 6, v: 7 };
const FLUSH_BYTES = 2;
const flushBytesCode = (): Code =>
  forUp(F.t, i32(0), get(F.g), [
    ...set(F.m, add(get(F.counts), shl(get(F.t), i32(6)))),
    ...[...Array(LANES).keys()].flatMap((l) => [
      ...set(F.at, add(get(F.tally), add(mul(i32(l), get(F.g)), get(F.t)))),
      ...storeF64(add(get(F.m), i32(8 * l)), convertU(loadU8(get(F.at)))),
      ...storeU8(get(F.at), i32(0)),
    ]),
  ]);
// flushPack(counts, g, tally, packed, perDouble, shift): flush of byte tallies (layout 2) that
// also writes the packed counts as pack does (the same exact integers: each a sum of count_u
// shift^u below 2^53), so pack need not read the counts again.
const FP = { counts: 0, g: 1, tally: 2, packed: 3, perDouble: 4, shift: 5 };
const FPL = { t: 6, m: 7, at: 8, dst: 9, c: 10 }; // c: eight f64
const flushPackLoop = (perDouble: number): Code => {
  const c = (l: number) => get(FPL.c + l), s = get(FP.shift);
  const slot = (h: number): Code =>
    perDouble === 4
      ? [
        ...c(4 * h),
        ...s,
        ...c(4 * h + 1),
        ...s,
        ...c(4 * h + 2),
        ...mulF64(s, c(4 * h + 3)),
        0xa0,
        0xa2,
        0xa0,
        0xa2,
        0xa0,
      ]
      : perDouble === 2
      ? [...c(2 * h), ...mulF64(s, c(2 * h + 1)), 0xa0]
      : c(h);
  return forUp(FPL.t, i32(0), get(FP.g), [
    ...set(FPL.m, add(get(FP.counts), shl(get(FPL.t), i32(6)))),
    ...[...Array(LANES).keys()].flatMap((l) => [
      ...set(FPL.at, add(get(FP.tally), add(mul(i32(l), get(FP.g)), get(FPL.t)))),
      ...set(FPL.c + l, convertU(loadU8(get(FPL.at)))),
      ...storeF64(add(get(FPL.m), i32(8 * l)), get(FPL.c + l)),
      ...storeU8(get(FPL.at), i32(0)),
    ]),
    ...set(FPL.dst, add(get(FP.packed), shl(get(FPL.t), i32(6 - Math.log2(perDouble))))),
    ...[...Array(LANES / perDouble).keys()].flatMap((h) =>
      storeF64(add(get(FPL.dst), i32(8 * h)), slot(h))
    ),
  ]);
};
const flushPackCode = (): Code =>
  [4, 2, 1].flatMap((perDouble) =>
    ifElse(eq(get(FP.perDouble), i32(perDouble)), [...flushPackLoop(perDouble), RETURN])
  );
const flushCode = (): Code =>
  ifElse(
    eq(get(F.interleaved), i32(FLUSH_BYTES)),
    flushBytesCode(),
    ifElse(get(F.interleaved), [
      // Task c's eight i32 at tally + 32 c: converted two by two.
      ...forUp(F.t, i32(0), get(F.g), [
        ...set(F.m, add(get(F.counts), shl(get(F.t), i32(6)))),
        ...set(F.at, add(get(F.tally), shl(get(F.t), i32(5)))),
        ...[0, 1].flatMap((h) => [
          ...set(F.v, loadV128(get(F.at), 16 * h)),
          ...storeV128(get(F.m), convertLowU(get(F.v)), 32 * h),
          ...storeV128(get(F.m), convertLowU(shuffle(get(F.v), get(F.v), HIGH)), 32 * h + 16),
          ...storeV128(get(F.at), splatI(i32(0)), 16 * h),
        ]),
      ]),
    ], [
      ...forUp(F.t, i32(0), get(F.g), [
        ...set(F.m, add(get(F.counts), shl(get(F.t), i32(6)))),
        ...[...Array(LANES).keys()].flatMap((l) => [
          ...set(F.at, add(get(F.tally), shl(add(mul(i32(l), get(F.g)), get(F.t)), i32(2)))),
          ...storeF64(add(get(F.m), i32(8 * l)), convertU(loadI32(get(F.at)))),
          ...storeI32(get(F.at), i32(0), 0),
        ]),
      ]),
    ]),
  );

// draw8(state, starts, g, rem, tally, table, magic, sh1, sh2) -> the first lane that met a
// rejection, or 8: the eight draws of a block side by side in two i32x4 of xoshiro states
// (tally 0: consumed, nothing counted).
// Draw l starts where draw l - 1 ends: G outputs later when it rejected none, which is J =
// A^G applied to its start (A, one step of the generator, is linear over GF(2); `table`
// holds J by nibbles: entry (pos, v) is J applied to the state with value v in nibble pos,
// 32 x 16 states). starts[w * 8 + l] (i32) gets word w of draw l's start. Each lane makes G
// outputs and tallies x mod G (remG, exact). A lane whose x met the rejection rule (x + rem
// wraps) is not what nextInt would have done: it and the lanes after it are wrong, and the
// caller redraws them one by one from their start. With none, state gets the last lane's end.
const D = { state: 0, starts: 1, g: 2, rem: 3, tally: 4, table: 5, magic: 6, sh1: 7, sh2: 8 };
const DL = {
  t: 9,
  l: 10,
  word: 11,
  at: 12,
  s: 13, // two groups x four words: 13..20
  x: 21,
  m: 22,
  rej: 23, // 23, 24
  base: 25, // 25, 26
  remV: 27,
  magicV: 28,
  gV: 29,
  acc: 30, // four words: 30..33
  t1: 34,
};
const sv = (group: number, word: number) => DL.s + 4 * group + word;
const I32X4 = {
  splat: 0x11,
  extract: 0x1b,
  replace: 0x1c,
  ltU: 0x3a,
  shl: 0xab,
  shrU: 0xad,
  add: 0xae,
};
const and = op(0x71), shr = op(0x76);
/** The bytes of a v128.const of four i32. */
const bytesOf = (...v: number[]): Code => [...new Uint8Array(Int32Array.from(v).buffer)];
const vOp = (code: number) => (a: Code, b: Code): Code => [...a, ...b, SIMD, ...uleb(code)];
const vAddI = vOp(I32X4.add), vShlI = vOp(I32X4.shl), vShrUI = vOp(I32X4.shrU);
const vLtU = vOp(I32X4.ltU), vXor = vOp(0x51);
const vRotl = (a: Code, r: number): Code => vOr(vShlI(a, i32(r)), vShrUI(a, i32(32 - r)));
const extractI = (a: Code, lane: number): Code => [...a, SIMD, I32X4.extract, lane];
const vSubI = vOp(0xb1), vMulI = vOp(0xb5);
const extMulLowU = vOp(0xde), extMulHighU = vOp(0xdf);
/** The high 32 bits of the four 64-bit products of two i32x4 (as unsigned). */
const HIGH_WORDS = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];
/**
 * x mod G for four unsigned 32-bit x (an i32x4 local): Granlund and Montgomery's unsigned
 * division by an invariant integer (Division by invariant integers using multiplication,
 * 1994, figure 4.1; exact for all 32-bit x and 1 <= G < 2^32): t = the high half of magic x,
 * q = (t + ((x - t) >> sh1)) >> sh2, x - q G; {@linkcode divisionMagic} gives magic, sh1
 * and sh2. `magic`, `g`, `sh1`, `sh2` are locals (i32x4 splats for the first two), t1 scratch.
 */
const remG = (x: number, magic: number, g: number, sh1: number, sh2: number, t1: number): Code => [
  ...set(
    t1,
    shuffle(
      extMulLowU(get(x), get(magic)),
      extMulHighU(get(x), get(magic)),
      HIGH_WORDS,
    ),
  ),
  ...vSubI(
    get(x),
    vMulI(
      vShrUI(vAddI(get(t1), vShrUI(vSubI(get(x), get(t1)), get(sh1))), get(sh2)),
      get(g),
    ),
  ),
];
/** One step of the states of a group, as next. */
const advance = (group: number): Code => {
  const s = (w: number) => sv(group, w);
  return [
    ...set(DL.m, vShlI(get(s(1)), i32(9))),
    ...set(s(2), vXor(get(s(2)), get(s(0)))),
    ...set(s(3), vXor(get(s(3)), get(s(1)))),
    ...set(s(1), vXor(get(s(1)), get(s(2)))),
    ...set(s(0), vXor(get(s(0)), get(s(3)))),
    ...set(s(2), vXor(get(s(2)), get(DL.m))),
    ...set(s(3), vRotl(get(s(3)), 11)),
  ];
};
const stepGroup = (group: number, count: boolean): Code => {
  const s = (w: number) => sv(group, w);
  if (!count) {
    // Outputs checked against the rejection rule only (x itself is not needed past that).
    return [
      ...set(DL.m, vAddI(get(s(1)), vShlI(get(s(1)), i32(2)))),
      ...set(DL.m, vRotl(get(DL.m), 7)),
      ...set(DL.x, vAddI(get(DL.m), vShlI(get(DL.m), i32(3)))),
      ...advance(group),
      ...set(
        DL.rej + group,
        vOr(get(DL.rej + group), vLtU(vAddI(get(DL.x), get(DL.remV)), get(DL.x))),
      ),
    ];
  }
  return [
    // m = s1 * 5, x = rotl(m, 7) * 9, as next (shifts and adds instead of i32x4.mul).
    ...set(DL.m, vAddI(get(s(1)), vShlI(get(s(1)), i32(2)))),
    ...set(DL.m, vRotl(get(DL.m), 7)),
    ...set(DL.x, vAddI(get(DL.m), vShlI(get(DL.m), i32(3)))),
    ...advance(group),
    ...set(
      DL.rej + group,
      vOr(get(DL.rej + group), vLtU(vAddI(get(DL.x), get(DL.remV)), get(DL.x))),
    ),
    // The four tally addresses: base + 4 (x mod G).
    ...set(
      DL.m,
      vAddI(
        get(DL.base + group),
        vShlI(remG(DL.x, DL.magicV, DL.gV, D.sh1, D.sh2, DL.t1), i32(5)),
      ),
    ),
    ...[0, 1, 2, 3].flatMap((j) => [
      ...set(DL.at, extractI(get(DL.m), j)),
      ...storeI32(get(DL.at), add(loadI32(get(DL.at)), i32(1)), 0),
    ]),
  ];
};
// jump(g, out): J = A^G column by column, the states G steps after the 128 unit states,
// eight at a time (the locals of draw8; only the state words): unit state b = 8 p + 4 group
// + j (bit b % 32 of word b / 32) is lane j of the group in pass p; word w of its column is
// stored at out + 128 p + 64 group + 16 w + 4 j.
const J = { g: 0, out: 1 };
const jumpCode = (): Code => [
  ...forUp(DL.l, i32(0), i32(16), [
    ...[0, 1].flatMap((group) =>
      [0, 1, 2, 3].flatMap((w) =>
        set(sv(group, w), [
          // (1 << (8 (p % 4) + 4 group)) x (1, 2, 4, 8) in word p / 4, 0 in the others.
          ...[SIMD, 0x0c, ...bytesOf(1, 2, 4, 8)],
          ...splatI(shl(i32(1), add(shl(and(get(DL.l), i32(3)), i32(3)), i32(4 * group)))),
          SIMD,
          ...uleb(0xb5),
          ...splatI(sub(i32(0), eq(shr(get(DL.l), i32(2)), i32(w)))),
          SIMD,
          0x4e,
        ])
      )
    ),
    ...forUp(DL.t, i32(0), get(J.g), [...advance(0), ...advance(1)]),
    ...[0, 1].flatMap((group) =>
      [0, 1, 2, 3].flatMap((w) =>
        storeV128(add(get(J.out), shl(get(DL.l), i32(7))), get(sv(group, w)), 64 * group + 16 * w)
      )
    ),
  ]),
];

// rem4(at, g, magic, sh1, sh2): the four unsigned i32 at `at` replaced by their remainders
// mod g by remG, for the tests.
const rem4Code = (): Code => [
  ...set(5, loadV128(get(0), 0)),
  ...set(6, splatI(get(2))),
  ...set(7, splatI(get(1))),
  ...storeV128(get(0), remG(5, 6, 7, 3, 4, 8), 0),
];

const startAt = (word: number, lane: Code): Code =>
  add(get(D.starts), add(i32(32 * word), shl(lane, i32(2))));
const draw8Code = (): Code => [
  ...[0, 1, 2, 3].flatMap((w) => storeI32(startAt(w, i32(0)), loadI32(get(D.state), 4 * w), 0)),
  // starts of draws 1..7: J applied to the previous start, nibble by nibble.
  ...forUp(DL.l, i32(1), i32(LANES), [
    ...[0, 1, 2, 3].flatMap((a) => set(DL.acc + a, splatI(i32(0)))),
    ...[0, 1, 2, 3].flatMap((w) => [
      ...set(DL.word, loadI32(startAt(w, sub(get(DL.l), i32(1))))),
      ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((n) => {
        const nibble = [...get(DL.word), ...i32(4 * n), 0x76, ...i32(15), 0x71];
        const entry = add(get(D.table), shl(nibble, i32(4)));
        const v = (w * 8 + n) % 4;
        return set(DL.acc + v, vXor(get(DL.acc + v), loadV128(entry, 256 * (w * 8 + n))));
      }),
    ]),
    ...set(
      DL.acc,
      vXor(vXor(get(DL.acc), get(DL.acc + 1)), vXor(get(DL.acc + 2), get(DL.acc + 3))),
    ),
    ...[0, 1, 2, 3].flatMap((w) => storeI32(startAt(w, get(DL.l)), extractI(get(DL.acc), w), 0)),
  ]),
  ...[0, 1].flatMap((group) =>
    [0, 1, 2, 3].flatMap((w) =>
      set(sv(group, w), loadV128(add(get(D.starts), i32(32 * w)), 16 * group))
    )
  ),
  ...set(DL.remV, splatI(get(D.rem))),
  ...set(DL.magicV, splatI(get(D.magic))),
  ...set(DL.gV, splatI(get(D.g))),
  // Tally bases, interleaved: tally + 4 lane.
  ...set(DL.base, vAddI(splatI(get(D.tally)), [SIMD, 0x0c, ...bytesOf(0, 4, 8, 12)])),
  ...set(DL.base + 1, vAddI(splatI(get(D.tally)), [SIMD, 0x0c, ...bytesOf(16, 20, 24, 28)])),
  ...set(DL.rej, splatI(i32(0))),
  ...set(DL.rej + 1, splatI(i32(0))),
  // tally = 0: the draws consumed, nothing counted (skip).
  ...ifElse(
    get(D.tally),
    forUp(DL.t, i32(0), get(D.g), [...stepGroup(0, true), ...stepGroup(1, true)]),
    forUp(DL.t, i32(0), get(D.g), [...stepGroup(0, false), ...stepGroup(1, false)]),
  ),
  ...[...Array(LANES).keys()].flatMap((l) =>
    ifElse(extractI(get(DL.rej + (l >> 2)), l & 3), [...i32(l), RETURN])
  ),
  ...[0, 1, 2, 3].flatMap((w) => storeI32(get(D.state), extractI(get(sv(1, w)), 3), 4 * w)),
  ...i32(LANES),
];

// pack(counts, g, perDouble, packed, shift): packed[c * slots + h] = the perDouble counts of
// lanes h * perDouble .. as digits base `shift` (slots = 8 / perDouble), as bootstrap_kernel.ts:
// sum of count_u shift^u, every term and partial sum an integer below 2^53, so exact in any
// order; here two lanes' terms per f64x2 (weights (1, s), (s^2, s^3)) and pairs added across.
const P = { counts: 0, g: 1, perDouble: 2, packed: 3, shift: 4 };
const PL = { c: 5, src: 6, dst: 7, w0: 8, w1: 9, a: 10 }; // a: four v128
const LOW_HALVES = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const HIGH_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];
/** (a0 + a1, b0 + b1) of two f64x2. */
const pairSums = (a: Code, b: Code): Code =>
  addF64x2(shuffle(a, b, LOW_HALVES), shuffle(a, b, HIGH_HALVES));
const packLoop = (perDouble: number): Code =>
  forUp(PL.c, i32(0), get(P.g), [
    ...set(PL.src, add(get(P.counts), shl(get(PL.c), i32(6)))),
    ...set(PL.dst, add(get(P.packed), shl(get(PL.c), i32(6 - Math.log2(perDouble))))),
    ...[0, 1, 2, 3].flatMap((v) => set(PL.a + v, loadV128(get(PL.src), 16 * v))),
    ...(perDouble === 4
      ? storeV128(
        get(PL.dst),
        pairSums(
          addF64x2(mulF64x2(get(PL.a), get(PL.w0)), mulF64x2(get(PL.a + 1), get(PL.w1))),
          addF64x2(mulF64x2(get(PL.a + 2), get(PL.w0)), mulF64x2(get(PL.a + 3), get(PL.w1))),
        ),
        0,
      )
      : perDouble === 2
      ? [0, 1].flatMap((h) =>
        storeV128(
          get(PL.dst),
          pairSums(
            mulF64x2(get(PL.a + 2 * h), get(PL.w0)),
            mulF64x2(get(PL.a + 2 * h + 1), get(PL.w0)),
          ),
          16 * h,
        )
      )
      : [0, 1, 2, 3].flatMap((v) => storeV128(get(PL.dst), get(PL.a + v), 16 * v))),
  ]);
const packCode = (): Code => [
  // w0 = (1, shift), w1 = (shift^2, shift^3).
  ...set(PL.w0, [...splatF64x2(f64(1)), ...get(P.shift), SIMD, 0x22, 1]),
  ...set(PL.w1, mulF64x2(get(PL.w0), splatF64x2(mulF64(get(P.shift), get(P.shift))))),
  ...[4, 2, 1].flatMap((perDouble) =>
    ifElse(eq(get(P.perDouble), i32(perDouble)), [...packLoop(perDouble), RETURN])
  ),
];

// gather(p, slots, start, address, value, acc): acc[q * slots + h] = the sum over entry
// q's list e in start[q] .. start[q + 1] of (value ? value[e] : 1) x the packed counts at
// byte address[e] (a task's in packed): X'WX by packed entry, from the pair lists turned around (the
// task lists of each entry), summed in registers with no store per task. Every value is an
// integer below the packing bound, so the sum is exact in any order (four running sums).
const G8 = { p: 0, slots: 1, start: 2, address: 3, value: 4, acc: 5 };
const G8L = { q: 6, e: 7, end: 8, src: 9, vp: 10, w: 11, a: 12 };
const gatherLoop = (vectors: number, weighted: boolean): Code => {
  const bytes = Math.log2(vectors * 16), unroll = 4 / vectors;
  const h = [...Array(vectors).keys()], u = [...Array(unroll).keys()];
  // Entry s of a group: e and vp point at its address and its value (byte pointers).
  const term = (s: number, sum: number): Code => [
    ...set(G8L.src, loadI32(get(G8L.e), 4 * s)),
    ...(weighted ? set(G8L.w, splatF64x2([...get(G8L.vp), 0x2b, 3, ...uleb(8 * s)])) : []),
    ...h.flatMap((v) => {
      const x = loadV128(get(G8L.src), 16 * v);
      return set(
        G8L.a + sum * vectors + v,
        addF64x2(get(G8L.a + sum * vectors + v), weighted ? mulF64x2(get(G8L.w), x) : x),
      );
    }),
  ];
  const step = (count: number): Code => [
    ...set(G8L.e, add(get(G8L.e), i32(4 * count))),
    ...(weighted ? set(G8L.vp, add(get(G8L.vp), i32(8 * count))) : []),
  ];
  return forUp(G8L.q, i32(0), get(G8.p), [
    ...[...Array(4).keys()].flatMap((a) => set(G8L.a + a, splatF64x2(f64(0)))),
    ...set(G8L.end, loadI32(i32At(get(G8.start), get(G8L.q)))),
    ...set(G8L.e, i32At(get(G8.address), get(G8L.end))),
    ...(weighted ? set(G8L.vp, f64At(get(G8.value), get(G8L.end))) : []),
    ...set(
      G8L.end,
      i32At(get(G8.address), loadI32(i32At(get(G8.start), get(G8L.q)), 4)),
    ),
    // Groups of `unroll` entries while they last, then one by one.
    ...set(G8L.end, sub(get(G8L.end), i32(4 * (unroll - 1)))),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...ltS(get(G8L.e), get(G8L.end)), I32_EQZ, BR_IF, 1],
    ...u.flatMap((s) => term(s, s)),
    ...step(unroll),
    ...[BR, 0, END, END],
    ...set(G8L.end, add(get(G8L.end), i32(4 * (unroll - 1)))),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...ltS(get(G8L.e), get(G8L.end)), I32_EQZ, BR_IF, 1],
    ...term(0, 0),
    ...step(1),
    ...[BR, 0, END, END],
    ...set(G8L.src, add(get(G8.acc), shl(get(G8L.q), i32(bytes)))),
    ...h.flatMap((v) =>
      storeV128(
        get(G8L.src),
        u.slice(1).reduce(
          (acc, s) => addF64x2(acc, get(G8L.a + s * vectors + v)),
          get(G8L.a + v),
        ),
        16 * v,
      )
    ),
  ]);
};
const gatherCode = (): Code =>
  [1, 2, 4].flatMap((vectors) =>
    ifElse(eq(get(G8.slots), i32(2 * vectors)), [
      ...ifElse(eqz(get(G8.value)), gatherLoop(vectors, false), gatherLoop(vectors, true)),
      RETURN,
    ])
  );

// push(g, slots, start, index, value, out, packed, entries): the same sums as gather, task
// by task: out (entries x slots doubles) zeroed, then for each task c, in order, its packed
// counts (read once, in order) times (value ? value[e] : 1) added to the entry at byte offset
// index[e] of out for e in start[c] .. start[c + 1] (the task-order lists, not turned around).
// Where the packed counts outgrow the cache, gather reads each task's counts once per entry
// listing it, scattered over all of them; here they stream and only out (the entries, a few
// KiB) is scattered. Every value is an integer below the packing bound: exact in any order.
const PU = { g: 0, slots: 1, start: 2, index: 3, value: 4, out: 5, packed: 6, entries: 7 };
const PUL = { c: 8, e: 9, end: 10, dst: 11, vp: 12, src: 13, w: 14, x: 15 }; // w, x: v128
const pushLoop = (vectors: number, weighted: boolean): Code => {
  const h = [...Array(vectors).keys()], bytes = Math.log2(vectors * 16);
  return [
    ...set(PUL.end, add(get(PU.out), mul(get(PU.entries), shl(get(PU.slots), i32(3))))),
    ...forUp(
      PUL.dst,
      get(PU.out),
      get(PUL.end),
      storeV128(get(PUL.dst), splatF64x2(f64(0)), 0),
      16,
    ),
    ...set(PUL.e, get(PU.index)),
    ...set(PUL.vp, get(PU.value)),
    ...forUp(PUL.c, i32(0), get(PU.g), [
      ...set(PUL.src, add(get(PU.packed), shl(get(PUL.c), i32(bytes)))),
      ...h.flatMap((v) => set(PUL.x + v, loadV128(get(PUL.src), 16 * v))),
      ...set(PUL.end, i32At(get(PU.index), loadI32(i32At(get(PU.start), get(PUL.c)), 4))),
      ...[BLOCK, VOID, LOOP, VOID],
      ...[...ltU(get(PUL.e), get(PUL.end)), I32_EQZ, BR_IF, 1],
      ...set(PUL.dst, add(get(PU.out), loadI32(get(PUL.e)))),
      ...(weighted ? set(PUL.w, splatF64x2(loadF64(get(PUL.vp)))) : []),
      ...h.flatMap((v) =>
        storeV128(
          get(PUL.dst),
          addF64x2(
            loadV128(get(PUL.dst), 16 * v),
            weighted ? mulF64x2(get(PUL.w), get(PUL.x + v)) : get(PUL.x + v),
          ),
          16 * v,
        )
      ),
      ...set(PUL.e, add(get(PUL.e), i32(4))),
      ...(weighted ? set(PUL.vp, add(get(PUL.vp), i32(8))) : []),
      ...[BR, 0, END, END],
    ]),
  ];
};
const pushCode = (): Code =>
  [1, 2, 4].flatMap((vectors) =>
    ifElse(eq(get(PU.slots), i32(2 * vectors)), [
      ...ifElse(eqz(get(PU.value)), pushLoop(vectors, false), pushLoop(vectors, true)),
      RETURN,
    ])
  );

// reduce(hist, slots, hists, start, bits, targetStart, targetIndex, targetMask, acc): X'WX from
// the histogram bins, as reduceHist of _xtx_hist.ts for all slots at once (a bin's slots
// doubles are slots / 2 f64x2): per histogram, in place, the superset sums (bin s += bin s |
// bit where s lacks the bit, bit by bit, s ascending), then each target entry copied to acc
// (acc[index * slots + h] = bin[mask]). Integer sums, exact. (gather writes every bin anew.)
const RH = {
  hist: 0,
  slots: 1,
  hists: 2,
  start: 3,
  bits: 4,
  targetStart: 5,
  targetIndex: 6,
  targetMask: 7,
  acc: 8,
};
const RHL = { t: 9, base: 10, size: 11, bit: 12, s: 13, u: 14, at: 15 };
const reduceLoop = (vectors: number): Code => {
  const h = [...Array(vectors).keys()], bytes = Math.log2(16 * vectors);
  const bin = (s: Code): Code => add(get(RHL.base), shl(s, i32(bytes)));
  return forUp(RHL.t, i32(0), get(RH.hists), [
    ...set(
      RHL.base,
      add(get(RH.hist), shl(loadI32(i32At(get(RH.start), get(RHL.t))), i32(bytes))),
    ),
    ...set(RHL.size, shl(i32(1), loadI32(i32At(get(RH.bits), get(RHL.t))))),
    // Superset sums.
    ...set(RHL.bit, i32(1)),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...ltS(get(RHL.bit), get(RHL.size)), I32_EQZ, BR_IF, 1],
    ...forUp(RHL.s, i32(0), get(RHL.size), [
      ...ifElse(eqz(and(get(RHL.s), get(RHL.bit))), [
        ...set(RHL.at, bin(get(RHL.s))),
        ...set(RHL.u, bin(or(get(RHL.s), get(RHL.bit)))),
        ...h.flatMap((v) =>
          storeV128(
            get(RHL.at),
            addF64x2(loadV128(get(RHL.at), 16 * v), loadV128(get(RHL.u), 16 * v)),
            16 * v,
          )
        ),
      ]),
    ]),
    ...set(RHL.bit, shl(get(RHL.bit), i32(1))),
    ...[BR, 0, END, END],
    // Targets.
    ...forUp(
      RHL.u,
      loadI32(i32At(get(RH.targetStart), get(RHL.t))),
      loadI32(i32At(get(RH.targetStart), get(RHL.t)), 4),
      [
        ...set(RHL.at, bin(loadI32(i32At(get(RH.targetMask), get(RHL.u))))),
        ...set(
          RHL.s,
          add(get(RH.acc), shl(loadI32(i32At(get(RH.targetIndex), get(RHL.u))), i32(bytes))),
        ),
        ...h.flatMap((v) => storeV128(get(RHL.s), loadV128(get(RHL.at), 16 * v), 16 * v)),
      ],
    ),
  ]);
};
const reduceCode = (): Code =>
  [1, 2, 4].flatMap((vectors) =>
    ifElse(eq(get(RH.slots), i32(2 * vectors)), [...reduceLoop(vectors), RETURN])
  );

// chol(work, k, off, absent, tol) -> 1, or 0 when singular: choleskyPacked of lib/math/packed.ts,
// the same operations in the same order (work[off[i] + j] is entry (i, j) of the packed triangle).
const H = { work: 0, k: 1, off: 2, absent: 3, tol: 4 };
const HL = { j: 5, i: 6, l: 7, offJ: 8, offI: 9, offL: 10, dOrig: 11, diag: 12, s: 13, u: 14 };
// work and off are parameters 0 and 2 of both chol and solve.
const offOf = (i: Code): Code => loadI32(i32At(get(H.off), i));
const w = (index: Code): Code => f64At(get(H.work), index);
const cholCode = (): Code => [
  ...forUp(HL.j, i32(0), get(H.k), [
    ...set(HL.offJ, add(offOf(get(HL.j)), get(HL.j))),
    ...set(HL.dOrig, loadF64(w(get(HL.offJ)))),
    ...storeU8(add(get(H.absent), get(HL.j)), i32(0)),
    ...ifElse(eqF64(get(HL.dOrig), f64(0)), [
      ...forUp(HL.i, i32(0), get(HL.j), [
        ...storeF64(w(add(offOf(get(HL.i)), get(HL.j))), f64(0)),
      ]),
      ...storeU8(add(get(H.absent), get(HL.j)), i32(1)),
      ...storeF64(w(get(HL.offJ)), f64(1)),
    ], [
      ...set(HL.diag, get(HL.dOrig)),
      ...forUp(HL.i, i32(0), get(HL.j), [
        ...set(HL.offI, offOf(get(HL.i))),
        ...set(HL.s, loadF64(w(add(get(HL.offI), get(HL.j))))),
        ...forUp(HL.l, i32(0), get(HL.i), [
          ...set(HL.offL, offOf(get(HL.l))),
          ...set(
            HL.s,
            subF64(
              get(HL.s),
              mulF64(
                loadF64(w(add(get(HL.offL), get(HL.i)))),
                loadF64(w(add(get(HL.offL), get(HL.j)))),
              ),
            ),
          ),
        ]),
        ...set(HL.u, divF64(get(HL.s), loadF64(w(add(get(HL.offI), get(HL.i)))))),
        ...storeF64(w(add(get(HL.offI), get(HL.j))), get(HL.u)),
        ...set(HL.diag, subF64(get(HL.diag), mulF64(get(HL.u), get(HL.u)))),
      ]),
      ...ifElse(eqz(gtF64(get(HL.diag), mulF64(get(H.tol), get(HL.dOrig)))), [...i32(0), RETURN]),
      ...storeF64(w(get(HL.offJ)), sqrtF64(get(HL.diag))),
    ]),
  ]),
  ...i32(1),
];

// solve(work, k, off, absent, b): choleskySolvePacked of lib/math/packed.ts on the k values at b.
const V = { work: 0, k: 1, off: 2, absent: 3, b: 4 };
const VL = { i: 5, l: 6, r: 7, offI: 8, s: 9 };
const bAt = (i: Code): Code => f64At(get(V.b), i);
const solveCode = (): Code => [
  // Forward: U' z = b.
  ...forUp(VL.i, i32(0), get(V.k), [
    ...set(
      VL.s,
      ifElse(loadU8(add(get(V.absent), get(VL.i))), f64(0), loadF64(bAt(get(VL.i))), true),
    ),
    ...forUp(VL.l, i32(0), get(VL.i), [
      ...set(
        VL.s,
        subF64(
          get(VL.s),
          mulF64(loadF64(w(add(offOf(get(VL.l)), get(VL.i)))), loadF64(bAt(get(VL.l)))),
        ),
      ),
    ]),
    ...storeF64(bAt(get(VL.i)), divF64(get(VL.s), loadF64(w(add(offOf(get(VL.i)), get(VL.i)))))),
  ]),
  // Backward: U x = z, i = k - 1 down to 0.
  ...forUp(VL.r, i32(0), get(V.k), [
    ...set(VL.i, sub(sub(get(V.k), i32(1)), get(VL.r))),
    ...set(VL.offI, offOf(get(VL.i))),
    ...set(VL.s, loadF64(bAt(get(VL.i)))),
    ...forUp(VL.l, add(get(VL.i), i32(1)), get(V.k), [
      ...set(
        VL.s,
        subF64(
          get(VL.s),
          mulF64(loadF64(w(add(get(VL.offI), get(VL.l)))), loadF64(bAt(get(VL.l)))),
        ),
      ),
    ]),
    ...storeF64(bAt(get(VL.i)), divF64(get(VL.s), loadF64(w(add(get(VL.offI), get(VL.i)))))),
  ]),
  ...forUp(VL.i, i32(0), get(V.k), [
    ...ifElse(loadU8(add(get(V.absent), get(VL.i))), storeF64(bAt(get(VL.i)), f64(NaN))),
  ]),
];

// The eight lanes' Cholesky and solves side by side, four f64x2 per packed entry: lane l of
// entry q at work8[q * 8 + l] (and of right-hand side entry t at b8[t * 8 + l], the layout
// of X'Wy). Each lane does the operations of chol and solve in their order; f64x2 sub, mul,
// div and sqrt round each lane as the scalar instruction does, so each lane's doubles are
// those of the scalar code. A lane with a column absent (a zero diagonal) or a pivot below
// the tolerance leaves that path: ok8 gets 0 in its 64-bit lane, and the caller solves it
// with chol and solve.
const VECS = [0, 1, 2, 3];
// chol8(work8, k, off, ok8, tol): ok8 (four v128) = all ones in the lanes that succeeded.
const H8 = { work: 0, k: 1, off: 2, ok: 3, tol: 4 };
const H8L = {
  j: 5,
  i: 6,
  l: 7,
  offJ: 8,
  offI: 9,
  offL: 10,
  tol: 11,
  s: 12,
  diag: 16,
  dOrig: 20,
  ok: 24,
};
const e8 = (index: Code): Code => add(get(H8.work), shl(index, i32(6)));
const off8 = (i: Code): Code => loadI32(i32At(get(H8.off), i));
const chol8Code = (): Code => [
  ...set(H8L.tol, splatF64x2(get(H8.tol))),
  ...VECS.flatMap((v) => set(H8L.ok + v, [...i32(-1), SIMD, 0x11])),
  ...forUp(H8L.j, i32(0), get(H8.k), [
    ...set(H8L.offJ, e8(add(off8(get(H8L.j)), get(H8L.j)))),
    ...VECS.flatMap((v) => [
      ...set(H8L.dOrig + v, loadV128(get(H8L.offJ), 16 * v)),
      ...set(H8L.diag + v, get(H8L.dOrig + v)),
    ]),
    ...forUp(H8L.i, i32(0), get(H8L.j), [
      ...set(H8L.offI, off8(get(H8L.i))),
      ...VECS.flatMap((v) => set(H8L.s + v, loadV128(e8(add(get(H8L.offI), get(H8L.j))), 16 * v))),
      ...forUp(H8L.l, i32(0), get(H8L.i), [
        ...set(H8L.offL, off8(get(H8L.l))),
        ...VECS.flatMap((v) =>
          set(
            H8L.s + v,
            subF64x2(
              get(H8L.s + v),
              mulF64x2(
                loadV128(e8(add(get(H8L.offL), get(H8L.i))), 16 * v),
                loadV128(e8(add(get(H8L.offL), get(H8L.j))), 16 * v),
              ),
            ),
          )
        ),
      ]),
      ...set(H8L.offL, e8(add(get(H8L.offI), get(H8L.i)))),
      ...set(H8L.offI, e8(add(get(H8L.offI), get(H8L.j)))),
      ...VECS.flatMap((v) => [
        ...set(H8L.s + v, divF64x2(get(H8L.s + v), loadV128(get(H8L.offL), 16 * v))),
        ...storeV128(get(H8L.offI), get(H8L.s + v), 16 * v),
        ...set(H8L.diag + v, subF64x2(get(H8L.diag + v), mulF64x2(get(H8L.s + v), get(H8L.s + v)))),
      ]),
    ]),
    ...VECS.flatMap((v) => [
      ...set(
        H8L.ok + v,
        vAnd(
          get(H8L.ok + v),
          vAnd(
            gtF64x2(get(H8L.diag + v), mulF64x2(get(H8L.tol), get(H8L.dOrig + v))),
            neF64x2(get(H8L.dOrig + v), splatF64x2(f64(0))),
          ),
        ),
      ),
      ...storeV128(get(H8L.offJ), sqrtF64x2(get(H8L.diag + v)), 16 * v),
    ]),
  ]),
  ...VECS.flatMap((v) => storeV128(get(H8.ok), get(H8L.ok + v), 16 * v)),
];

// solve8(work8, k, off, b8): solve of every lane on the k entries at b8 (no absent column).
const V8 = { work: 0, k: 1, off: 2, b: 3 };
const V8L = { i: 4, l: 5, r: 6, offI: 7, at: 8, s: 9 };
const b8 = (i: Code): Code => add(get(V8.b), shl(i, i32(6)));
const solve8Code = (): Code => [
  // Forward: U' z = b.
  ...forUp(V8L.i, i32(0), get(V8.k), [
    ...set(V8L.at, b8(get(V8L.i))),
    ...VECS.flatMap((v) => set(V8L.s + v, loadV128(get(V8L.at), 16 * v))),
    ...forUp(V8L.l, i32(0), get(V8L.i), [
      ...set(V8L.offI, e8(add(off8(get(V8L.l)), get(V8L.i)))),
      ...set(V8L.r, b8(get(V8L.l))),
      ...VECS.flatMap((v) =>
        set(
          V8L.s + v,
          subF64x2(
            get(V8L.s + v),
            mulF64x2(loadV128(get(V8L.offI), 16 * v), loadV128(get(V8L.r), 16 * v)),
          ),
        )
      ),
    ]),
    ...set(V8L.offI, e8(add(off8(get(V8L.i)), get(V8L.i)))),
    ...VECS.flatMap((v) =>
      storeV128(
        get(V8L.at),
        divF64x2(get(V8L.s + v), loadV128(get(V8L.offI), 16 * v)),
        16 * v,
      )
    ),
  ]),
  // Backward: U x = z, i = k - 1 down to 0.
  ...forUp(V8L.r, i32(0), get(V8.k), [
    ...set(V8L.i, sub(sub(get(V8.k), i32(1)), get(V8L.r))),
    ...set(V8L.at, b8(get(V8L.i))),
    ...VECS.flatMap((v) => set(V8L.s + v, loadV128(get(V8L.at), 16 * v))),
    ...forUp(V8L.l, add(get(V8L.i), i32(1)), get(V8.k), [
      ...set(V8L.offI, e8(add(off8(get(V8L.i)), get(V8L.l)))),
      ...VECS.flatMap((v) =>
        set(
          V8L.s + v,
          subF64x2(
            get(V8L.s + v),
            mulF64x2(loadV128(get(V8L.offI), 16 * v), loadV128(b8(get(V8L.l)), 16 * v)),
          ),
        )
      ),
    ]),
    ...set(V8L.offI, e8(add(off8(get(V8L.i)), get(V8L.i)))),
    ...VECS.flatMap((v) =>
      storeV128(
        get(V8L.at),
        divF64x2(get(V8L.s + v), loadV128(get(V8L.offI), 16 * v)),
        16 * v,
      )
    ),
  ]),
];

// solveBlock(acc, slots, perDouble, p, k, m, lanes, xty, off, work, absent, coef, status,
// work8, ok8, shift, tol): X'WX unpacked from acc for all lanes into work8, chol8; a lane it
// left is done alone as the lane loop of bootstrap_kernel.ts (X'WX unpacked again, X'Wy
// copied to coef, chol, m solves, status 0 / 1 (a column absent) / 2 (singular: NaN)); then
// solve8 in place on X'Wy and the other lanes' coefficients copied out with status 0.
const B = {
  acc: 0,
  slots: 1,
  perDouble: 2,
  p: 3,
  k: 4,
  m: 5,
  lanes: 6,
  xty: 7,
  off: 8,
  work: 9,
  absent: 10,
  coef: 11,
  status: 12,
  work8: 13,
  ok8: 14,
  shift: 15,
  tol: 16,
};
const BL = { l: 17, h: 18, u: 19, q: 20, t: 21, mk: 22, out: 23, any: 24, s: 25, hi: 26, inv: 27 };
// The functions called from others, by their place in compile()'s list.
const CHOL = 2, SOLVE = 3, CHOL8 = 5, SOLVE8 = 6, PRODUCTS = 12, XTY_GATHER = 13;
const laneOk = (lane: Code): Code => loadI32(add(get(B.ok8), shl(lane, i32(3))));
const solveBlockCode = (): Code => [
  ...set(BL.mk, mul(get(B.m), get(B.k))),
  ...set(BL.inv, divF64(f64(1), get(B.shift))),
  // work8[q * 8 + h * perDouble + u] = digit u of acc[q * slots + h]: v - floor(v / shift) *
  // shift, v then floor(v / shift) (the scalar unpacking; shift is a power of two, so
  // v / shift is v * (1 / shift) exactly).
  ...forUp(BL.q, i32(0), get(B.p), [
    ...forUp(BL.h, i32(0), get(B.slots), [
      ...set(BL.s, loadF64(f64At(get(B.acc), add(mul(get(BL.q), get(B.slots)), get(BL.h))))),
      ...set(
        BL.out,
        f64At(add(get(B.work8), shl(get(BL.q), i32(6))), mul(get(BL.h), get(B.perDouble))),
      ),
      ...forUp(BL.u, i32(1), get(B.perDouble), [
        ...set(BL.hi, floorF64(mulF64(get(BL.s), get(BL.inv)))),
        ...storeF64(get(BL.out), subF64(get(BL.s), mulF64(get(BL.hi), get(B.shift)))),
        ...set(BL.s, get(BL.hi)),
        ...set(BL.out, add(get(BL.out), i32(8))),
      ]),
      ...storeF64(get(BL.out), get(BL.s)),
    ]),
  ]),
  ...call(CHOL8, get(B.work8), get(B.k), get(B.off), get(B.ok8), get(B.tol)),
  ...forUp(BL.l, i32(0), get(B.lanes), [
    ...ifElse(eqz(laneOk(get(BL.l))), [
      ...set(BL.h, divU(get(BL.l), get(B.perDouble))),
      ...set(BL.u, sub(get(BL.l), mul(get(BL.h), get(B.perDouble)))),
      ...forUp(BL.q, i32(0), get(B.p), [
        ...set(BL.s, loadF64(f64At(get(B.acc), add(mul(get(BL.q), get(B.slots)), get(BL.h))))),
        ...forUp(BL.t, i32(0), get(BL.u), [
          ...set(BL.s, floorF64(divF64(get(BL.s), get(B.shift)))),
        ]),
        ...ifElse(ltU(get(BL.u), sub(get(B.perDouble), i32(1))), [
          ...set(
            BL.s,
            subF64(get(BL.s), mulF64(floorF64(divF64(get(BL.s), get(B.shift))), get(B.shift))),
          ),
        ]),
        ...storeF64(f64At(get(B.work), get(BL.q)), get(BL.s)),
      ]),
      ...set(BL.out, f64At(get(B.coef), mul(get(BL.l), get(BL.mk)))),
      ...forUp(BL.t, i32(0), get(BL.mk), [
        ...storeF64(
          f64At(get(BL.out), get(BL.t)),
          loadF64(f64At(get(B.xty), add(shl(get(BL.t), i32(3)), get(BL.l)))),
        ),
      ]),
      ...ifElse(call(CHOL, get(B.work), get(B.k), get(B.off), get(B.absent), get(B.tol)), [
        ...set(BL.any, i32(0)),
        ...forUp(BL.t, i32(0), get(B.k), [
          ...set(BL.any, or(get(BL.any), loadU8(add(get(B.absent), get(BL.t))))),
        ]),
        ...forUp(BL.t, i32(0), get(B.m), [
          ...call(
            SOLVE,
            get(B.work),
            get(B.k),
            get(B.off),
            get(B.absent),
            f64At(get(BL.out), mul(get(BL.t), get(B.k))),
          ),
        ]),
        ...storeU8(add(get(B.status), get(BL.l)), get(BL.any)),
      ], [
        ...forUp(BL.t, i32(0), get(BL.mk), [...storeF64(f64At(get(BL.out), get(BL.t)), f64(NaN))]),
        ...storeU8(add(get(B.status), get(BL.l)), i32(2)),
      ]),
    ]),
  ]),
  ...forUp(BL.t, i32(0), get(B.m), [
    ...call(
      SOLVE8,
      get(B.work8),
      get(B.k),
      get(B.off),
      add(get(B.xty), shl(mul(get(BL.t), get(B.k)), i32(6))),
    ),
  ]),
  ...forUp(BL.l, i32(0), get(B.lanes), [
    ...ifElse(laneOk(get(BL.l)), [
      ...set(BL.out, f64At(get(B.coef), mul(get(BL.l), get(BL.mk)))),
      ...forUp(BL.t, i32(0), get(BL.mk), [
        ...storeF64(
          f64At(get(BL.out), get(BL.t)),
          loadF64(f64At(get(B.xty), add(shl(get(BL.t), i32(3)), get(BL.l)))),
        ),
      ]),
      ...storeU8(add(get(B.status), get(BL.l)), i32(0)),
    ]),
  ]),
];

let compiled: WebAssembly.Module | null | undefined;

function compile(): WebAssembly.Module | null {
  const functions: WasmFunction[] = [
    { name: "counts", params: i32s(8), locals: [[CL.base + 1 - CL.l, I32]], code: countsCode() },
    {
      name: "pack",
      params: [...i32s(4), F64],
      locals: [[PL.w0 - PL.c, I32], [PL.a + 4 - PL.w0, V128]],
      code: packCode(),
    },
    {
      name: "chol",
      params: [...i32s(4), F64],
      results: [I32],
      locals: [[HL.dOrig - HL.j, I32], [HL.u + 1 - HL.dOrig, F64]],
      code: cholCode(),
    },
    { name: "solve", params: i32s(5), locals: [[VL.s - VL.i, I32], [1, F64]], code: solveCode() },
    {
      name: "solveBlock",
      params: [...i32s(15), F64, F64],
      locals: [[BL.s - BL.l, I32], [3, F64]],
      code: solveBlockCode(),
    },
    {
      name: "chol8",
      params: [...i32s(4), F64],
      locals: [[H8L.tol - H8L.j, I32], [H8L.ok + 4 - H8L.tol, V128]],
      code: chol8Code(),
    },
    {
      name: "solve8",
      params: i32s(4),
      locals: [[V8L.s - V8L.i, I32], [4, V128]],
      code: solve8Code(),
    },
    {
      name: "gather",
      params: i32s(6),
      locals: [[G8L.w - G8L.q, I32], [5, V128]],
      code: gatherCode(),
    },
    {
      name: "flush",
      params: i32s(4),
      locals: [[F.v - F.t, I32], [1, V128]],
      code: flushCode(),
    },
    {
      name: "draw8",
      params: i32s(9),
      results: [I32],
      locals: [[DL.s - DL.t, I32], [DL.t1 + 1 - DL.s, V128]],
      code: draw8Code(),
    },
    {
      name: "jump",
      params: i32s(2),
      locals: [[DL.s - 2, I32], [DL.t1 + 1 - DL.s, V128]],
      code: jumpCode(),
    },
    {
      name: "reduce",
      params: i32s(9),
      locals: [[RHL.at + 1 - RHL.t, I32]],
      code: reduceCode(),
    },
    {
      name: "products",
      params: i32s(6),
      locals: [[RL.w - R.i, I32], [5, V128]],
      code: productsCode(),
    },
    {
      name: "xtyGather",
      params: i32s(6),
      locals: [[XGL.a - XGL.j, I32], [8, V128]],
      code: xtyGatherCode(),
    },
    { name: "rem4", params: i32s(5), locals: [[4, V128]], code: rem4Code() },
    { name: "xty", params: i32s(11), locals: [[3, I32]], code: xtyCode() },
    {
      name: "countsU8",
      params: i32s(8),
      results: [I32],
      locals: [[CU.over + 1 - CL.l, I32]],
      code: countsU8Code(),
    },
    {
      name: "flushPack",
      params: [...i32s(5), F64],
      locals: [[FPL.c - FPL.t, I32], [LANES, F64]],
      code: flushPackCode(),
    },
    {
      name: "push",
      params: i32s(8),
      locals: [[PUL.w - PUL.c, I32], [5, V128]],
      code: pushCode(),
    },
  ];
  const called = {
    chol: CHOL,
    solve: SOLVE,
    chol8: CHOL8,
    solve8: SOLVE8,
    products: PRODUCTS,
    xtyGather: XTY_GATHER,
  };
  for (const [name, at] of Object.entries(called)) {
    if (functions[at]!.name !== name) {
      throw new Error(`_wasm_kernel: ${name} is not function ${at}`);
    }
  }
  return wasmModule(functions);
}

/**
 * The compiled module of the kernel's loops (compiled on first use, once per thread), or
 * null where the runtime has no WebAssembly SIMD. A worker given it by
 * {@linkcode adoptKernelModule} neither assembles nor compiles it again: a module posted to a
 * worker shares its compiled code.
 */
export function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) compiled = compile();
  return compiled;
}

/** Uses `module` (from {@linkcode kernelModule} on another thread) for this thread's kernels. */
export function adoptKernelModule(module: WebAssembly.Module): void {
  compiled = module;
}

/**
 * Granlund and Montgomery's constants for unsigned 32-bit division by g (1 <= g < 2^32):
 * with l = ceil(log2 g), magic = floor(2^32 (2^l - g) / g) + 1 (below 2^32, as an i32),
 * sh1 = min(l, 1), sh2 = max(l - 1, 0).
 */
export function divisionMagic(g: number): [number, number, number] {
  const l = g === 1 ? 0 : 32 - Math.clz32(g - 1);
  const magic = ((1n << 32n) * ((1n << BigInt(l)) - BigInt(g))) / BigInt(g) + 1n;
  return [Number(magic) | 0, Math.min(l, 1), Math.max(l - 1, 0)];
}

/**
 * x mod g for unsigned 32-bit x by the kernel's SIMD remainder, four at a time (for the
 * tests), or null where the runtime has no WebAssembly SIMD.
 */
export function simdRemainders(xs: Uint32Array, g: number): Uint32Array | null {
  const compiled = kernelModule();
  if (compiled === null) return null;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const e = instance.exports as Record<string, (...args: number[]) => number>;
  const out = new Uint32Array(xs.length);
  const four = new Uint32Array(memory.buffer, 0, 4);
  for (let i = 0; i < xs.length; i += 4) {
    four.fill(0).set(xs.subarray(i, i + 4));
    e.rem4!(0, g, ...divisionMagic(g));
    out.set(four.subarray(0, Math.min(4, xs.length - i)), i);
  }
  return out;
}

/** The per-task sums of a kernel problem (the fields of ClusterSums it reads). */
export type KernelSums = Pick<
  ClusterSums,
  | "k"
  | "metricCount"
  | "clusterCount"
  | "pairStart"
  | "pairIndex"
  | "pairValue"
  | "rowCluster"
  | "rowColStart"
  | "rowCol"
  | "rowY"
>;

/** A generator's state (FastStream's fields), advanced in place. */
export interface StreamState {
  s0: number;
  s1: number;
  s2: number;
  s3: number;
}

/**
 * The kernel's loops in WebAssembly over sums copied once into its memory.
 * A block of up to eight draws: `draw`, `pack`, X'WX into `acc` (`scatter`,
 * or the caller's histograms), `xty`, then `solve`.
 */
export interface WasmKernel {
  /** Eight draws' counts, `counts[c * 8 + lane]`. */
  readonly counts: Float64Array;
  /** The counts packed `perDouble` to a double, `packed[c * slots + h]`. */
  readonly packed: Float64Array;
  /** Packed X'WX, `acc[q * slots + h]` for packed entry q. */
  readonly acc: Float64Array;
  /** The block's coefficients, `coefficients[(lane * m + mm) * k + j]`, after `solve`. */
  readonly coefficients: Float64Array;
  /** The block's statuses (0 ok, 1 a column absent, 2 singular), after `solve`. */
  readonly status: Uint8Array;
  /** Draws `lanes` draws into lanes 0..lanes-1 of the counts, the other lanes 0 (FastStream.drawCounts). */
  draw(stream: StreamState, lanes: number): void;
  /** Consumes `draws` draws of the stream (FastStream.skipCounts). */
  skip(stream: StreamState, draws: number): void;
  /**
   * Packs the counts into `packed`, `perDouble` lanes per double in base `shift` (nothing to
   * do when the draw packed them already: `packing` of {@linkcode wasmKernel}).
   */
  pack(perDouble: number, shift: number): void;
  /**
   * X'WX of the packed counts into `acc` from the pair lists (the sums of scatterPacked,
   * exact integers, so equal whatever the order).
   */
  scatter(slots: number): void;
  /**
   * X'WX of the packed counts into `acc` through the histograms: the bins (what
   * accumulateHist of _xtx_hist.ts adds to zeroed bins), then what reduceHist reads from them
   * (exact integers, so equal whatever the order).
   */
  scatterHist(slots: number): void;
  /** X'Wy of the current counts. */
  xty(): void;
  /** Unpacks X'WX per lane, factors it and solves every metric (the kernel's lane loop). */
  solve(lanes: number, perDouble: number, shift: number, tolerance: number): void;
}

/** The X'WX histograms: layout, targets and per-task bin lists. */
export type KernelHistograms = XtxHistPlan;

/** Options of {@linkcode wasmKernel}. */
export interface WasmKernelOptions {
  /** Doubles a task's eight counts are packed into (8 / perDouble). */
  readonly slots: number;
  /** X'WX through these histograms (`scatterHist`); without, from the pair lists. */
  readonly histograms?: KernelHistograms | undefined;
  /** Blocks of eight draws side by side (draw8) whatever the rate of rejections (tests). */
  readonly sideBySide?: boolean;
  /**
   * A byte tally's count that sends its lanes back to i32 tallies (256, a wrap; lower in
   * the tests, so the redraw runs).
   */
  readonly tallyLimit?: number;
  /**
   * X'WX task by task (push) rather than entry by entry (gather); the default where the
   * packed counts outgrow a core's cache (2 MiB). The same sums either way (tests).
   */
  readonly push?: boolean;
  /**
   * The packing `pack` will be called with: the byte tallies' flush then packs the counts
   * as it writes them, and that `pack` returns at once.
   */
  readonly packing?: { readonly perDouble: number; readonly shift: number };
}

/**
 * The WebAssembly loops for these sums, or null when the runtime has no
 * WebAssembly SIMD or the sums do not fit in 2 GiB. X'WX comes from
 * `histograms` when given (`scatterHist`), else from the pair lists
 * (`scatter`); only the one used is copied. `slots` doubles hold a task's
 * eight counts packed (8 / perDouble).
 */
export function wasmKernel(
  sums: KernelSums,
  options: WasmKernelOptions,
): WasmKernel | null {
  const compiled = kernelModule();
  if (compiled === null) return null;
  const { k, metricCount: m, clusterCount: g, rowCluster } = sums;
  const { slots, histograms } = options;
  const n = rowCluster.length, p = packedSize(k), mk = m * k;
  const push = options.push ?? g * slots * 8 > 2 ** 21;
  const lists = pullLists(sums, histograms, push);
  const layout = memoryLayout(sums, slots, lists, histograms);
  if (layout.bytes > 2 ** 31) return null;
  const { at, chunkRows } = layout;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  memory.grow(Math.ceil(layout.bytes / 65536));
  const buffer = memory.buffer;
  copyInputs(buffer, at, sums, { lists, histograms, chunkRows, slots });
  const e = instance.exports as Record<string, (...args: number[]) => number>;
  // The eight draws side by side (draw8) where a block rarely meets a rejection (at most one
  // in 20 blocks, 8 G rem / 2^32 <= 0.05).
  const side = options.sideBySide ?? 8 * g * (0x100000000 % g) <= 0.05 * 2 ** 32;
  if (side) jumpTable(e, buffer, at, g);
  const run = drawRunner(e, buffer, at, g, side, options.tallyLimit ?? 256, options.packing);
  let packedBy: { readonly perDouble: number; readonly shift: number } | undefined;
  // X'WX's entries (or bins) at `out` from the packed counts: the lists as copied.
  const value = lists.unit ? 0 : at.pullValue;
  const sumLists = (slots: number, out: number) =>
    push
      ? e.push!(g, slots, at.pullStart, at.pullAddress, value, out, at.packed, lists.entries)
      : e.gather!(lists.entries, slots, at.pullStart, at.pullAddress, value, out);
  return {
    counts: new Float64Array(buffer, at.counts, g * LANES),
    packed: new Float64Array(buffer, at.packed, g * slots),
    acc: new Float64Array(buffer, at.acc, p * slots),
    coefficients: new Float64Array(buffer, at.coef, LANES * mk),
    status: new Uint8Array(buffer, at.status, LANES),
    draw(stream, lanes) {
      packedBy = run(stream, lanes, 1) ? options.packing : undefined;
    },
    skip(stream, draws) {
      run(stream, draws, 0);
    },
    pack(perDouble, shift) {
      if (packedBy?.perDouble === perDouble && packedBy.shift === shift) return;
      e.pack!(at.counts, g, perDouble, at.packed, shift);
    },
    scatter(slots) {
      sumLists(slots, at.acc);
    },
    scatterHist(slots) {
      const { histStart } = histograms!;
      sumLists(slots, at.hist);
      e.reduce!(
        at.hist,
        slots,
        histStart.length,
        at.histStart,
        at.histBits,
        at.targetStart,
        at.targetIndex,
        at.targetMask,
        at.acc,
      );
    },
    xty() {
      e.xty!(
        n,
        m,
        k,
        chunkRows,
        at.cluster,
        at.y,
        at.counts,
        at.prod,
        at.columnStart,
        at.columnRows,
        at.xty,
      );
    },
    solve(lanes, perDouble, shift, tolerance) {
      e.solveBlock!(
        at.acc,
        LANES / perDouble,
        perDouble,
        p,
        k,
        m,
        lanes,
        at.xty,
        at.off,
        at.work,
        at.absent,
        at.coef,
        at.status,
        at.work8,
        at.ok8,
        shift,
        tolerance,
      );
    },
  };
}

/**
 * The per-task lists X'WX is summed from: entries are packed X'WX entries (pair lists) or
 * histogram bins; values are the pair values or bin multiplicities (unit: all 1).
 */
interface PullLists {
  readonly entries: number;
  readonly start: Int32Array;
  readonly index: Int32Array;
  readonly value: Float64Array | null;
  readonly unit: boolean;
  /** Copied in task order for push, else turned around (per entry) for gather. */
  readonly push: boolean;
}

function pullLists(
  sums: KernelSums,
  histograms: KernelHistograms | undefined,
  push: boolean,
): PullLists {
  const lists = histograms
    ? {
      entries: histograms.bins,
      start: histograms.entryStart,
      index: histograms.entryBin,
      value: histograms.entryCount,
    }
    : {
      entries: packedSize(sums.k),
      start: sums.pairStart,
      index: sums.pairIndex,
      value: sums.pairValue,
    };
  return { ...lists, unit: lists.value === null || lists.value.every((v) => v === 1), push };
}

/** Byte offsets in the kernel's memory (16-aligned), its size, and X'Wy's rows per chunk. */
interface MemoryLayout {
  readonly at: Readonly<Record<keyof ReturnType<typeof regionSizes>, number>>;
  readonly bytes: number;
  readonly chunkRows: number;
}

function regionSizes(
  sums: KernelSums,
  slots: number,
  lists: PullLists,
  histograms: KernelHistograms | undefined,
  chunkRows: number,
) {
  const { k, metricCount: m, clusterCount: g, rowCluster, rowCol } = sums;
  const n = rowCluster.length, p = packedSize(k), mk = m * k;
  const chunks = Math.ceil(n / chunkRows);
  return {
    state: 16,
    xty: mk * LANES * 8,
    counts: g * LANES * 8,
    tally: g * LANES * 4,
    starts: LANES * 16,
    table: 32 * 16 * 16,
    columns: 128 * 16,
    packed: g * slots * 8,
    acc: p * slots * 8,
    coef: LANES * mk * 8,
    work: p * 8,
    y: n * m * 8,
    prod: Math.min(n, chunkRows) * m * LANES * 8,
    columnStart: (chunks * k + 1) * 4,
    columnRows: rowCol.length * 4,
    pullValue: lists.unit ? 0 : lists.index.length * 8,
    hist: (histograms?.bins ?? 0) * slots * 8,
    histStart: (histograms?.histStart.length ?? 0) * 4,
    histBits: (histograms?.histBits.length ?? 0) * 4,
    targetStart: (histograms?.targetStart.length ?? 0) * 4,
    targetIndex: (histograms?.targetIndex.length ?? 0) * 4,
    targetMask: (histograms?.targetMask.length ?? 0) * 4,
    cluster: n * 4,
    pullStart: ((lists.push ? g : lists.entries) + 1) * 4,
    pullAddress: lists.index.length * 4,
    work8: p * LANES * 8,
    ok8: LANES * 8,
    off: k * 4,
    absent: k,
    status: LANES,
  };
}

function memoryLayout(
  sums: KernelSums,
  slots: number,
  lists: PullLists,
  histograms: KernelHistograms | undefined,
): MemoryLayout {
  // X'Wy by column, in chunks of rows whose products take at most 32 KiB.
  const chunkRows = Math.max(1, Math.floor(2 ** 15 / (sums.metricCount * LANES * 8)));
  const sizes = regionSizes(sums, slots, lists, histograms, chunkRows);
  const at = {} as Record<keyof typeof sizes, number>;
  let end = 0;
  for (const [key, size] of Object.entries(sizes)) {
    at[key as keyof typeof sizes] = end;
    end += Math.ceil(size / 16) * 16;
  }
  return { at, bytes: end, chunkRows };
}

/** Copies the sums the loops read into the kernel's memory, in the loops' layouts. */
function copyInputs(
  buffer: ArrayBufferLike,
  at: MemoryLayout["at"],
  sums: KernelSums,
  layout: {
    readonly lists: PullLists;
    readonly histograms: KernelHistograms | undefined;
    readonly chunkRows: number;
    readonly slots: number;
  },
): void {
  const { k, metricCount: m, clusterCount: g, rowCluster, rowColStart, rowCol, rowY } = sums;
  const { lists, histograms, chunkRows, slots } = layout;
  const n = rowCluster.length;
  new Float64Array(buffer, at.y, n * m).set(rowY);
  if (lists.push) {
    // The task-order lists, entries as byte offsets of their slots in the sums.
    new Int32Array(buffer, at.pullStart, g + 1).set(lists.start);
    const address = new Int32Array(buffer, at.pullAddress, lists.index.length);
    for (let e = 0; e < address.length; e++) address[e] = lists.index[e]! * slots * 8;
    if (!lists.unit) new Float64Array(buffer, at.pullValue, lists.index.length).set(lists.value!);
  } else {
    // The lists turned around: for each entry (packed X'WX entry or bin), the tasks listing
    // it (as byte addresses of their packed counts) and the values, by a counting sort.
    const { entries, index, unit } = lists;
    const start = new Int32Array(buffer, at.pullStart, entries + 1);
    for (const q of index) start[q + 1]!++;
    for (let q = 0; q < entries; q++) start[q + 1]! += start[q]!;
    const address = new Int32Array(buffer, at.pullAddress, index.length);
    const value = new Float64Array(buffer, at.pullValue, unit ? 0 : index.length);
    const fill = start.slice(0, entries);
    for (let c = 0; c < g; c++) {
      for (let e = lists.start[c]!, end = lists.start[c + 1]!; e < end; e++) {
        const to = fill[index[e]!]!++;
        address[to] = at.packed + c * slots * 8;
        if (!unit) value[to] = lists.value![e]!;
      }
    }
  }
  new Int32Array(buffer, at.cluster, n).set(rowCluster);
  {
    // Chunk q's column j's rows, ascending, at rows[start[q k + j] .. start[q k + j + 1])
    // (a counting sort of the row lists by chunk and column), as byte offsets in the chunk.
    const chunks = Math.ceil(n / chunkRows);
    const start = new Int32Array(buffer, at.columnStart, chunks * k + 1);
    for (let i = 0; i < n; i++) {
      const q = Math.floor(i / chunkRows) * k;
      for (let a = rowColStart[i]!, end = rowColStart[i + 1]!; a < end; a++) {
        start[q + rowCol[a]! + 1]!++;
      }
    }
    for (let u = 0; u < chunks * k; u++) start[u + 1]! += start[u]!;
    const rows = new Int32Array(buffer, at.columnRows, rowCol.length);
    const fill = start.slice(0, chunks * k);
    for (let i = 0; i < n; i++) {
      const q = Math.floor(i / chunkRows), offset = (i - q * chunkRows) * m * LANES * 8;
      for (let a = rowColStart[i]!, end = rowColStart[i + 1]!; a < end; a++) {
        rows[fill[q * k + rowCol[a]!]!++] = offset;
      }
    }
  }
  if (histograms) {
    for (
      const key of ["histStart", "histBits", "targetStart", "targetIndex", "targetMask"] as const
    ) {
      new Int32Array(buffer, at[key], histograms[key].length).set(histograms[key]);
    }
  }
  // off[i] such that packed entry (i, j) is at off[i] + j.
  new Int32Array(buffer, at.off, k).set(rowOffsets(k));
}

/** J = A^G by nibbles for draw8: entry (pos, v) is the XOR of the columns of the bits set in v. */
function jumpTable(
  e: Record<string, (...args: number[]) => number>,
  buffer: ArrayBufferLike,
  at: MemoryLayout["at"],
  g: number,
): void {
  e.jump!(g, at.columns);
  const columns = new Int32Array(buffer, at.columns, 128 * 4);
  const table = new Int32Array(buffer, at.table, 32 * 16 * 4);
  for (let pos = 0; pos < 32; pos++) {
    for (let v = 1; v < 16; v++) {
      const low = 31 - Math.clz32(v & -v), b = 4 * pos + low;
      const from = (pos * 16 + (v & (v - 1))) * 4, to = (pos * 16 + v) * 4;
      // Column b: pass b >> 3, group (b >> 2) & 1, lane b & 3, word w.
      const col = (b >> 3) * 32 + ((b >> 2) & 1) * 16 + (b & 3);
      for (let w = 0; w < 4; w++) table[to + w] = table[from + w]! ^ columns[col + 4 * w]!;
    }
  }
}

/**
 * `run(stream, draws, count)`: draws `draws` lanes into the counts (count 1) or consumes
 * them (count 0), advancing `stream`. Side by side (draw8) where rejections are rare; else
 * lane after lane into byte tallies (countsU8; back to i32 tallies for a block whose count
 * reaches `tallyLimit`, from the same start). Returns whether it also packed the counts
 * (`packing`, byte tallies only).
 */
function drawRunner(
  e: Record<string, (...args: number[]) => number>,
  buffer: ArrayBufferLike,
  at: MemoryLayout["at"],
  g: number,
  side: boolean,
  tallyLimit: number,
  packing: { readonly perDouble: number; readonly shift: number } | undefined,
): (stream: StreamState, draws: number, count: number) => boolean {
  const magic = divisionMagic(g);
  // 2^32 mod G, as the rejection rule of nextInt(G) needs it.
  const rem = (0x100000000 % g) | 0;
  const state = new Int32Array(buffer, at.state, 4);
  const tally = new Int32Array(buffer, at.tally, g * LANES);
  const tallyBytes = new Uint8Array(buffer, at.tally, g * LANES);
  const starts = new Int32Array(buffer, at.starts, LANES * 4);
  const from = new Int32Array(4);
  return (stream, draws, count) => {
    state[0] = stream.s0, state[1] = stream.s1, state[2] = stream.s2, state[3] = stream.s3;
    let flush = side ? 1 : FLUSH_BYTES;
    if (!count && side) {
      // Skipped draws eight at a time side by side; from a rejection on, one by one.
      for (; draws >= LANES; draws -= LANES) {
        const wrong = e.draw8!(at.state, at.starts, g, rem, 0, at.table, ...magic);
        if (wrong < LANES) {
          for (let w = 0; w < 4; w++) state[w] = starts[w * 8 + wrong]!;
          e.counts!(at.state, g, rem, LANES - wrong, 0, at.tally, 4, 5);
        }
      }
      e.counts!(at.state, g, rem, draws, 0, at.tally, 4, 5);
    } else if (count && side && draws === LANES) {
      const wrong = e.draw8!(at.state, at.starts, g, rem, at.tally, at.table, ...magic);
      if (wrong < LANES) {
        // Draws wrong.. again one by one from the start of draw `wrong`.
        for (let c = 0; c < g; c++) tally.fill(0, c * LANES + wrong, c * LANES + LANES);
        for (let w = 0; w < 4; w++) state[w] = starts[w * 8 + wrong]!;
        e.counts!(at.state, g, rem, LANES - wrong, 1, at.tally + wrong * 4, 4, 5);
      }
    } else if (side) e.counts!(at.state, g, rem, draws, count, at.tally, 4, 5);
    else if (!count) {
      // A few draws a call, not all in one: V8 replaces a WebAssembly function's baseline code
      // with its optimised code only between calls, and a worker's replay is its first call.
      for (let d = 0; d < draws; d += LANES) {
        e.counts!(at.state, g, rem, Math.min(LANES, draws - d), 0, at.tally, 4 * g, 2);
      }
    } else {
      from.set(state);
      if (e.countsU8!(at.state, g, rem, draws, tallyLimit, at.tally, g, 0)) {
        // A count reached the limit of a byte: the same lanes again, in i32 tallies.
        tallyBytes.fill(0);
        state.set(from);
        e.counts!(at.state, g, rem, draws, 1, at.tally, 4 * g, 2);
        flush = 0;
      }
    }
    const pack = count === 1 && flush === FLUSH_BYTES && packing !== undefined;
    if (pack) {
      e.flushPack!(at.counts, g, at.tally, at.packed, packing.perDouble, packing.shift);
    } else if (count) e.flush!(at.counts, g, at.tally, flush);
    stream.s0 = state[0]!, stream.s1 = state[1]!, stream.s2 = state[2]!, stream.s3 = state[3]!;
    return pack;
  };
}
