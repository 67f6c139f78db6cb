import { join } from "node:path";
import type { Result } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { writeFileAtomic } from "../core/atomic_write.ts";
import { LOADER_VERSION } from "../load/version.ts";
import { type LoadedRun, readRun } from "../load/read_run.ts";
import { runCacheKey } from "./run_cache_key.ts";
import { decodeRunTable, encodeRunTable } from "./run_table.ts";

/** Options of {@linkcode cachedReadRun}. */
export interface CachedReadRunOptions {
  /**
   * Cache directory; entries go to `<cacheDir>/runs/<key>.arrow`.
   * @default {".cache"}
   */
  readonly cacheDir?: string;
  /**
   * Loader version the key includes (tests use it to simulate a new loader).
   * @default {LOADER_VERSION}
   */
  readonly loaderVersion?: string;
}

/** A run read through the cache, and whether the cache had it. */
export interface CachedRun {
  readonly run: LoadedRun;
  /** `hit`: parsed tables came from the cache; `miss`: parsed now (and stored). */
  readonly cache: "hit" | "miss";
  /** Content address (see {@linkcode runCacheKey}). */
  readonly key: string;
  /** Path of the cache entry. */
  readonly path: string;
}

async function readBytes(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch {
    return null;
  }
}

/**
 * Reads a run directory through a content-addressed cache (seed 004): the
 * key is the sha256 of the loader version and the manifest.json and
 * traces.jsonl bytes; the parsed attempts are stored as one Arrow IPC file
 * `<cacheDir>/runs/<key>.arrow`, written once, atomically (temporary file,
 * then rename). A hit skips JSON parsing and schema checks. An entry that
 * cannot be decoded, or whose stored identity disagrees with the key, is
 * ignored and rewritten. Runs with issues are never cached.
 *
 * @param dir Run directory (manifest.json + traces.jsonl).
 * @param options Cache directory and loader version.
 * @returns The run with `cache: "hit" | "miss"`, or the issues of `readRun`.
 *
 * @example A missing run reports its io issues
 * ```ts
 * import { cachedReadRun } from "./cached_read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await cachedReadRun("/nonexistent-run", { cacheDir: "/nonexistent-cache" });
 * deepEqual(r.ok ? "" : r.issues[0]!.code, "io_error");
 * ```
 */
export async function cachedReadRun(
  dir: string,
  options: CachedReadRunOptions = {},
): Promise<Result<CachedRun>> {
  const loaderVersion = options.loaderVersion ?? LOADER_VERSION;
  const manifestBytes = await readBytes(join(dir, "manifest.json"));
  const tracesBytes = await readBytes(join(dir, "traces.jsonl"));
  if (manifestBytes === null || tracesBytes === null) {
    const read = await readRun(dir); // reports the io issues
    if (!read.ok) return read;
    return {
      ok: false,
      issues: [{
        code: "io_error",
        message: "Cannot read run: its files changed while reading",
        file: dir,
      }],
    };
  }
  const key = runCacheKey(manifestBytes, tracesBytes, { loaderVersion });
  const path = join(options.cacheDir ?? ".cache", "runs", `${key}.arrow`);
  const stored = await readBytes(path);
  if (stored !== null) {
    const decoded = decodeRunTable(stored, dir);
    if (decoded && decoded.meta.key === key && decoded.meta.loader_version === loaderVersion) {
      return { ok: true, value: { run: decoded.run, cache: "hit", key, path }, issues: [] };
    }
  }
  const read = await readRun(dir);
  if (!read.ok) return read;
  // Store only when the parsed files are the bytes the key was made from
  // (they could have changed in between).
  if (read.value.sha256 === sha256Hex(manifestBytes, tracesBytes)) {
    await writeFileAtomic(path, encodeRunTable(read.value, { key, loaderVersion }));
  }
  return { ok: true, value: { run: read.value, cache: "miss", key, path }, issues: [] };
}
