import type { SqlTableData } from "./sql_schema.ts";
import { arrowColumn } from "../tidy/arrow_columns.ts";

/**
 * A table's data as an Arrow IPC stream (the fast way into DuckDB):
 * `str` as Utf8, `f64` as Float64, `i32` as Int32, `bool` as Bool; null
 * values are NULL (columns built directly, lib/tidy/arrow_columns.ts).
 * apache-arrow is imported on call.
 *
 * @param table The table's data.
 * @returns The IPC stream bytes.
 *
 * @example
 * ```ts
 * import { arrowIpcStream } from "./arrow_ipc.ts";
 * import { tableFromIPC } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const bytes = await arrowIpcStream({ rows: 2, columns: [{ name: "x", kind: "i32", values: [1, null] }] });
 * deepEqual([...tableFromIPC(bytes).getChild("x")!], [1, null]);
 * ```
 */
export async function arrowIpcStream(table: SqlTableData): Promise<Uint8Array> {
  const arrow = await import("npm:apache-arrow@17.0.0");
  // deno-lint-ignore no-explicit-any
  const vectors: Record<string, any> = {};
  for (const { name, kind, values } of table.columns) {
    vectors[name] = arrowColumn(arrow, kind, values);
  }
  return arrow.tableToIPC(new arrow.Table(vectors), "stream");
}
