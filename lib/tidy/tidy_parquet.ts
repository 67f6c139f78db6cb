/**
 * A {@linkcode TidyTable} as a Parquet file: Arrow columns built from the
 * table (apache-arrow), written by parquet-wasm with ZSTD compression.
 * Both libraries are imported on call.
 *
 * @module
 */
import type { TidyTable } from "./tidy_table.ts";
import { arrowColumn } from "./arrow_columns.ts";
import { releaseMemory } from "../core/release_memory.ts";
import { concatBytes } from "../core/bytes.ts";
import type { ProgressCallback } from "../core/progress.ts";

/** Compression of every Parquet file gatelab writes. */
export const PARQUET_COMPRESSION = "zstd";

/**
 * The table as an Arrow IPC stream: `str` Utf8, `f64` Float64, `i32`
 * Int32, `bool` Bool, `str_list` List<Utf8>; missing values are nulls.
 *
 * @param table The table.
 * @returns The IPC stream bytes.
 *
 * @example
 * ```ts
 * import { tidyArrowIpc } from "./tidy_parquet.ts";
 * import { tableFromIPC } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const t = tableFromIPC(await tidyArrowIpc({ name: "t", rows: 2, columns: [
 *   { name: "x", kind: "f64", values: [NaN, -0] },
 *   { name: "ids", kind: "str_list", values: [["a"], []] },
 * ] }));
 * deepEqual([[...t.getChild("x")!], t.getChild("ids")!.get(0)!.toArray()], [[null, 0], ["a"]]);
 * ```
 */
export async function tidyArrowIpc(table: TidyTable): Promise<Uint8Array> {
  const arrow = await import("npm:apache-arrow@17.0.0");
  // deno-lint-ignore no-explicit-any
  const vectors: Record<string, any> = {};
  for (const column of table.columns) {
    vectors[column.name] = arrowColumn(arrow, column.kind, column.values);
  }
  return arrow.tableToIPC(new arrow.Table(vectors), "stream");
}

/**
 * The table with every boolean column that holds no value at all as a
 * text column of nulls: apache-arrow's IPC writer leaves such a column's
 * value buffer empty, which the Parquet writer (arrow-rs) refuses.
 */
function writableInParquet(table: TidyTable): TidyTable {
  const allNull = (values: ArrayLike<unknown>) => {
    for (let i = 0; i < values.length; i++) if (typeof values[i] === "boolean") return false;
    return true;
  };
  return {
    ...table,
    columns: table.columns.map((c) =>
      c.kind === "bool" && c.values.length > 0 && allNull(c.values) ? { ...c, kind: "str" } : c
    ),
  };
}

/**
 * Tables of more rows than this are encoded in batches of
 * {@linkcode PARQUET_BATCH_ROWS} rows: one batch at a time in Arrow and in
 * parquet-wasm's memory instead of the whole table's IPC stream and its
 * copy (at 1,000,000 tasks about 450 MB less at the peak of `gate
 * analyze`). The file holds the same values, schema and row groups; its
 * bytes differ from a one-batch encoding (data pages end at other rows), so
 * smaller tables keep the one-batch encoding and its bytes.
 */
export const PARQUET_STREAM_ROWS = 262_144;

/** Rows per batch of a table encoded in batches ({@linkcode PARQUET_STREAM_ROWS}). */
export const PARQUET_BATCH_ROWS = 65_536;

/** Values `start` to `end` of a column: a view of a typed array, a copy of anything else. */
function sliceValues(values: ArrayLike<unknown>, start: number, end: number): ArrayLike<unknown> {
  if (ArrayBuffer.isView(values)) return (values as Float64Array).subarray(start, end);
  return Array.from({ length: end - start }, (_, i) => values[start + i]);
}

/** The writer properties of every Parquet file: ZSTD, parquet-wasm's defaults otherwise. */
type ParquetWasm = typeof import("npm:parquet-wasm@0.8.0/bundler");
function writerProperties(pq: ParquetWasm) {
  return new pq.WriterPropertiesBuilder().setCompression(pq.Compression.ZSTD).build();
}

/** A large table's Parquet bytes, encoded batch by batch (see {@linkcode PARQUET_STREAM_ROWS}). */
async function streamedParquet(
  table: TidyTable,
  pq: ParquetWasm,
  onProgress: ProgressCallback | undefined,
): Promise<Uint8Array> {
  let start = 0;
  const batches = new ReadableStream({
    async pull(controller) {
      if (start >= table.rows) return controller.close();
      const end = Math.min(table.rows, start + PARQUET_BATCH_ROWS);
      const columns = table.columns.map((c) => ({
        ...c,
        values: sliceValues(c.values, start, end),
      }));
      const wasmTable = pq.Table.fromIPCStream(
        await tidyArrowIpc({ ...table, rows: end - start, columns }),
      );
      start = end;
      onProgress?.(end, table.rows);
      // The batches share the table's buffers; freed now, the table's wrapper no longer holds
      // them until a collection (which left every batch in parquet-wasm's memory).
      const parts = wasmTable.recordBatches();
      wasmTable.free();
      for (const batch of parts) controller.enqueue(batch);
    },
  });
  const parts: Uint8Array[] = [];
  for await (const part of await pq.transformParquetStream(batches, writerProperties(pq))) {
    parts.push(part as Uint8Array);
  }
  // The file usually comes as one part (its one row group written at the end), which
  // concatBytes returns as it is, not copied (47 MB at 1,000,000 tasks, at the peak of
  // `gate analyze`).
  return concatBytes(parts);
}

/**
 * The table as Parquet bytes (ZSTD, parquet-wasm's defaults otherwise);
 * column types as {@linkcode tidyArrowIpc}, except that a boolean column
 * without any value is written as a text column of nulls. A table of more
 * than {@linkcode PARQUET_STREAM_ROWS} rows is encoded in batches.
 *
 * @param table The table.
 * @param options `onProgress`: told the rows encoded, 0 as it starts, then after each batch
 *   (once, at the end, for a table encoded in one batch).
 * @returns The Parquet file's bytes.
 *
 * @example
 * ```ts
 * import { tidyParquet } from "./tidy_parquet.ts";
 * import { readParquet } from "npm:parquet-wasm@0.8.0/bundler";
 * import { tableFromIPC } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const bytes = await tidyParquet({ name: "t", rows: 2, columns: [{ name: "x", kind: "f64", values: [0.1, 1 / 3] }] });
 * deepEqual([...tableFromIPC(readParquet(bytes).intoIPCStream()).getChild("x")!], [0.1, 1 / 3]);
 * // A boolean column with no value: a text column of nulls.
 * const none = await tidyParquet({ name: "t", rows: 2, columns: [{ name: "b", kind: "bool", values: [null, null] }] });
 * const b = tableFromIPC(readParquet(none).intoIPCStream()).getChild("b")!;
 * deepEqual([[...b], String(b.type)], [[null, null], "Utf8"]);
 * ```
 */
export async function tidyParquet(
  table: TidyTable,
  options: { readonly onProgress?: ProgressCallback } = {},
): Promise<Uint8Array> {
  const { onProgress } = options;
  onProgress?.(0, table.rows);
  const writable = writableInParquet(table);
  const pq = await import("npm:parquet-wasm@0.8.0/bundler");
  if (table.rows > PARQUET_STREAM_ROWS) return await streamedParquet(writable, pq, onProgress);
  const ipc = await tidyArrowIpc(writable);
  // The Arrow vectors are garbage now; collected (large tables only) before parquet-wasm copies
  // the stream into its own memory, which the collector does not count.
  releaseMemory(table.columns[0]?.values.length ?? 0);
  const bytes = pq.writeParquet(pq.Table.fromIPCStream(ipc), writerProperties(pq));
  onProgress?.(table.rows, table.rows);
  return bytes;
}
