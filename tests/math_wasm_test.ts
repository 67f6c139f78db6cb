/**
 * The WebAssembly assembler (lib/math/wasm.ts): LEB128 as the WebAssembly
 * specification defines it (the examples are the DWARF standard's and
 * Wikipedia's), and a small module built with its helpers that validates,
 * compiles and computes what the same loop computes in JavaScript.
 */
import { deepEqual, equal } from "node:assert/strict";
import {
  add,
  addF64,
  F64,
  f64At,
  forUp,
  get,
  I32,
  i32,
  loadF64,
  RETURN,
  set,
  sleb,
  uleb,
  wasmModule,
} from "../lib/math/wasm.ts";

Deno.test("wasm assembler: unsigned and signed LEB128", () => {
  deepEqual(uleb(0), [0]);
  deepEqual(uleb(127), [127]);
  deepEqual(uleb(128), [0x80, 0x01]);
  deepEqual(uleb(624485), [0xe5, 0x8e, 0x26]);
  deepEqual(sleb(0), [0]);
  deepEqual(sleb(-1), [0x7f]);
  deepEqual(sleb(63), [0x3f]);
  deepEqual(sleb(64), [0xc0, 0x00]);
  deepEqual(sleb(-123456), [0xc0, 0xbb, 0x78]);
});

Deno.test("wasm assembler: a module of one summing loop validates and sums like JavaScript", () => {
  // sum(at, n) -> f64: sum of n doubles from byte address at, in order.
  const module = wasmModule([{
    name: "sum",
    params: [I32, I32],
    results: [F64],
    locals: [[1, I32], [1, F64]],
    code: [
      ...forUp(2, i32(0), get(1), set(3, addF64(get(3), loadF64(f64At(get(0), get(2)))))),
      ...get(3),
      RETURN,
    ],
  }]);
  equal(module instanceof WebAssembly.Module, true);
  const instance = new WebAssembly.Instance(module!);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const values = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i) / (i + 1));
  new Float64Array(memory.buffer, 16, values.length).set(values);
  let want = 0;
  for (const v of values) want += v;
  const sum = instance.exports.sum as (at: number, n: number) => number;
  equal(Object.is(sum(16, values.length), want), true);
  equal(sum(16, 0), 0);
  // add() is i32.add: a module using it on f64 operands does not validate.
  equal(wasmModule([{ name: "bad", params: [F64], locals: [], code: add(get(0), get(0)) }]), null);
});
