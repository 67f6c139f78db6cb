/**
 * Deepest nesting of arrays and objects gatelab reads (docs/FORMAT.md,
 * "Extensions"). Deeper JSON is a `parse_error`: the comparisons that walk
 * provenance would otherwise run out of stack.
 */
export const MAX_JSON_DEPTH = 256;

/** Result of {@linkcode parseJsonText}: the value, or why the text is refused. */
export type JsonText =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly why: string };

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
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) n += 1 + countMembers(object[key]);
  return n;
}

/**
 * The first key that occurs twice in one object of (valid) JSON text, and
 * the dotted path of that object. Only called once a duplicate is known to
 * exist, to name it.
 */
function firstDuplicateKey(text: string): string {
  // One frame per open object/array: its keys (null for arrays) and path.
  const frames: { keys: Set<string> | null; path: string; last: string }[] = [];
  let lastString = "";
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i = stringEnd(text, i);
      lastString = JSON.parse(text.slice(start, i + 1)) as string;
    } else if (c === COLON) {
      const top = frames[frames.length - 1]!;
      if (top.keys!.has(lastString)) {
        return top.path === "" ? lastString : `${top.path}.${lastString}`;
      }
      top.keys!.add(lastString);
      top.last = lastString;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const parent = frames[frames.length - 1];
      const path = parent === undefined
        ? ""
        : parent.keys === null
        ? `${parent.path}[]`
        : parent.path === ""
        ? parent.last
        : `${parent.path}.${parent.last}`;
      frames.push({ keys: c === OPEN_BRACE ? new Set() : null, path, last: "" });
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) frames.pop();
  }
  return "";
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
 * deepEqual(parseJsonText('{"a": {"b": 1, "b": 2}}'), { ok: false, why: 'has the key "a.b" twice in one object (JSON allows each key once)' });
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
    return {
      ok: false,
      why: `has the key ${
        JSON.stringify(firstDuplicateKey(text))
      } twice in one object (JSON allows each key once)`,
    };
  }
  return { ok: true, value };
}
