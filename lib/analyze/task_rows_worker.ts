/**
 * Web Worker of {@linkcode startTaskRowsAside}: writes the `tasks` text
 * of contributions.json from the packed columns to a file, then posts `true`
 * (or the error's message).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { taskRowPieces } from "./task_rows.ts";
import { type PackedTaskRows, unpackTaskRows } from "./task_rows_aside.ts";
import { writeTextPieces } from "../core/text_pieces.ts";

self.onmessage = async (event: MessageEvent) => {
  const { rows, indent, path } = event.data as {
    rows: PackedTaskRows;
    indent: string;
    path: string;
  };
  try {
    using file = await Deno.open(path, { write: true, truncate: true });
    await writeTextPieces(file, taskRowPieces(unpackTaskRows(rows), indent));
    self.postMessage(true);
  } catch (error) {
    self.postMessage(error instanceof Error ? error.message : String(error));
  }
};
