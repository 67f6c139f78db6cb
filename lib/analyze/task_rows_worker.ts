/**
 * Web Worker of {@linkcode renderTaskRowsAside}: writes the `tasks` text
 * of contributions.json from plain columns to a file, then posts `true`
 * (or the error's message).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { taskRowPieces, type TaskRowText } from "./task_rows.ts";
import { writeTextPieces } from "../core/text_pieces.ts";

self.onmessage = async (event: MessageEvent) => {
  const { data, indent, path } = event.data as { data: TaskRowText; indent: string; path: string };
  try {
    using file = await Deno.open(path, { write: true, truncate: true });
    await writeTextPieces(file, taskRowPieces(data, indent));
    self.postMessage(true);
  } catch (error) {
    self.postMessage(error instanceof Error ? error.message : String(error));
  }
};
