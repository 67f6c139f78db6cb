/**
 * Byte arrays joined in order.
 *
 * @module
 */

/**
 * The parts as one array, in order; a single part is returned as it is,
 * not copied.
 *
 * @param parts The pieces.
 * @returns Their bytes, in order.
 *
 * @example
 * ```ts
 * import { concatBytes } from "./bytes.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * deepEqual(concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]), Uint8Array.of(1, 2, 3));
 * const one = Uint8Array.of(4);
 * equal(concatBytes([one]), one);
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
