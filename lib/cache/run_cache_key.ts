import { sha256Hex } from "../core/sha256.ts";
import { LOADER_VERSION } from "../load/version.ts";

/**
 * Content address of a loaded run: sha256 over the loader version, the
 * manifest's byte length, the manifest.json bytes and the traces.jsonl
 * bytes. Any changed byte of either file, or a new loader version, gives
 * a new key, so a changed baseline can never hit an old cache entry. (The
 * length prefix keeps the manifest/traces boundary unambiguous.)
 *
 * @param manifestBytes Bytes of manifest.json.
 * @param tracesBytes Bytes of traces.jsonl.
 * @param options Loader version to key on.
 * @returns 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { runCacheKey } from "./run_cache_key.ts";
 * import { deepEqual, notDeepEqual } from "node:assert/strict";
 * const m = new TextEncoder().encode("{}"), t = new TextEncoder().encode("{}\n");
 * deepEqual(runCacheKey(m, t), runCacheKey(m, t));
 * notDeepEqual(runCacheKey(m, t), runCacheKey(m, t, { loaderVersion: "other" }));
 * ```
 */
export function runCacheKey(
  manifestBytes: Uint8Array,
  tracesBytes: Uint8Array,
  options: {
    /**
     * Loader version the key includes.
     * @default {LOADER_VERSION}
     */
    readonly loaderVersion?: string;
  } = {},
): string {
  const header = runCacheKeyHeader(manifestBytes.length, options);
  return sha256Hex(header, manifestBytes, tracesBytes);
}

/**
 * The bytes {@linkcode runCacheKey} hashes before the manifest and traces,
 * for hashing the files as a stream (the key is
 * `sha256(header, manifest bytes, traces bytes)`).
 *
 * @param manifestByteLength Length of manifest.json in bytes.
 * @param options Loader version to key on.
 * @returns The header bytes.
 *
 * @example
 * ```ts
 * import { runCacheKey, runCacheKeyHeader } from "./run_cache_key.ts";
 * import { sha256Hex } from "../core/sha256.ts";
 * import { deepEqual } from "node:assert/strict";
 * const m = new TextEncoder().encode("{}"), t = new TextEncoder().encode("{}\n");
 * deepEqual(sha256Hex(runCacheKeyHeader(m.length), m, t), runCacheKey(m, t));
 * ```
 */
export function runCacheKeyHeader(
  manifestByteLength: number,
  options: {
    /**
     * Loader version the key includes.
     * @default {LOADER_VERSION}
     */
    readonly loaderVersion?: string;
  } = {},
): Uint8Array {
  return new TextEncoder().encode(
    `gatelab.run-cache/v1\n${options.loaderVersion ?? LOADER_VERSION}\n${manifestByteLength}\n`,
  );
}
