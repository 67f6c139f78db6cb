/**
 * JSON text in chunks: the same bytes as `JSON.stringify(value, null, 2) +
 * "\n"`, produced piece by piece so a large output (contributions.json
 * holds one entry per paired row) never has to exist as one string (V8
 * refuses strings beyond about 512 MiB: "Invalid string length").
 * `writeFilesAtomic` writes such an iterable chunk by chunk.
 *
 * @module
 */

/**
 * Key under which a value offers its own JSON text to `jsonChunks`: a
 * function of the current indentation that yields the text of the value
 * exactly as `JSON.stringify(value, null, 2)` writes it at that depth
 * (`taskRows` in lib/analyze/task_rows.ts streams its rows this way).
 */
export const JSON_PIECES: unique symbol = Symbol("gatelab.jsonPieces");

/** A value that writes its own JSON text (see {@linkcode JSON_PIECES}). */
export interface JsonPieces {
  [JSON_PIECES](indent: string): Iterable<string>;
}

/** Text written verbatim in place of a value (e.g. `0.0`, which JSON.stringify writes as `0`). */
export class RawJson {
  constructor(readonly text: string) {}
  /** Parsed value, so `JSON.stringify` of the same object writes the number. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Size a chunk grows to before it is handed out (characters). */
const CHUNK = 1 << 16;

/**
 * Yields `JSON.stringify(value, null, 2) + "\n"` in chunks of about 64 KiB
 * ({@linkcode RawJson} values are written as their text, a value with a
 * {@linkcode JSON_PIECES} method as the pieces it yields).
 *
 * @param value A JSON-ready value (plain objects, arrays, strings, numbers,
 *   booleans, null; `undefined` and functions are dropped or written as
 *   null exactly as JSON.stringify does; `toJSON` is honoured).
 * @returns An iterable of strings whose concatenation is the JSON text.
 *
 * @example Same bytes as JSON.stringify
 * ```ts
 * import { jsonChunks, RawJson } from "./json_stream.ts";
 * import { deepEqual } from "node:assert/strict";
 * const value = { a: [1, { b: null }, []], c: {}, d: "x\n" };
 * deepEqual([...jsonChunks(value)].join(""), JSON.stringify(value, null, 2) + "\n");
 * deepEqual([...jsonChunks({ intercept: new RawJson("0.0") })].join(""), '{\n  "intercept": 0.0\n}\n');
 * ```
 */
export function* jsonChunks(value: unknown): Generator<string, void, undefined> {
  let buffer = "";
  function* flush(force: boolean): Generator<string, void, undefined> {
    if (buffer.length >= CHUNK || (force && buffer.length > 0)) {
      yield buffer;
      buffer = "";
    }
  }
  function* write(v: unknown, indent: string): Generator<string, void, undefined> {
    if (v instanceof RawJson) {
      buffer += v.text;
      return;
    }
    if (v !== null && typeof v === "object" && JSON_PIECES in v) {
      for (const piece of (v as JsonPieces)[JSON_PIECES](indent)) {
        buffer += piece;
        yield* flush(false);
      }
      return;
    }
    if (
      v !== null && typeof v === "object" &&
      typeof (v as { toJSON?: unknown }).toJSON === "function"
    ) {
      v = (v as { toJSON: (key: string) => unknown }).toJSON("");
    }
    if (v === null || typeof v !== "object") {
      buffer += JSON.stringify(v) ?? "null";
      return;
    }
    const inner = indent + "  ";
    if (Array.isArray(v)) {
      if (v.length === 0) {
        buffer += "[]";
        return;
      }
      buffer += "[\n";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) buffer += ",\n";
        buffer += inner;
        const item = v[i];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") {
          buffer += "null";
        } else yield* write(item, inner);
        yield* flush(false);
      }
      buffer += "\n" + indent + "]";
      return;
    }
    let first = true;
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      buffer += (first ? "{\n" : ",\n") + inner + JSON.stringify(key) + ": ";
      first = false;
      yield* write(item, inner);
      yield* flush(false);
    }
    buffer += first ? "{}" : "\n" + indent + "}";
  }
  yield* write(value, "");
  buffer += "\n";
  yield* flush(true);
}
