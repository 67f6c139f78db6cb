/**
 * Web Worker of {@linkcode startTidyEncoder}: loads the Parquet libraries as
 * it starts, then runs `encodeHere` on each posted table (or the `tasks`
 * table's posted columns), so the bytes are the calling thread's. An error
 * is posted back as `{ id, error }`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { encodeHere, type EncodeSource } from "./encoder.ts";

// Loaded as the worker starts, beside the calling thread's fit.
const libraries = Promise.all([
  import("npm:apache-arrow@17.0.0"),
  import("npm:parquet-wasm@0.8.0/bundler"),
]);

self.onmessage = async (event: MessageEvent) => {
  const { id, csv, ...source } = event.data as { id: number; csv: boolean } & EncodeSource;
  try {
    await libraries;
    const { pieces, rowsAt, parquet } = await encodeHere(source, csv);
    self.postMessage({ id, pieces, rowsAt, parquet }, pieces.map((p) => p.buffer as ArrayBuffer));
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
