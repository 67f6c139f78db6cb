/**
 * A small WebAssembly assembler for gatelab's numeric kernels: opcodes,
 * LEB128, expression helpers that each return the code leaving their value
 * on the stack, structured loops, and {@linkcode wasmModule}, which builds,
 * validates and compiles a module of numbered functions over one exported
 * memory. No toolchain and no binary file: the kernels are written here in
 * TypeScript, byte for byte, and tested against their scalar twins.
 *
 * @module
 */

export type Code = number[];

// Value types and opcodes (WebAssembly 2.0 with fixed-width SIMD).
export const I32 = 0x7f, F64 = 0x7c, V128 = 0x7b, VOID = 0x40;
export const BLOCK = 0x02, LOOP = 0x03, IF = 0x04, ELSE = 0x05, END = 0x0b;
export const BR = 0x0c, BR_IF = 0x0d, RETURN = 0x0f, CALL = 0x10;
export const LOCAL_GET = 0x20, LOCAL_SET = 0x21;
export const I32_CONST = 0x41, F64_CONST = 0x44, I32_EQZ = 0x45;
export const SIMD = 0xfd;

export function uleb(v: number): Code {
  const out: Code = [];
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

export function sleb(v: number): Code {
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
export const get = (local: number): Code => [LOCAL_GET, local];
export const set = (local: number, value: Code): Code => value.concat(LOCAL_SET, local);
export const i32 = (v: number): Code => [I32_CONST].concat(sleb(v));
export const f64 = (v: number): Code => [F64_CONST, ...new Uint8Array(Float64Array.of(v).buffer)];
export const op = (code: number) => (a: Code, b: Code): Code => a.concat(b, code);
export const add = op(0x6a), mul = op(0x6c), remU = op(0x70), xor = op(0x73), shl = op(0x74);
export const rotl = op(0x77), ltU = op(0x49), geU = op(0x4f), addF64 = op(0xa0);
export const simd = (code: number) => (a: Code, b: Code): Code => a.concat(b, SIMD, uleb(code));
export const addF64x2 = simd(0xf0), mulF64x2 = simd(0xf2);
export const splatF64x2 = (a: Code): Code => a.concat(SIMD, 0x14);
export const loadI32 = (at: Code, offset = 0): Code => at.concat(0x28, 2, uleb(offset));
export const loadF64 = (at: Code): Code => at.concat(0x2b, 3, 0);
export const loadV128 = (at: Code, offset: number): Code => at.concat(SIMD, 0x00, 4, uleb(offset));
export const storeI32 = (at: Code, v: Code, offset: number): Code => at.concat(v, 0x36, 2, offset);
export const storeF64 = (at: Code, v: Code): Code => at.concat(v, 0x39, 3, 0);
export const storeV128 = (at: Code, v: Code, offset: number): Code =>
  at.concat(v, SIMD, 0x0b, 4, uleb(offset));
export const sub = op(0x6b),
  or = op(0x72),
  divU = op(0x6e),
  eq = op(0x46),
  eqF64 = op(0x61),
  gtF64 = op(0x64);
export const subF64 = op(0xa1), mulF64 = op(0xa2), divF64 = op(0xa3);
export const floorF64 = (a: Code): Code => a.concat(0x9c);
export const sqrtF64 = (a: Code): Code => a.concat(0x9f);
/** f64.convert_i32_u: an i32 read as unsigned, to a double (exact). */
export const convertU = (a: Code): Code => a.concat(0xb8);
export const eqz = (a: Code): Code => a.concat(I32_EQZ);
export const loadU8 = (at: Code): Code => at.concat(0x2d, 0, 0);
export const storeU8 = (at: Code, v: Code): Code => at.concat(v, 0x3a, 0, 0);
export const call = (f: number, ...args: Code[]): Code => args.flat().concat(CALL, f);
/** if (cond) then else otherwise, with no value, or with an f64 value when `f64` is set. */
export const ifElse = (cond: Code, then: Code, otherwise: Code = [], f64 = false): Code =>
  cond.concat(IF, f64 ? F64 : VOID, then, otherwise.length > 0 ? [ELSE] : [], otherwise, END);
/** Byte address of element `index` of an f64 (or i32) array at `base`. */
export const f64At = (base: Code, index: Code): Code => add(base, shl(index, i32(3)));
export const i32At = (base: Code, index: Code): Code => add(base, shl(index, i32(2)));
/** for (local = from; local < end; local += step) body. */
export const forUp = (local: number, from: Code, end: Code, body: Code, step = 1): Code =>
  set(local, from).concat(
    [BLOCK, VOID, LOOP, VOID],
    geU(get(local), end),
    [BR_IF, 1],
    body,
    set(local, add(get(local), i32(step))),
    [BR, 0, END, END],
  );

export const i32s = (n: number) => Array<number>(n).fill(I32);

export const vOr = (a: Code, b: Code): Code => a.concat(b, SIMD, 0x50);
export const anyTrue = (a: Code): Code => a.concat(SIMD, 0x53);

/** One function of a module: parameter and result types, (count, type) groups of locals, body. */
export interface WasmFunction {
  readonly name: string;
  readonly params: readonly number[];
  readonly results?: readonly number[];
  readonly locals: readonly (readonly [number, number])[];
  readonly code: Code;
}

/**
 * The module of these functions (exported by name; `call(i)` calls the i-th)
 * and one memory exported as "memory" (one page, grown by the caller),
 * compiled; null where the runtime has no WebAssembly or not the features
 * used (SIMD).
 */
export function wasmModule(functions: readonly WasmFunction[]): WebAssembly.Module | null {
  const section = (id: number, body: Code): Code => [id].concat(uleb(body.length), body);
  const name = (s: string): Code => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
  const vec = (items: Code[]): Code => uleb(items.length).concat(...items);
  const types = (list: readonly number[]): Code => vec(list.map((t) => [t]));
  const body = (f: WasmFunction): Code => {
    const b = vec(f.locals.map(([n, t]) => uleb(n).concat(t))).concat(f.code, END);
    return uleb(b.length).concat(b);
  };
  const bytes = Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(functions.map((f) => [0x60, ...types(f.params), ...types(f.results ?? [])]))),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([...functions.map((f, i) => [...name(f.name), 0, ...uleb(i)]), [
        ...name("memory"),
        2,
        0,
      ]]),
    ),
  ].concat(section(10, vec(functions.map(body)))));
  return typeof WebAssembly === "object" && WebAssembly.validate(bytes)
    ? new WebAssembly.Module(bytes)
    : null;
}
