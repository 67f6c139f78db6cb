/**
 * The shared writer of every command's tidy tables: each table becomes
 * `<name>.csv` and `<name>.parquet` in the command's atomic output
 * directory (the caller adds these entries to the files it writes).
 *
 * @module
 */
import type { FileContents } from "../core/atomic_write.ts";
import { tidyCsv, type TidyTable } from "./tidy_table.ts";
import { tidyParquet } from "./tidy_parquet.ts";

/**
 * `<name>.csv` and `<name>.parquet` for every table, ready for
 * `writeFilesAtomic` beside the command's JSON.
 *
 * @param tables The tables.
 * @returns File name to contents.
 *
 * @example
 * ```ts
 * import { tidyFiles } from "./tidy_files.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = await tidyFiles([{ name: "t", rows: 1, columns: [{ name: "x", kind: "i32", values: [7] }] }]);
 * deepEqual([Object.keys(files), [...(files["t.csv"] as Iterable<string>)].join("")], [["t.csv", "t.parquet"], "x\n7\n"]);
 * ```
 */
export async function tidyFiles(
  tables: readonly TidyTable[],
): Promise<Record<string, FileContents>> {
  const files: Record<string, FileContents> = {};
  for (const table of tables) {
    files[`${table.name}.csv`] = tidyCsv(table);
    files[`${table.name}.parquet`] = await tidyParquet(table);
  }
  return files;
}
