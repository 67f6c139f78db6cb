/**
 * Web Worker of {@linkcode startTidyEncoder}: loads the Parquet libraries as
 * it starts, then encodes each posted table (or the `tasks` table, built
 * here from the dataset's posted columns) into its CSV pieces, as UTF-8 and
 * with the row count `tidyCsv` reports after each, and its Parquet bytes,
 * the same bytes as on the calling thread. An error is posted back as
 * `{ id, error }`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { tidyParquet } from "../tidy/tidy_parquet.ts";
import { tidyCsv, type TidyTable } from "../tidy/tidy_table.ts";
import { tasksTableOfText } from "./analyze_tidy.ts";
import type { TaskRowText } from "./task_rows.ts";

// Loaded as the worker starts, beside the calling thread's fit.
const libraries = Promise.all([
  import("npm:apache-arrow@17.0.0"),
  import("npm:parquet-wasm@0.8.0/bundler"),
]);

self.onmessage = async (event: MessageEvent) => {
  const { id, table, tasks, csv } = event.data as {
    id: number;
    table?: TidyTable;
    tasks?: TaskRowText;
    csv: boolean;
  };
  try {
    await libraries;
    const source = table ?? tasksTableOfText(tasks!);
    const pieces: Uint8Array[] = [];
    const rowsAt: number[] = [];
    if (csv) {
      const utf8 = new TextEncoder();
      const csvPieces = tidyCsv(source, { onProgress: (done) => rowsAt.push(done) });
      for (const piece of csvPieces) pieces.push(utf8.encode(piece));
    }
    const parquet = await tidyParquet(source);
    self.postMessage({ id, pieces, rowsAt, parquet }, pieces.map((p) => p.buffer as ArrayBuffer));
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
