/**
 * The tidy tables of an analysis encoded in a Web Worker, beside the fit:
 * {@linkcode startTidyEncoder} starts a worker (lib/analyze/encode_worker.ts)
 * that loads apache-arrow and parquet-wasm; `gate analyze` starts it once
 * the inputs are checked, posts it the `tasks` table (which only needs the
 * paired dataset) to encode while the fit, the diagnostics and the bootstrap
 * run, and the small tables after them, so the libraries never load on the
 * calling thread. The bytes are those of the calling thread's
 * encoding (the same functions run in the worker), and
 * {@linkcode encodedTableFiles} reports the same progress in the same order
 * as the files are made and written. A worker that cannot encode a table
 * leaves it to the calling thread, with a one-line warning.
 *
 * @module
 */
import type { FileContents } from "../core/atomic_write.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { tidyParquet } from "../tidy/tidy_parquet.ts";
import { tidyCsv, type TidyTable } from "../tidy/tidy_table.ts";
import { tasksTableOfText } from "./analyze_tidy.ts";
import type { TaskRowText } from "./task_rows.ts";

/**
 * The most paired rows whose `tasks` table `gate analyze` encodes in the
 * worker during the fit. The worker's encoding holds its own memory beside
 * the fit's (at 40,000 rows about 120 MB more at the peak; at 200,000 rows
 * it would be about 370 MB, half again the run's peak, to save about 1 s of
 * a 26 s run), so a larger table is encoded on the calling thread after the
 * bootstrap, in batches above `PARQUET_STREAM_ROWS`.
 */
export const ENCODER_MAX_ROWS = 100_000;

/** What the encoder is given: a table, or the dataset's columns the `tasks` table is built from. */
export type EncodeSource = { readonly table: TidyTable } | { readonly tasks: TaskRowText };

/** A table's CSV (UTF-8 pieces, the rows `tidyCsv` reports after each) and Parquet bytes. */
export interface EncodedTable {
  /** The CSV's pieces as `tidyCsv` yields them, in UTF-8; empty when no CSV was asked. */
  readonly pieces: readonly Uint8Array[];
  /** The rows done that `tidyCsv` reports after each piece. */
  readonly rowsAt: readonly number[];
  /** The Parquet file (`tidyParquet`). */
  readonly parquet: Uint8Array;
}

/** Tables encoded in a worker; {@linkcode startTidyEncoder} makes one. */
export interface TidyEncoder {
  /**
   * Starts encoding in the worker.
   *
   * @param source The table, or the `tasks` table's columns.
   * @param csv Whether the CSV is wanted too.
   * @returns The encoding (made on this thread if the worker cannot).
   */
  encode(source: EncodeSource, csv: boolean): Promise<EncodedTable>;
  /** Ends the worker; an encoding still running is finished on this thread. */
  close(): void;
}

/** Options of {@linkcode startTidyEncoder}. */
export interface TidyEncoderOptions {
  /** The worker's module (default lib/analyze/encode_worker.ts; tests point it elsewhere). */
  readonly workerUrl?: URL;
  /** Told, once, why the worker's tables are encoded on this thread instead (default: stderr). */
  readonly onFallback?: (message: string) => void;
}

/**
 * {@linkcode EncodedTable} made on this thread: what the worker does.
 *
 * @param source The table, or the `tasks` table's columns.
 * @param csv Whether the CSV is wanted too.
 * @returns The encoding.
 *
 * @example
 * ```ts
 * import { encodeHere } from "./encoder.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = await encodeHere({ table: { name: "t", rows: 1, columns: [{ name: "x", kind: "f64", values: [0.5] }] } }, true);
 * deepEqual([new TextDecoder().decode(e.pieces[0]), e.rowsAt, e.parquet.length > 0], ["x\n0.5\n", [1], true]);
 * ```
 */
export async function encodeHere(source: EncodeSource, csv: boolean): Promise<EncodedTable> {
  const table = "table" in source ? source.table : tasksTableOfText(source.tasks);
  const pieces: Uint8Array[] = [];
  const rowsAt: number[] = [];
  if (csv) {
    const utf8 = new TextEncoder();
    for (const piece of tidyCsv(table, { onProgress: (done) => rowsAt.push(done) })) {
      pieces.push(utf8.encode(piece));
    }
  }
  return { pieces, rowsAt, parquet: await tidyParquet(table) };
}

/**
 * Starts the encoding worker. Close it when done: a live worker keeps the
 * process running.
 *
 * @param options The worker's module and where a fallback is told.
 * @returns The encoder.
 *
 * @example The same bytes as on this thread
 * ```ts
 * import { encodeHere, startTidyEncoder } from "./encoder.ts";
 * import { deepEqual } from "node:assert/strict";
 * const table = { name: "t", rows: 2, columns: [{ name: "id", kind: "str" as const, values: ["a", "b"] }] };
 * const encoder = startTidyEncoder();
 * try {
 *   deepEqual(await encoder.encode({ table }, true), await encodeHere({ table }, true));
 * } finally {
 *   encoder.close();
 * }
 * ```
 */
export function startTidyEncoder(options: TidyEncoderOptions = {}): TidyEncoder {
  const url = options.workerUrl ?? new URL("./encode_worker.ts", import.meta.url);
  const tell = options.onFallback ??
    ((message: string) => console.error(`warning  encoding worker: ${message}`));
  const pending = new Map<number, Job>();
  let next = 0;
  // null once closed or failed: every later table is encoded on this thread.
  let worker: Worker | null = null;
  // The worker's jobs, and every later one, go to this thread.
  const stop = (why: string | null) => {
    worker?.terminate();
    worker = null;
    if (why !== null && pending.size > 0) tell(`${why}; encoding its tables on this thread`);
    for (const { source, csv, done } of pending.values()) done(encodeHere(source, csv));
    pending.clear();
  };
  const received = (event: MessageEvent) => {
    const data = event.data as (EncodedTable | { error: string }) & { id: number };
    const job = pending.get(data.id);
    if (job === undefined) return;
    pending.delete(data.id);
    if ("error" in data) {
      tell(`${data.error}; encoding the table on this thread`);
      return job.done(encodeHere(job.source, job.csv));
    }
    const { pieces, rowsAt, parquet } = data;
    job.done(Promise.resolve({ pieces, rowsAt, parquet }));
    // A large table's copy, Arrow vectors and parquet-wasm memory (which never shrinks) would
    // stay in the idle worker through the bootstrap: a fresh one takes the small tables.
    if (job.rows > RECYCLE_ROWS && pending.size === 0 && worker !== null) {
      worker.terminate();
      worker = spawn();
    }
  };
  const spawn = () => {
    const w = new Worker(url.href, { type: "module" });
    w.onmessage = received;
    w.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      stop(event.message);
    };
    w.onmessageerror = () => stop("a result could not be read");
    return w;
  };
  worker = spawn();
  return {
    encode(source, csv) {
      if (worker === null) return encodeHere(source, csv);
      const id = next++;
      const rows = "table" in source ? source.table.rows : source.tasks.n;
      return new Promise<EncodedTable>((resolve, reject) => {
        pending.set(id, { source, csv, rows, done: (p) => p.then(resolve, reject) });
        worker!.postMessage({ id, csv, ...source });
      });
    },
    close: () => stop(null),
  };
}

/**
 * Rows above which the worker that encoded a table is replaced by a fresh
 * one as soon as the table is back (see {@linkcode startTidyEncoder}).
 */
const RECYCLE_ROWS = 16_384;

/** A table being encoded in the worker. */
interface Job {
  readonly source: EncodeSource;
  readonly csv: boolean;
  readonly rows: number;
  readonly done: Done;
}

type Done = (result: Promise<EncodedTable>) => void;

/** The progress callbacks of a table's files, asked with the file's name and the table's rows. */
export interface EncodedProgress {
  /** The Parquet encoding's progress: told 0 as it starts and every row at the end. */
  readonly onEncode?: (file: string, rows: number) => ProgressCallback | undefined;
  /** The CSV's progress over its rows, told as each piece is written. */
  readonly onWrite?: (file: string, rows: number) => ProgressCallback | undefined;
}

/**
 * A table's `<name>.csv` (when `csv`) and `<name>.parquet` from its
 * encoding, with the progress `tidyFiles`-style encoding on this thread
 * reports, in the same order: the CSV's as its pieces are written.
 *
 * @param name The table's file stem.
 * @param rows The table's rows.
 * @param encoded Its encoding (from the worker or {@linkcode encodeHere}).
 * @param csv Whether `<name>.csv` is written.
 * @param progress The progress callbacks.
 * @returns File name to contents.
 *
 * @example
 * ```ts
 * import { encodedTableFiles, encodeHere } from "./encoder.ts";
 * import { deepEqual } from "node:assert/strict";
 * const table = { name: "t", rows: 1, columns: [{ name: "x", kind: "i32" as const, values: [3] }] };
 * const told: number[] = [];
 * const files = await encodedTableFiles("t", 1, encodeHere({ table }, true), true, { onWrite: () => (done) => told.push(done) });
 * deepEqual(Object.keys(files), ["t.csv", "t.parquet"]);
 * deepEqual([[...files["t.csv"] as Iterable<Uint8Array>].map((p) => new TextDecoder().decode(p)), told], [["x\n3\n"], [1]]);
 * ```
 */
export async function encodedTableFiles(
  name: string,
  rows: number,
  encoded: Promise<EncodedTable>,
  csv: boolean,
  progress: EncodedProgress,
): Promise<Record<string, FileContents>> {
  const files: Record<string, FileContents> = {};
  const onWrite = csv ? progress.onWrite?.(`${name}.csv`, rows) : undefined;
  const onEncode = progress.onEncode?.(`${name}.parquet`, rows);
  onEncode?.(0, rows);
  const { pieces, rowsAt, parquet } = await encoded;
  if (csv) files[`${name}.csv`] = replayed(pieces, rowsAt, rows, onWrite);
  onEncode?.(rows, rows);
  files[`${name}.parquet`] = parquet;
  return files;
}

/** The CSV's pieces, telling after each the rows `tidyCsv` told after it. */
function* replayed(
  pieces: readonly Uint8Array[],
  rowsAt: readonly number[],
  rows: number,
  onProgress: ProgressCallback | undefined,
): Generator<Uint8Array, void, undefined> {
  for (let i = 0; i < pieces.length; i++) {
    yield pieces[i]!;
    onProgress?.(rowsAt[i]!, rows);
  }
}
