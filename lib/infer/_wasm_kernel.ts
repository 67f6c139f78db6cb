/**
 * The bootstrap kernel's two hot loops in WebAssembly: the task counts of
 * a draw (xoshiro128** and `nextInt(G)`'s rejection rule in native 32-bit
 * integers) and X'Wy of eight draws (two draws per 128-bit SIMD
 * instruction). Both do exactly what the scalar code does, in the same
 * order: the same stream calls, and per lane count x y rounded once then
 * added to the entry, rows in row order. So the doubles are bit for bit
 * those of the scalar loops; tests/infer_wasm_kernel_test.ts compares them.
 *
 * The module is assembled below from a few dozen opcodes (no toolchain, no
 * binary file). {@linkcode wasmKernel} returns null where the runtime has
 * no WebAssembly SIMD; the kernel then runs its scalar loops.
 *
 * @module
 */

/** Draws served per pass (the kernel's LANES). */
const LANES = 8;

type Code = number[];

// Opcodes (WebAssembly 2.0 with fixed-width SIMD).
const I32 = 0x7f, V128 = 0x7b, VOID = 0x40;
const BLOCK = 0x02, LOOP = 0x03, BR = 0x0c, BR_IF = 0x0d, END = 0x0b;
const LOCAL_GET = 0x20, LOCAL_SET = 0x21;
const I32_CONST = 0x41, F64_CONST = 0x44, I32_EQZ = 0x45;
const SIMD = 0xfd;

function uleb(v: number): Code {
  const out: Code = [];
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(v: number): Code {
  const out: Code = [];
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

// Expressions: each returns the code that leaves its value on the stack.
const get = (local: number): Code => [LOCAL_GET, local];
const set = (local: number, value: Code): Code => [...value, LOCAL_SET, local];
const i32 = (v: number): Code => [I32_CONST, ...sleb(v)];
const f64 = (v: number): Code => [F64_CONST, ...new Uint8Array(Float64Array.of(v).buffer)];
const op = (code: number) => (a: Code, b: Code): Code => [...a, ...b, code];
const add = op(0x6a), mul = op(0x6c), remU = op(0x70), xor = op(0x73), shl = op(0x74);
const rotl = op(0x77), ltU = op(0x49), geU = op(0x4f), addF64 = op(0xa0);
const simd = (code: number) => (a: Code, b: Code): Code => [...a, ...b, SIMD, ...uleb(code)];
const addF64x2 = simd(0xf0), mulF64x2 = simd(0xf2);
const splatF64x2 = (a: Code): Code => [...a, SIMD, 0x14];
const loadI32 = (at: Code, offset = 0): Code => [...at, 0x28, 2, ...uleb(offset)];
const loadF64 = (at: Code): Code => [...at, 0x2b, 3, 0];
const loadV128 = (at: Code, offset: number): Code => [...at, SIMD, 0x00, 4, ...uleb(offset)];
const storeI32 = (at: Code, v: Code, offset: number): Code => [...at, ...v, 0x36, 2, offset];
const storeF64 = (at: Code, v: Code): Code => [...at, ...v, 0x39, 3, 0];
const storeV128 = (at: Code, v: Code, offset: number): Code => [
  ...at,
  ...v,
  SIMD,
  0x0b,
  4,
  ...uleb(offset),
];
const inc = (local: number): Code => set(local, add(get(local), i32(1)));
/** while (local < end) { body; } with local counting up from `from`. */
const forUp = (local: number, from: Code, end: Code, body: Code): Code => [
  ...set(local, from),
  ...[BLOCK, VOID, LOOP, VOID],
  ...geU(get(local), end),
  ...[BR_IF, 1],
  ...body,
  ...inc(local),
  ...[BR, 0, END, END],
];

/** A function of `params` i32 parameters; `locals` are (count, type) groups after them. */
function func(params: number, locals: [number, number][], code: Code) {
  return { params, locals, code };
}

// X'Wy: xty(n, m, k, cluster, colStart, col, y, counts, xty); locals after the parameters.
const X = { n: 0, m: 1, k: 2, cluster: 3, colStart: 4, col: 5, y: 6, counts: 7, xty: 8 };
const XL = { i: 9, o: 10, a: 11, mm: 12, base: 13, at: 14, yAt: 15, e1: 16, w: 17, y: 21, p: 22 };
const xtyCode: Code = [
  ...forUp(XL.i, i32(0), get(X.n), [
    // The row's task's eight counts as four f64x2 (a task's counts are 64 bytes).
    ...set(
      XL.o,
      add(get(X.counts), shl(loadI32(add(get(X.cluster), shl(get(XL.i), i32(2)))), i32(6))),
    ),
    ...[0, 1, 2, 3].flatMap((h) => set(XL.w + h, loadV128(get(XL.o), 16 * h))),
    ...set(XL.at, add(get(X.colStart), shl(get(XL.i), i32(2)))),
    ...set(XL.e1, loadI32(get(XL.at), 4)),
    ...set(XL.yAt, add(get(X.y), shl(mul(get(XL.i), get(X.m)), i32(3)))),
    ...set(XL.base, get(X.xty)),
    ...forUp(XL.mm, i32(0), get(X.m), [
      ...set(XL.y, splatF64x2(loadF64(get(XL.yAt)))),
      ...[0, 1, 2, 3].flatMap((h) => set(XL.p + h, mulF64x2(get(XL.w + h), get(XL.y)))),
      // For the row's columns c: xty[mm, c, 0..8) += the eight products.
      ...forUp(XL.a, loadI32(get(XL.at)), get(XL.e1), [
        ...set(
          XL.o,
          add(get(XL.base), shl(loadI32(add(get(X.col), shl(get(XL.a), i32(2)))), i32(6))),
        ),
        ...[0, 1, 2, 3].flatMap((h) =>
          storeV128(get(XL.o), addF64x2(loadV128(get(XL.o), 16 * h), get(XL.p + h)), 16 * h)
        ),
      ]),
      ...set(XL.yAt, add(get(XL.yAt), i32(8))),
      ...set(XL.base, add(get(XL.base), shl(get(X.k), i32(6)))),
    ]),
  ]),
];

// Counts: counts(state, counts, g, rem, lanes, count) draws `lanes` draws into lanes
// 0..lanes-1 (count = 1) or consumes `lanes` draws counting nothing (count = 0).
const C = { state: 0, counts: 1, g: 2, rem: 3, lanes: 4, count: 5 };
const CL = { l: 6, t: 7, s0: 8, s1: 9, s2: 10, s3: 11, x: 12, m: 13, tt: 14, at: 15 };
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
const countsCode: Code = [
  ...[0, 1, 2, 3].flatMap((h) => set(CL.s0 + h, loadI32(get(C.state), 4 * h))),
  ...forUp(CL.l, i32(0), get(C.lanes), [
    ...forUp(CL.t, i32(0), get(C.g), [
      // nextInt(G): redraw while x >= 2^32 - rem, i.e. while x + rem wraps past 2^32.
      ...[LOOP, VOID, ...next, ...ltU(add(get(CL.x), get(C.rem)), get(CL.x)), BR_IF, 0, END],
      ...[BLOCK, VOID, ...get(C.count), I32_EQZ, BR_IF, 0],
      ...set(
        CL.at,
        add(get(C.counts), add(shl(remU(get(CL.x), get(C.g)), i32(6)), shl(get(CL.l), i32(3)))),
      ),
      ...storeF64(get(CL.at), addF64(loadF64(get(CL.at)), f64(1))),
      END,
    ]),
  ]),
  ...[0, 1, 2, 3].flatMap((h) => storeI32(get(C.state), get(CL.s0 + h), 4 * h)),
];

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const functions = [
    func(9, [[XL.w - XL.i, I32], [XL.p + 4 - XL.w, V128]], xtyCode),
    func(6, [[CL.at + 1 - CL.l, I32]], countsCode),
  ];
  const section = (id: number, body: Code): Code => [id, ...uleb(body.length), ...body];
  const name = (s: string): Code => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
  const vec = (items: Code[]): Code => [...uleb(items.length), ...items.flat()];
  const body = (f: ReturnType<typeof func>): Code => {
    const b = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.code, END];
    return [...uleb(b.length), ...b];
  };
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(functions.map((f) => [0x60, ...vec(Array(f.params).fill([I32])), 0]))),
    ...section(3, vec(functions.map((_, i) => [i]))),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([[...name("xty"), 0, 0], [...name("counts"), 0, 1], [...name("memory"), 2, 0]]),
    ),
    ...section(10, vec(functions.map(body))),
  ]);
}

/** The rows of a kernel problem (the fields of ClusterSums it reads). */
export interface KernelRows {
  readonly k: number;
  readonly metricCount: number;
  readonly clusterCount: number;
  readonly rowCluster: Int32Array;
  readonly rowColStart: Int32Array;
  readonly rowCol: Int32Array;
  readonly rowY: Float64Array;
}

/** A generator's state (FastStream's fields), advanced in place. */
export interface StreamState {
  s0: number;
  s1: number;
  s2: number;
  s3: number;
}

/** The WebAssembly loops over rows copied once into its memory. */
export interface WasmKernel {
  /** Eight draws' counts, `counts[c * 8 + lane]`. */
  readonly counts: Float64Array;
  /** X'Wy of the counts, `xty[(mm * k + j) * 8 + lane]`, after `xty()`. */
  readonly xtyOut: Float64Array;
  /** Zeroes the counts and draws `lanes` draws into lanes 0..lanes-1 (FastStream.drawCounts). */
  draw(stream: StreamState, lanes: number): void;
  /** Consumes `draws` draws of the stream (FastStream.skipCounts). */
  skip(stream: StreamState, draws: number): void;
  /** X'Wy of the current counts into `xtyOut`. */
  xty(): void;
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * The WebAssembly loops for these rows, or null when the runtime has no
 * WebAssembly SIMD or the rows do not fit in 2 GiB.
 */
export function wasmKernel(rows: KernelRows): WasmKernel | null {
  if (compiled === undefined) {
    const bytes = moduleBytes();
    compiled = typeof WebAssembly === "object" && WebAssembly.validate(bytes)
      ? new WebAssembly.Module(bytes)
      : null;
  }
  if (compiled === null) return null;
  const { k, metricCount: m, clusterCount: g, rowCluster, rowColStart, rowCol, rowY } = rows;
  const n = rowCluster.length;
  const align = (b: number) => Math.ceil(b / 16) * 16;
  const stateAt = 0, xtyAt = 16, countsAt = align(xtyAt + k * m * LANES * 8);
  const yAt = align(countsAt + g * LANES * 8), clusterAt = align(yAt + n * m * 8);
  const startAt = align(clusterAt + n * 4), colAt = align(startAt + (n + 1) * 4);
  const end = colAt + rowCol.length * 4;
  if (end > 2 ** 31) return null;
  const instance = new WebAssembly.Instance(compiled);
  const memory = instance.exports.memory as WebAssembly.Memory;
  memory.grow(Math.ceil(end / 65536));
  const buffer = memory.buffer;
  new Float64Array(buffer, yAt, n * m).set(rowY);
  new Int32Array(buffer, clusterAt, n).set(rowCluster);
  new Int32Array(buffer, startAt, n + 1).set(rowColStart);
  new Int32Array(buffer, colAt, rowCol.length).set(rowCol);
  const state = new Int32Array(buffer, stateAt, 4);
  const counts = new Float64Array(buffer, countsAt, g * LANES);
  const xtyOut = new Float64Array(buffer, xtyAt, k * m * LANES);
  const xty = instance.exports.xty as (...args: number[]) => void;
  const countsFn = instance.exports.counts as (...args: number[]) => void;
  // 2^32 mod G, as the rejection rule of nextInt(G) needs it.
  const rem = (0x100000000 % g) | 0;
  const run = (stream: StreamState, draws: number, count: number) => {
    state[0] = stream.s0, state[1] = stream.s1, state[2] = stream.s2, state[3] = stream.s3;
    countsFn(stateAt, countsAt, g, rem, draws, count);
    stream.s0 = state[0]!, stream.s1 = state[1]!, stream.s2 = state[2]!, stream.s3 = state[3]!;
  };
  return {
    counts,
    xtyOut,
    draw(stream, lanes) {
      counts.fill(0);
      run(stream, lanes, 1);
    },
    skip(stream, draws) {
      run(stream, draws, 0);
    },
    xty() {
      xtyOut.fill(0);
      xty(n, m, k, clusterAt, startAt, colAt, yAt, countsAt, xtyAt);
    },
  };
}
