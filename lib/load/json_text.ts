/**
 * Deepest nesting of arrays and objects gatelab reads (docs/FORMAT.md,
 * "Extensions"). Deeper JSON is a `parse_error`: the comparisons that walk
 * provenance would otherwise run out of stack.
 */
export const MAX_JSON_DEPTH = 256;

/** Result of {@linkcode parseJsonText}: the value, or why the text is refused. */
export type JsonText =
  | { readonly ok: true; readonly value: unknown }
  | {
    readonly ok: false;
    readonly why: string;
    /**
     * Where in the value: the duplicated key, or the value nested too deep,
     * as a dotted path (`[]` for an array's items, e.g. `a[].b.c`); absent
     * for text that is not JSON.
     */
    readonly path?: string;
  };

const QUOTE = 34, BACKSLASH = 92, COLON = 58;
const OPEN_BRACE = 123, CLOSE_BRACE = 125, OPEN_BRACKET = 91, CLOSE_BRACKET = 93;

/** Results of the last {@linkcode scanStructure}. */
let scannedDepth = 0, scannedMembers = 0;

/**
 * One pass over JSON text outside its strings: the deepest nesting and the
 * number of `:` separators (in valid JSON, exactly one per object member),
 * left in scannedDepth and scannedMembers. Not returned as an object: V8
 * kept dropping the optimised code of this loop over the fresh object
 * literal it returned (about 180 times in a 40,000-row read).
 */
function scanStructure(text: string): void {
  let depth = 0, maxDepth = 0, members = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i) + 1;
      continue;
    }
    if (c === COLON) members++;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) maxDepth = depth;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    i++;
  }
  scannedDepth = maxDepth;
  scannedMembers = members;
}

/**
 * Index of the quote that closes the string opened at `open` (a quote not
 * escaped by an odd run of backslashes), or the text's last index.
 */
function stringEnd(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  while (j !== -1) {
    let backslashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if ((backslashes & 1) === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return text.length - 1;
}

/** How often `char` occurs in `text`, counted up to just past `limit`. */
function occurrences(text: string, char: string, limit: number): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1 && n <= limit; i = text.indexOf(char, i + 1)) n++;
  return n;
}

function notJson(error: unknown): JsonText {
  return { ok: false, why: `is not valid JSON: ${error instanceof Error ? error.message : error}` };
}

/** Members of every object in a parsed value (its depth is already bounded). */
function countMembers(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += countMembers(item);
    return n;
  }
  // for-in, not Object.keys: no array per object. A parsed object's prototype is Object's,
  // whose properties are not enumerable, so these are its own keys.
  const object = value as Record<string, unknown>;
  for (const key in object) n += 1 + countMembers(object[key]);
  return n;
}

/** One open object (its keys so far) or array (`keys` null) while walking JSON text. */
interface Frame {
  readonly keys: Set<string> | null;
  /** Dotted path of this object or array (`[]` for an array's items). */
  readonly path: string;
  /** The key whose value comes next (objects). */
  last: string;
}

/** `path` joined with `key` (a top-level key has no leading dot). */
function child(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/**
 * Walks (valid) JSON text outside its strings, keeping a frame per open
 * object or array, and returns the path that `stop` names: called after
 * each `:` (with the key in the top frame's `last`) and each opening
 * bracket (its frame pushed), it returns "key" to stop at the key just
 * read, "deep" to stop at the frame just opened, or null to go on. The
 * empty path when it never stops.
 */
function walkFrames(
  text: string,
  stop: (c: number, frames: readonly Frame[], key: string) => "key" | "deep" | null,
): string {
  const frames: Frame[] = [];
  let lastString = "";
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i = stringEnd(text, i);
      try {
        lastString = JSON.parse(text.slice(start, i + 1)) as string;
      } catch {
        lastString = text.slice(start + 1, i); // text too deep to have been parsed: as written
      }
    } else if (c === COLON) {
      const top = frames[frames.length - 1];
      if (top === undefined || top.keys === null) continue; // not JSON: no key here
      if (stop(c, frames, lastString) === "key") return child(top.path, lastString);
      top.keys.add(lastString);
      top.last = lastString;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const parent = frames[frames.length - 1];
      const path = parent === undefined
        ? ""
        : parent.keys === null
        ? `${parent.path}[]`
        : child(parent.path, parent.last);
      frames.push({ keys: c === OPEN_BRACE ? new Set() : null, path, last: "" });
      if (stop(c, frames, "") === "deep") return path;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) frames.pop();
  }
  return "";
}

/**
 * The first key that occurs twice in one object of (valid) JSON text, as
 * a dotted path (the object's path, then the key). Only called once a
 * duplicate is known to exist, to name it.
 */
function firstDuplicateKey(text: string): string {
  return walkFrames(
    text,
    (c, frames, key) => c === COLON && frames[frames.length - 1]!.keys!.has(key) ? "key" : null,
  );
}

/**
 * Parses JSON text strictly: like `JSON.parse`, but nesting deeper than
 * {@linkcode MAX_JSON_DEPTH} and a key that occurs twice in one object
 * (which `JSON.parse` silently resolves to the last value) are refused with
 * a reason, as is text that is not JSON. Linear in the text's length.
 *
 * @param text JSON text.
 * @returns The value, or `why` it was refused, worded to follow "line" or "file"
 *   in a `parse_error` message (`is not valid JSON: ...`).
 *
 * @example
 * ```ts
 * import { parseJsonText } from "./json_text.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(parseJsonText('{"a": [1, {"b": ":"}]}'), { ok: true, value: { a: [1, { b: ":" }] } });
 * deepEqual(parseJsonText('{"a": {"b": 1, "b": 2}}'), { ok: false, why: 'has the key "a.b" twice in one object (JSON allows each key once)', path: "a.b" });
 * deepEqual(parseJsonText("[".repeat(300) + "]".repeat(300)).ok, false);
 * ```
 */
export function parseJsonText(text: string): JsonText {
  // With at most MAX_JSON_DEPTH brackets the text cannot nest deeper, so it
  // is parsed before any scan; and when its ":" characters (found natively)
  // are as many as the parsed value's members, none is inside a string and
  // no key was dropped as a duplicate. Otherwise the full scan decides.
  const shallow = occurrences(text, "{", MAX_JSON_DEPTH) + occurrences(text, "[", MAX_JSON_DEPTH) <=
    MAX_JSON_DEPTH;
  let value: unknown, members = -1;
  if (shallow) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return notJson(error);
    }
    members = countMembers(value);
    if (occurrences(text, ":", Infinity) === members) return { ok: true, value };
  }
  scanStructure(text);
  const depth = scannedDepth;
  if (depth > MAX_JSON_DEPTH) {
    return {
      ok: false,
      why: `is nested ${depth} levels deep; at most ${MAX_JSON_DEPTH} levels are read`,
      path: walkFrames(text, (_c, frames) => frames.length > MAX_JSON_DEPTH ? "deep" : null),
    };
  }
  if (!shallow) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return notJson(error);
    }
    members = countMembers(value);
  }
  if (members !== scannedMembers) {
    const key = firstDuplicateKey(text);
    return {
      ok: false,
      why: `has the key ${JSON.stringify(key)} twice in one object (JSON allows each key once)`,
      path: key,
    };
  }
  return { ok: true, value };
}
