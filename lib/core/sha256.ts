import { createHash } from "node:crypto";

/**
 * SHA-256 over the concatenation of the given byte chunks, as lowercase hex.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./sha256.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   sha256Hex(new TextEncoder().encode("abc")),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export function sha256Hex(...chunks: readonly Uint8Array[]): string {
  const hash = createHash("sha256");
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest("hex");
}
