import { type TaskRowColumns, taskRowPieces, type TaskRowText, taskRowText } from "./task_rows.ts";

/**
 * Rows from which the `tasks` text is written on another thread: below
 * this, writing it here takes less time than a worker takes to start.
 */
export const ASIDE_ROWS = 8192;

/**
 * Rows above which the text is written here after all: the worker's copy
 * of the columns (about 170 bytes a row) would add to the peak of the
 * largest runs, where memory matters more than the seconds saved.
 */
export const ASIDE_MAX_ROWS = 500_000;

/** Where {@linkcode spliceTaskRows} puts the rows: a NUL never stands raw in JSON text. */
export const TASK_ROWS_MARKER = "\u0000gatelab.tasks\u0000";

/** The `tasks` text being written on another thread (see {@linkcode startTaskRowsAside}). */
export interface TaskRowsAside extends AsyncDisposable {
  /**
   * The text's bytes once written, in chunks of one reused buffer (each is
   * valid until the next is asked for), then the temporary file is
   * removed. When the worker failed, the text is written here instead.
   */
  chunks(): AsyncGenerator<string | Uint8Array, void, undefined>;
}

/**
 * Starts writing the `tasks` array of contributions.json (the text of
 * {@linkcode taskRowPieces}) to a temporary file on another thread, so the
 * analysis runs meanwhile: at 200,000 rows the text is about 280 MB and
 * takes seconds to format. Returns null (write it here) below
 * {@linkcode ASIDE_ROWS} or above {@linkcode ASIDE_MAX_ROWS} rows, or when
 * no worker or temporary file can be had (a narrowly sandboxed process). Needs no permission beyond reading
 * the module and writing the temporary directory.
 *
 * @param dataset The paired dataset; its columns are copied once into
 *   shared memory for the worker.
 * @param indent Indentation of the line the array opens on.
 * @returns The handle, to splice in with {@linkcode spliceTaskRows} and
 *   dispose of (which stops the worker and removes the file) when done.
 */
export function startTaskRowsAside(
  dataset: TaskRowColumns,
  indent: string,
): TaskRowsAside | null {
  if (dataset.n < ASIDE_ROWS || dataset.n > ASIDE_MAX_ROWS) return null;
  const url = new URL("./task_rows_worker.ts", import.meta.url);
  if (
    url.protocol === "file:" &&
    Deno.permissions.querySync({ name: "read", path: url }).state !== "granted"
  ) return null;
  let path: string;
  try {
    path = Deno.makeTempFileSync({ prefix: "gatelab-tasks-" });
  } catch {
    return null;
  }
  const worker = new Worker(url.href, { type: "module" });
  const written = new Promise<boolean>((resolve) => {
    worker.onmessage = (event: MessageEvent) => resolve(event.data === true);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      resolve(false);
    };
  });
  const data = taskRowText(dataset);
  worker.postMessage({ rows: packTaskRows(data), indent, path });
  const dispose = async () => {
    worker.terminate();
    await Deno.remove(path).catch(() => {});
  };
  return {
    async *chunks() {
      try {
        if (!(await written)) {
          yield* taskRowPieces(data, indent);
          return;
        }
        worker.terminate();
        using file = await Deno.open(path);
        const buffer = new Uint8Array(1 << 20);
        for (let n = file.readSync(buffer); n !== null; n = file.readSync(buffer)) {
          yield buffer.subarray(0, n);
        }
      } finally {
        await dispose();
      }
    },
    [Symbol.asyncDispose]: dispose,
  };
}

/**
 * JSON text chunks with the rows spliced in where
 * {@linkcode TASK_ROWS_MARKER} stands (written there as raw JSON).
 *
 * @param chunks The document's chunks, the marker in one of them.
 * @param rows The rows being written aside.
 * @returns The document's chunks, the rows' bytes among them.
 *
 * @example
 * ```ts
 * import { spliceTaskRows, TASK_ROWS_MARKER } from "./task_rows_aside.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rows = { async *chunks() { yield "[1]"; }, async [Symbol.asyncDispose]() {} };
 * const out: (string | Uint8Array)[] = [];
 * for await (const c of spliceTaskRows([`{"tasks": ${TASK_ROWS_MARKER}}`], rows)) out.push(c);
 * deepEqual(out.join(""), '{"tasks": [1]}');
 * ```
 */
export async function* spliceTaskRows(
  chunks: Iterable<string>,
  rows: TaskRowsAside,
): AsyncGenerator<string | Uint8Array, void, undefined> {
  for (const chunk of chunks) {
    const at = chunk.indexOf(TASK_ROWS_MARKER);
    if (at === -1) {
      yield chunk;
      continue;
    }
    yield chunk.slice(0, at);
    yield* rows.chunks();
    yield chunk.slice(at + TASK_ROWS_MARKER.length);
  }
}

/**
 * {@linkcode TaskRowText} as posted to the worker: its typed columns copied
 * into SharedArrayBuffers (shared, not cloned again) and its per-row
 * strings concatenated into one string with their lengths (one string to
 * clone instead of two per row).
 */
export interface PackedTaskRows extends Omit<TaskRowText, "split" | "taskId"> {
  /** split then task id of every row, concatenated. */
  readonly strings: string;
  /** Per row the lengths of its split and task id. */
  readonly lengths: Int32Array;
}

/**
 * Packs the columns for the worker (see {@linkcode PackedTaskRows}).
 *
 * @example
 * ```ts
 * import { packTaskRows, unpackTaskRows } from "./task_rows_aside.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rows = {
 *   n: 2, k: 1, versions: ["v"], metrics: ["reward"], design: Uint8Array.of(1, 0),
 *   masked: [Float64Array.of(1, 2)], bare: [Float64Array.of(0, 1)], delta: [Float64Array.of(1, 1)],
 *   split: ["val", "val"], taskId: ["a", "b\u0000c"], sampleId: [0, 1], gateIds: null, gateIndex: [0, 0],
 *   gateCheckpoints: null,
 * };
 * const back = unpackTaskRows(packTaskRows(rows));
 * deepEqual([back.taskId, Array.from(back.sampleId), [...back.delta[0]!]], [["a", "b\u0000c"], [0, 1], [1, 1]]);
 * ```
 */
export function packTaskRows(data: TaskRowText): PackedTaskRows {
  const shared = <T extends Float64Array | Uint8Array | Uint16Array | Int32Array>(
    make: (buffer: SharedArrayBuffer) => T,
    bytes: number,
    from: ArrayLike<number>,
  ): T => {
    const out = make(new SharedArrayBuffer(bytes));
    out.set(from);
    return out;
  };
  const { n } = data;
  const doubles = (from: ArrayLike<number>) => shared((b) => new Float64Array(b), n * 8, from);
  const lengths = new Int32Array(new SharedArrayBuffer(n * 8));
  for (let i = 0; i < n; i++) {
    lengths[2 * i] = data.split[i]!.length;
    lengths[2 * i + 1] = data.taskId[i]!.length;
  }
  const strings: string[] = [];
  for (let i = 0; i < n; i++) strings.push(data.split[i]!, data.taskId[i]!);
  return {
    n,
    k: data.k,
    versions: data.versions,
    metrics: data.metrics,
    design: shared((b) => new Uint8Array(b), data.design.length, data.design),
    masked: data.masked.map(doubles),
    bare: data.bare.map(doubles),
    delta: data.delta.map(doubles),
    sampleId: doubles(data.sampleId),
    gateIds: data.gateIds,
    gateCheckpoints: data.gateCheckpoints,
    gateIndex: shared((b) => new Uint16Array(b), n * 2, data.gateIndex),
    strings: strings.join(""),
    lengths,
  };
}

/** The columns back from {@linkcode packTaskRows}. */
export function unpackTaskRows(packed: PackedTaskRows): TaskRowText {
  const { n, strings, lengths } = packed;
  const split: string[] = [], taskId: string[] = [];
  for (let i = 0, at = 0; i < n; i++) {
    const a = lengths[2 * i]!, b = lengths[2 * i + 1]!;
    split.push(strings.slice(at, at + a));
    taskId.push(strings.slice(at + a, at + a + b));
    at += a + b;
  }
  const { strings: _s, lengths: _l, ...columns } = packed;
  return { ...columns, split, taskId };
}
