import type { Issue } from "../core/issue.ts";
import { concatBytes } from "../core/bytes.ts";
import { parseJsonText } from "./json_text.ts";
import { openRegularFile } from "./regular_file.ts";

/** Options of {@linkcode forEachJsonlLine}. */
export interface JsonlOptions {
  /**
   * Called with every raw byte chunk as read (e.g. to hash the file while
   * streaming). The chunk is a view of a reused buffer: copy what you keep.
   */
  readonly onBytes?: (chunk: Uint8Array) => void;
  /** Name of the file in issues. @default {path} */
  readonly label?: string;
  /**
   * Receives each parse issue as it is found (so a caller can keep its
   * issues in line order); when given, the returned array stays empty.
   */
  readonly onIssue?: (issue: Issue) => void;
}

/**
 * Reads a JSONL file line by line without holding it in memory: every
 * non-blank line is parsed as JSON and passed to `visit` with its one-based
 * line number. Blank lines (nothing but spaces, tabs and carriage returns:
 * JSON's whitespace, not Unicode's) are skipped; `\r\n` endings are
 * accepted, and a byte-order mark at the start of the file is skipped. A line that is not valid UTF-8, not valid JSON (see
 * `parseJsonText`: a key twice in one object, or nesting deeper than
 * `MAX_JSON_DEPTH`, is refused too), or not a JSON object becomes a
 * `parse_error` issue naming file and line, and reading goes on. Only a
 * regular file is opened (a FIFO would block forever).
 *
 * @param path File to read.
 * @param visit Called for every parsed object line.
 * @param options Byte hook and file label.
 * @returns The parse issues, in line order.
 * @throws Deno.errors.NotFound, `NotRegularFileError` and other I/O errors when the file cannot be read.
 *
 * @example
 * ```ts
 * import { forEachJsonlLine } from "./jsonl.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a":1}\n\n{oops\r\n[1]\n{"a":2}');
 * const seen: number[] = [];
 * const issues = await forEachJsonlLine(path, (_obj, line) => seen.push(line), { label: "x.jsonl" });
 * deepEqual(seen, [1, 5]);
 * deepEqual(issues.map((i) => `${i.code} ${i.file}:${i.line}`), ["parse_error x.jsonl:3", "parse_error x.jsonl:4"]);
 * await Deno.remove(path);
 * ```
 */
export async function forEachJsonlLine(
  path: string,
  visit: (value: Record<string, unknown>, line: number) => void,
  options: JsonlOptions = {},
): Promise<Issue[]> {
  const label = options.label ?? path;
  const issues: Issue[] = [];
  const report = options.onIssue ?? ((issue: Issue) => void issues.push(issue));
  const fail = (message: string, line: number, path?: string) =>
    report({ code: "parse_error", message, file: label, line, ...(path ? { path } : {}) });
  let lineNo = 0;
  const handleText = (text: string) => {
    lineNo++;
    // The file's byte-order mark, if any, is not part of its first line.
    const trimmed = asciiTrim(lineNo === 1 && text.startsWith("\uFEFF") ? text.slice(1) : text);
    if (trimmed === "") return;
    const parsed = parseJsonText(trimmed);
    if (!parsed.ok) {
      fail(`line ${parsed.why}`, lineNo, parsed.path);
      return;
    }
    const value = parsed.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      fail(
        `line is not a JSON object (got ${
          Array.isArray(value) ? "array" : value === null ? "null" : typeof value
        })`,
        lineNo,
      );
      return;
    }
    visit(value as Record<string, unknown>, lineNo);
  };
  const handleBytes = (bytes: Uint8Array) => {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      lineNo++;
      fail("line is not valid UTF-8", lineNo);
      return;
    }
    handleText(text);
  };
  // Whole lines, cut on the byte 0x0A (never part of a multi-byte UTF-8
  // sequence), decoded together; only when that fails is each line decoded
  // alone, to name the one that is not UTF-8.
  const handleLines = (bytes: Uint8Array) => {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      let start = 0;
      for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, start)) {
        handleBytes(bytes.subarray(start, nl));
        start = nl + 1;
      }
      handleBytes(bytes.subarray(start));
      return;
    }
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      handleText(text.slice(start, nl));
      start = nl + 1;
    }
    handleText(text.slice(start));
  };
  // The pieces of a line that spans chunks are copied into a list and joined
  // once, so a long line costs time linear in its length.
  const pieces: Uint8Array[] = [];
  using file = await openRegularFile(path);
  // One buffer, read into again and again, synchronously: the file's stream
  // costs an asynchronous round trip per chunk (a fifth of a large read),
  // and chunks larger than this make text the collector frees late.
  const buffer = new Uint8Array(CHUNK_BYTES);
  for (let n = file.readSync(buffer); n !== null; n = file.readSync(buffer)) {
    const chunk = buffer.subarray(0, n);
    options.onBytes?.(chunk);
    const first = chunk.indexOf(NEWLINE);
    if (first === -1) {
      pieces.push(chunk.slice());
      continue;
    }
    pieces.push(chunk.subarray(0, first));
    handleBytes(concatBytes(pieces));
    pieces.length = 0;
    const last = chunk.lastIndexOf(NEWLINE);
    if (last > first) handleLines(chunk.subarray(first + 1, last));
    if (last + 1 < chunk.length) pieces.push(chunk.slice(last + 1));
  }
  if (pieces.length > 0) handleBytes(concatBytes(pieces));
  return issues;
}

const NEWLINE = 10;
/** Bytes read at a time. */
const CHUNK_BYTES = 1 << 16;
/**
 * Decodes one line; invalid UTF-8 throws instead of becoming U+FFFD. A
 * U+FEFF is kept wherever it is (a default decoder drops one at the start
 * of every text it decodes, which here would depend on where lines fall in
 * the file's chunks); only the file's own byte-order mark is skipped.
 */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * `text` without JSON's whitespace (space, tab, CR) at either end. Not
 * `String.prototype.trim`, which also drops U+FEFF, U+3000, U+00A0 and the
 * other Unicode spaces: a line holding only those is not blank, it is a
 * `parse_error`.
 */
function asciiTrim(text: string): string {
  let a = 0, b = text.length;
  while (a < b && isJsonSpace(text.charCodeAt(a))) a++;
  while (b > a && isJsonSpace(text.charCodeAt(b - 1))) b--;
  return a === 0 && b === text.length ? text : text.slice(a, b);
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}
