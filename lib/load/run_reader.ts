/**
 * Runs read in a Web Worker beside the calling thread's own reading:
 * {@linkcode startRunReader} starts a worker (lib/load/run_reader_worker.ts)
 * that parses a run directory's manifest.json and traces.jsonl into an
 * attempt table while the calling thread reads other files, then posts the
 * table's columns back (transferred, not copied). The parts are those
 * `loadRunParts` gives on the calling thread: the same manifest, sha256,
 * issues in their order and attempts, the table's strings held once with
 * the calling thread's `StringIds`. A run the worker cannot read is read on
 * the calling thread, with a one-line warning.
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";
import { AttemptTable, type PostedAttemptTable } from "./attempt_table.ts";
import type { StringIds } from "./columns.ts";
import { holdTaskIds, loadRunParts, type RunParts, runPartsOf } from "./read_run.ts";
import type { RunManifest } from "../contract/manifest.ts";
import type { Issue } from "../core/issue.ts";

/**
 * The masked runs' traces.jsonl bytes, in all, from which a validation reads
 * them in the worker (about 10,000 trace lines): below it the worker's start
 * (about 40 ms) costs more than the reading it takes off the calling thread.
 */
export const RUN_READER_MIN_BYTES = 4 << 20;

/** A run the worker read, not yet given its strings on the calling thread. */
export interface PostedRun {
  /**
   * The run's parts as `loadRunParts` gives them, their strings held in
   * `ids` (a run the worker could not read is read now, on this thread).
   */
  take(ids: StringIds): Promise<RunParts>;
}

/** Runs read in a worker; {@linkcode startRunReader} makes one. */
export interface RunReader {
  /** Each run directory's run, in the order given, once read; `take(ids)` gives its parts. */
  readonly runs: readonly Promise<PostedRun>[];
  /** Ends the worker; a run still being read is read on this thread. */
  close(): void;
}

/** Options of {@linkcode startRunReader}. */
export interface RunReaderOptions {
  /** Progress over the bytes of each run's traces.jsonl: a callback per file, or none. */
  readonly onRead?: (file: string) => ProgressCallback | undefined;
  /** The worker's module (default lib/load/run_reader_worker.ts; tests point it elsewhere). */
  readonly workerUrl?: URL;
  /** Told, once per run, why that run is read on this thread instead (default: stderr). */
  readonly onFallback?: (message: string) => void;
}

interface PostedParts {
  readonly dir: string;
  readonly manifest: RunManifest | null;
  readonly sha256: string | null;
  readonly issues: readonly Issue[];
  readonly table: Omit<PostedAttemptTable, "transfer">;
}

/**
 * Starts the run reader's worker on the given run directories, read one
 * after another. Close it when done with them (the worker closes itself
 * after the last run; a run not yet read when closed is read on this thread).
 *
 * @param dirs The run directories.
 * @param options Progress, the worker's module, and where a fallback is told.
 * @returns The reader.
 *
 * @example The parts `loadRunParts` gives on this thread
 * ```ts
 * import { startRunReader } from "./run_reader.ts";
 * import { loadRunParts } from "./read_run.ts";
 * import { StringIds } from "./columns.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = "data/demo/ckpt-a/gate-a";
 * const reader = startRunReader([dir]);
 * try {
 *   const parts = await (await reader.runs[0]!).take(new StringIds());
 *   const here = await loadRunParts(dir);
 *   deepEqual([parts.sha256, parts.manifest, parts.attempts], [here.sha256, here.manifest, here.attempts]);
 * } finally {
 *   reader.close();
 * }
 * ```
 */
export function startRunReader(dirs: readonly string[], options: RunReaderOptions = {}): RunReader {
  const url = options.workerUrl ?? new URL("./run_reader_worker.ts", import.meta.url);
  const tell = options.onFallback ??
    ((message: string) => console.error(`warning  reading worker: ${message}`));
  const pending = new Map<number, Job>();
  const runs = dirs.map((dir, id) =>
    new Promise<PostedRun>((resolve) => pending.set(id, { dir, resolve, progress: null }))
  );
  // A run the worker could not read is read on this thread; so is every run still to come if the
  // worker itself fails.
  let worker: Worker | null = null;
  const stop = (why: string | null) => {
    worker?.terminate();
    worker = null;
    for (const job of pending.values()) fallBack(job, why);
    pending.clear();
  };
  const fallBack = (job: Job, why: string | null) => {
    if (why !== null) tell(`${why}; reading ${job.dir} on this thread`);
    job.resolve(here(job.dir, options.onRead));
  };
  const received = (event: MessageEvent) => {
    const data = event.data as
      & { id: number }
      & ({ run: PostedParts } | { error: string } | { file: string; done: number; total: number });
    const job = pending.get(data.id);
    if (job === undefined) return;
    if ("file" in data) {
      if (job.progress === null) job.progress = options.onRead?.(data.file);
      return job.progress?.(data.done, data.total);
    }
    pending.delete(data.id);
    if ("error" in data) return fallBack(job, data.error);
    const { table, ...parts } = data.run;
    job.resolve({ take: (ids) => Promise.resolve(runParts(parts, table, ids)) });
  };
  try {
    worker = new Worker(url.href, { type: "module" });
    worker.onmessage = received;
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      stop(event.message);
    };
    worker.onmessageerror = () => stop("a run could not be read back");
    worker.postMessage(dirs);
  } catch (error) {
    stop(error instanceof Error ? error.message : String(error));
  }
  return { runs, close: () => stop(null) };
}

/** A run being read in the worker. */
interface Job {
  readonly dir: string;
  readonly resolve: (run: PostedRun | Promise<PostedRun>) => void;
  /** The file's progress callback once its first progress arrived (undefined: none wanted). */
  progress: ProgressCallback | undefined | null;
}

/** A run read on this thread when taken, so its strings go into the caller's ids in its order. */
function here(
  dir: string,
  onRead: ((file: string) => ProgressCallback | undefined) | undefined,
): PostedRun {
  return { take: (ids) => loadRunParts(dir, { ids, ...(onRead ? { onProgress: onRead } : {}) }) };
}

/** The parts of a posted run, as `loadRunParts` would give them with `ids`. */
function runParts(
  parts: Omit<PostedParts, "table">,
  posted: PostedParts["table"],
  ids: StringIds,
): RunParts {
  // The plan's task ids first, as loadRunParts holds them before the traces'.
  if (parts.manifest !== null) holdTaskIds(parts.manifest, ids);
  return runPartsOf(parts, AttemptTable.fromPosted(posted, ids));
}
