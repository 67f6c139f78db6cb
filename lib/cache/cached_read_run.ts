import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Issue, Result } from "../core/issue.ts";
import { writeFileAtomic } from "../core/atomic_write.ts";
import { PathError } from "../core/path_error.ts";
import { LOADER_VERSION } from "../load/version.ts";
import { type LoadedRun, loadRunParts, type RunParts } from "../load/read_run.ts";
import { openRegularFile } from "../load/regular_file.ts";
import { runCacheKeyHeader } from "./run_cache_key.ts";
import { decodeRunTable, encodeRunTable } from "./run_table.ts";
import { openSealedEntry, sealEntry } from "./sealed_entry.ts";

/** Options of {@linkcode cachedReadRun} and {@linkcode cachedLoadRunParts}. */
export interface CachedReadRunOptions {
  /**
   * Cache directory; entries go to `<cacheDir>/runs/<key>.run`.
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
  /** `cache_corrupt` when a damaged entry was discarded (see {@linkcode CachedRunParts}). */
  readonly warnings: readonly Issue[];
}

/** The parts of a run (as `loadRunParts` gives them) read through the cache. */
export interface CachedRunParts {
  /** Manifest, attempts, sha256 and issues, exactly as `loadRunParts` returns them. */
  readonly parts: RunParts;
  /** `hit`: from the cache (never with issues); `miss`: parsed now (stored only when clean). */
  readonly cache: "hit" | "miss";
  /** Content address, or null when a file could not be read. */
  readonly key: string | null;
  /** Path of the cache entry, or null when a file could not be read. */
  readonly path: string | null;
  /**
   * `cache_corrupt` when the stored entry failed its checksum: it was
   * removed and the run parsed again (then stored again when clean);
   * `cache_unwritable` when the entry could not be stored (the run is
   * served parsed). An entry that cannot be read is a miss.
   */
  readonly warnings: readonly Issue[];
}

/** Chunk size for hashing traces.jsonl as a stream. */
const HASH_CHUNK = 1 << 20;

/**
 * Reads a whole file into one buffer of its size (stat, then read into
 * it), or null when unreadable. That is about twice as
 * fast as `Deno.readFile` for a file of tens of MB (which grows its buffer).
 */
async function readBytes(path: string): Promise<Uint8Array | null> {
  try {
    using file = await openRegularFile(path);
    const size = (await file.stat()).size;
    const buf = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const n = await file.read(buf.subarray(at));
      if (n === null) return buf.subarray(0, at);
      at += n;
    }
    // Grew while reading: fall back to reading it all.
    if ((await file.read(new Uint8Array(1))) !== null) return await Deno.readFile(path);
    return buf;
  } catch {
    return null;
  }
}

/**
 * The cache key and the run's sha256 (manifest then traces, as `readRun`
 * records it) in one streaming pass over traces.jsonl, so a big run is
 * never held in memory just to be hashed. Null when a file cannot be read.
 */
async function hashRunFiles(
  dir: string,
  loaderVersion: string,
): Promise<{ key: string; sha256: string } | null> {
  const manifest = await readBytes(join(dir, "manifest.json"));
  if (manifest === null) return null;
  try {
    using traces = await openRegularFile(join(dir, "traces.jsonl"));
    const keyHash = createHash("sha256"), runHash = createHash("sha256");
    keyHash.update(runCacheKeyHeader(manifest.length, { loaderVersion }));
    keyHash.update(manifest), runHash.update(manifest);
    const buf = new Uint8Array(HASH_CHUNK);
    for (;;) {
      const n = await traces.read(buf);
      if (n === null) break;
      const chunk = buf.subarray(0, n);
      keyHash.update(chunk), runHash.update(chunk);
    }
    return { key: keyHash.digest("hex"), sha256: runHash.digest("hex") };
  } catch {
    return null;
  }
}

/**
 * Reads a run directory's parts through the content-addressed cache (seed
 * 004): like `loadRunParts`, but a clean run is looked up under
 * `<cacheDir>/runs/<key>.run` first (see {@linkcode cachedReadRun} for the
 * key and the entry). A run with issues is parsed every time and never
 * stored, so validation still sees every issue with its file and line.
 *
 * @param dir Run directory (manifest.json + traces.jsonl).
 * @param options Cache directory and loader version.
 * @returns The parts, `cache: "hit" | "miss"`, and the key and entry path.
 *
 * @example A missing run is a miss with its io issues
 * ```ts
 * import { cachedLoadRunParts } from "./cached_read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await cachedLoadRunParts("/nonexistent-run", { cacheDir: "/nonexistent-cache" });
 * deepEqual([r.cache, r.key, r.parts.issues.map((i) => i.code)], ["miss", null, ["io_error", "io_error"]]);
 * ```
 */
export async function cachedLoadRunParts(
  dir: string,
  options: CachedReadRunOptions = {},
): Promise<CachedRunParts> {
  const loaderVersion = options.loaderVersion ?? LOADER_VERSION;
  const hashed = await hashRunFiles(dir, loaderVersion);
  if (hashed === null) {
    return {
      parts: await loadRunParts(dir),
      cache: "miss",
      key: null,
      path: null,
      warnings: [],
    };
  }
  const { key, sha256 } = hashed;
  const path = join(options.cacheDir ?? ".cache", "runs", `${key}.run`);
  const warnings: Issue[] = [];
  const stored = await readBytes(path);
  if (stored !== null) {
    const opened = openSealedEntry(stored);
    if (opened.ok) {
      const decoded = decodeRunTable(opened.payload, dir);
      if (decoded && decoded.meta.key === key && decoded.meta.loader_version === loaderVersion) {
        return { parts: { ...decoded.run, issues: [] }, cache: "hit", key, path, warnings };
      }
    } else {
      // Damaged on disk: never trusted, removed, and the run parsed again.
      warnings.push({
        code: "cache_corrupt",
        message:
          `run cache entry failed its check (${opened.why}); discarded it and parsed ${dir} again (the run's files are not at fault)`,
        file: path,
        severity: "warning",
      });
      await Deno.remove(path).catch(() => {});
    }
  }
  const parts = await loadRunParts(dir);
  // Store only clean runs, and only when the parsed files are the bytes the
  // key was made from (they could have changed in between).
  if (
    parts.issues.length === 0 && parts.manifest !== null &&
    parts.sha256 === sha256
  ) {
    const run: LoadedRun = {
      dir,
      manifest: parts.manifest,
      sha256: parts.sha256,
      attempts: parts.attempts,
    };
    let bytes: Uint8Array | null = null;
    try {
      bytes = encodeRunTable(run, { key, loaderVersion });
    } catch (error) {
      // Not representable exactly (a lone surrogate): serve it parsed, uncached.
      if (!(error instanceof RangeError)) throw error;
    }
    if (bytes !== null) {
      try {
        await writeFileAtomic(path, sealEntry(bytes));
      } catch (error) {
        // A cache that cannot be written (read-only, full, a file or
        // directory in the way) costs only speed: the run is served parsed.
        if (!isOsError(error)) throw error;
        warnings.push({
          code: "cache_unwritable",
          message: `run cache entry cannot be written (${
            osReason(error)
          }); read ${dir} without the cache (the run's files are not at fault)`,
          file: path,
          severity: "warning",
        });
      }
    }
  }
  return { parts, cache: "miss", key, path, warnings };
}

/** An operating-system error (Deno's classes, or an errno Deno has no class for). */
function isOsError(error: unknown): error is Error {
  return error instanceof Error &&
    (error instanceof PathError ||
      Object.values(Deno.errors).some((kind) => error instanceof kind) ||
      /\(os error \d+\)/.test(error.message));
}

/**
 * The operating system's reason alone, "No space left on device", without
 * the errno and the (temporary, per-run) paths Deno appends, so the warning
 * is the same text on every run.
 */
function osReason(error: Error): string {
  if (error instanceof PathError && error.code === "io_error") return "No space left on device";
  return error.message.match(/^(.*?) \(os error \d+\)/)?.[1] ?? error.message;
}

/**
 * Reads a run directory through a content-addressed cache: the key is the
 * sha256 of the loader version and the manifest.json and traces.jsonl
 * bytes; the parsed attempts are stored as one Arrow IPC file sealed with
 * its sha256 (`sealEntry`) as `<cacheDir>/runs/<key>.run`, written once,
 * atomically (temporary file, then rename). A hit skips JSON parsing and
 * schema checks. Every hit verifies the checksum first: an entry that fails
 * it is removed, the run is parsed again, and a `cache_corrupt` warning
 * (naming the entry, never the run's files) says so. An entry that decodes
 * to another format or identity is ignored and rewritten. Runs with issues
 * are never cached, nor runs whose strings Arrow cannot hold exactly (a
 * lone surrogate in a task id).
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
  const { parts, cache, key, path, warnings } = await cachedLoadRunParts(dir, options);
  if (parts.issues.length > 0) return { ok: false, issues: parts.issues };
  if (parts.manifest === null || parts.sha256 === null || key === null || path === null) {
    return {
      ok: false,
      issues: [{
        code: "io_error",
        message: "Cannot read run: its files changed while reading",
        file: dir,
      }],
    };
  }
  const run: LoadedRun = {
    dir,
    manifest: parts.manifest,
    sha256: parts.sha256,
    attempts: parts.attempts,
  };
  return { ok: true, value: { run, cache, key, path, warnings }, issues: [] };
}
