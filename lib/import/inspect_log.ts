/**
 * Reading inspect_ai logs with bounded memory (docs/import.md, "inspect_ai
 * logs"): a `.eval` zip through its central directory, reading only
 * `header.json` and the `samples/*.json` entries, each inflated as a
 * stream and checked (lib/import/zip_archive.ts); a `.json` log as a stream
 * of its members and its `samples` one by one
 * (lib/import/json_object_stream.ts). Samples are handed to the caller one
 * at a time and not kept.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Issue } from "../core/issue.ts";
import { parseJsonText } from "../load/json_text.ts";
import { JsonObjectStream, JsonStreamError } from "./json_object_stream.ts";
import { openZip, type ZipEntry } from "./zip_archive.ts";

/**
 * The largest part of a log read by default, in bytes (256 MiB): a zip
 * entry of a `.eval` log (uncompressed, as declared and as inflated), or one
 * member or one sample of a `.json` log. `--max-entry-bytes` raises it.
 */
export const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** An inspect_ai log as read, without its samples. */
export interface InspectLog {
  readonly file: string;
  /** The header: `eval`, `plan`, `results`, `stats`, ... (a `.json` log's members but `samples`). */
  readonly header: Record<string, unknown>;
  readonly sha256: string;
  readonly format: "eval" | "json";
  /** How many samples were handed on. */
  readonly samples: number;
}

/**
 * Receives a log's samples in log order: the sample, its 1-based number in
 * the log, and the zip entry it came from (null in a `.json` log).
 */
export type SampleHandler = (
  sample: Record<string, unknown>,
  number: number,
  entry: string | null,
) => void;

const READ_CHUNK = 1 << 20;

/** Reads a file in chunks (a fresh array each, so a kept piece is never overwritten). */
async function forEachChunk(file: string, each: (chunk: Uint8Array) => void): Promise<void> {
  using handle = await Deno.open(file, { read: true });
  for (;;) {
    const buffer = new Uint8Array(READ_CHUNK);
    const n = await handle.read(buffer);
    if (n === null) return;
    each(buffer.subarray(0, n));
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Reads an inspect_ai log: a `.eval` file (a zip holding `header.json` and
 * one `samples/<id>_epoch_<n>.json` per sample) or a `.json` file (one
 * object with `eval`, `plan`, `results`, `stats` and `samples`), handing
 * each sample to `onSample`. An unreadable, truncated, forged or foreign
 * file, and a part past `maxEntryBytes`, is a `parse_error` naming the file
 * (and the entry).
 *
 * @param file The log file.
 * @param maxEntryBytes The largest part read (see {@linkcode DEFAULT_MAX_ENTRY_BYTES}).
 * @param onSample Receives each sample.
 * @returns The log, or the issue.
 *
 * @example A `.json` log with two samples
 * ```ts
 * import { readInspectLog } from "./inspect_log.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, JSON.stringify({ eval: { model: "m" }, samples: [{ id: 1, epoch: 1 }, { id: 2, epoch: 1 }] }));
 * const ids: unknown[] = [];
 * const log = await readInspectLog(path, 1 << 20, (s, n) => ids.push([n, s.id]));
 * await Deno.remove(path);
 * if ("code" in log) throw new Error(log.message);
 * deepEqual([log.header, log.samples, ids], [{ eval: { model: "m" } }, 2, [[1, 1], [2, 2]]]);
 * ```
 */
export async function readInspectLog(
  file: string,
  maxEntryBytes: number,
  onSample: SampleHandler,
): Promise<InspectLog | Issue> {
  try {
    return file.toLowerCase().endsWith(".eval")
      ? await readEvalLog(file, maxEntryBytes, onSample)
      : await readJsonLog(file, maxEntryBytes, onSample);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.PermissionDenied) {
      return { code: "io_error", message: `cannot read: ${error}`, file };
    }
    throw error;
  }
}

async function readJsonLog(
  file: string,
  maxEntryBytes: number,
  onSample: SampleHandler,
): Promise<InspectLog | Issue> {
  const header: Record<string, unknown> = {};
  let samples = 0;
  let bad: Issue | null = null;
  const stream = new JsonObjectStream("samples", maxEntryBytes, {
    member: (key, value) => {
      header[key] = value;
    },
    element: (value, index) => {
      if (bad !== null) return;
      if (!isObject(value)) {
        bad = {
          code: "parse_error",
          message: `sample ${index + 1} of the log is not a JSON object`,
          file,
          line: index + 1,
        };
        return;
      }
      samples++;
      onSample(value, index + 1, null);
    },
  });
  const hash = createHash("sha256");
  try {
    await forEachChunk(file, (chunk) => {
      hash.update(chunk);
      stream.push(chunk);
    });
    stream.end();
  } catch (error) {
    if (!(error instanceof JsonStreamError)) throw error;
    return { code: "parse_error", message: `the log ${error.message}`, file };
  }
  if (bad !== null) return bad;
  const listed = header["samples"];
  if (listed !== undefined && listed !== null) {
    return {
      code: "parse_error",
      message: "the log's samples is not a list of samples",
      file,
      path: "samples",
    };
  }
  delete header["samples"];
  return { file, header, sha256: hash.digest("hex"), format: "json", samples };
}

async function readEvalLog(
  file: string,
  maxEntryBytes: number,
  onSample: SampleHandler,
): Promise<InspectLog | Issue> {
  const hash = createHash("sha256");
  await forEachChunk(file, (chunk) => hash.update(chunk));
  const zip = await openZip(file, maxEntryBytes);
  if (typeof zip === "string") {
    return {
      code: "parse_error",
      message: `cannot read as an inspect_ai .eval log: the file ${zip}`,
      file,
    };
  }
  try {
    const refuse = (message: string, entry?: string): Issue => ({
      code: "parse_error",
      message,
      file,
      ...(entry !== undefined ? { path: entry } : {}),
    });
    /** The entry's JSON object, or the issue (an Issue is never an array). */
    const object = async (
      entry: ZipEntry,
    ): Promise<[Record<string, unknown>] | Issue> => {
      const name = entry.name;
      const bytes = await zip.read(entry);
      if (typeof bytes === "string") return refuse(`cannot read the .eval log's ${bytes}`, name);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        return refuse(`${name} is not valid UTF-8`, name);
      }
      const parsed = parseJsonText(text);
      if (!parsed.ok) return refuse(`${name} ${parsed.why}`, name);
      if (!isObject(parsed.value)) return refuse(`${name} is not a JSON object`, name);
      return [parsed.value];
    };
    const headers = zip.entries.filter((e) => e.name === "header.json");
    if (headers.length > 1) {
      return refuse(
        `the .eval log holds ${headers.length} entries named header.json; inspect_ai writes one (it drops the old one when it rewrites the header): gatelab refuses rather than choose one`,
        "header.json",
      );
    }
    const headerEntry = headers[0];
    if (headerEntry === undefined) {
      return refuse(
        "the .eval log has no header.json (an unfinished run? inspect_ai writes it when the eval ends)",
      );
    }
    const header = await object(headerEntry);
    if (!Array.isArray(header)) return header;
    let samples = 0;
    for (const entry of zip.entries) {
      if (!/^samples\/.+\.json$/.test(entry.name)) continue;
      const sample = await object(entry);
      if (!Array.isArray(sample)) return sample;
      samples++;
      onSample(sample[0], samples, entry.name);
    }
    return { file, header: header[0], sha256: hash.digest("hex"), format: "eval", samples };
  } finally {
    zip.close();
  }
}
