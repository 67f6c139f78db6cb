import { createHash } from "node:crypto";

/** Start of every sealed cache entry. */
const MAGIC = "gatelab.sealed/1 sha256=";
/**
 * Header length: the magic and 64 hex digits of sha256, 88 bytes, so the
 * payload starts 8-byte aligned (Arrow reads typed arrays in place).
 */
const HEADER_BYTES = MAGIC.length + 64;

/** What {@linkcode openSealedEntry} found. */
export type OpenedEntry =
  | { readonly ok: true; readonly payload: Uint8Array }
  | { readonly ok: false; readonly why: string };

function digest(payload: Uint8Array): string {
  return createHash("sha256").update(payload).digest("hex");
}

/**
 * Seals a cache entry: the payload behind an 88-byte header that holds its
 * sha256 (`gatelab.sealed/1 sha256=` and 64 lowercase hex digits), so that any change
 * of a stored byte is found on read (see {@linkcode openSealedEntry}).
 *
 * @param payload The bytes to store.
 * @returns Header followed by the payload.
 *
 * @example
 * ```ts
 * import { openSealedEntry, sealEntry } from "./sealed_entry.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sealed = sealEntry(new Uint8Array([1, 2, 3]));
 * deepEqual(sealed.length, 88 + 3);
 * deepEqual(openSealedEntry(sealed), { ok: true, payload: new Uint8Array([1, 2, 3]) });
 * ```
 */
export function sealEntry(payload: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(MAGIC + digest(payload));
  const out = new Uint8Array(header.length + payload.length);
  out.set(header, 0);
  out.set(payload, header.length);
  return out;
}

/**
 * Opens bytes written by {@linkcode sealEntry}: the payload when the header
 * is intact and the payload's sha256 equals the stored one, else why not
 * (every single changed bit is found: in the header it breaks the magic or
 * the digest, in the payload it changes the payload's sha256).
 *
 * @param bytes Stored bytes.
 * @returns The payload, or the reason the entry is corrupt.
 *
 * @example A flipped bit is found
 * ```ts
 * import { openSealedEntry, sealEntry } from "./sealed_entry.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sealed = sealEntry(new TextEncoder().encode("payload"));
 * sealed[sealed.length - 1]! ^= 1;
 * deepEqual(openSealedEntry(sealed), { ok: false, why: "checksum mismatch" });
 * deepEqual(openSealedEntry(sealed.subarray(0, 10)), { ok: false, why: "truncated header" });
 * ```
 */
export function openSealedEntry(bytes: Uint8Array): OpenedEntry {
  if (bytes.length < HEADER_BYTES) return { ok: false, why: "truncated header" };
  const header = new TextDecoder().decode(bytes.subarray(0, HEADER_BYTES));
  if (!header.startsWith(MAGIC)) {
    return { ok: false, why: "not a sealed entry (bad header)" };
  }
  const stored = header.slice(MAGIC.length);
  const payload = bytes.subarray(HEADER_BYTES);
  if (digest(payload) !== stored) return { ok: false, why: "checksum mismatch" };
  return { ok: true, payload };
}
