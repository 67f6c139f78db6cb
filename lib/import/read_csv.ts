import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";
import { sha256Hex } from "../core/sha256.ts";

const QUOTE = 0x22, LF = 0x0a, CR = 0x0d;

/** Exact powers of ten (10^0 .. 10^22 are exactly representable doubles). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Number text as gatelab reads it from CSV: optional sign, digits, point, exponent, spaces around. */
const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The value a cell that is not a number parses to (never a number a cell can hold). */
const NOT_A_NUMBER = Symbol("not a number");

/**
 * The number `s[a, b)` writes, or {@linkcode NOT_A_NUMBER}. Plain decimals
 * of at most 15 digits with at most 22 after the point (what Python's
 * `repr` and pandas write for most values) are parsed without a string:
 * the digits as an exact integer m, then m / 10^f, one IEEE division of two
 * exact doubles, which is correctly rounded (Clinger's fast path), so the
 * same double as `Number(text)`. Anything else (exponents, spaces, longer
 * digit strings) is cut out and read by `Number` after the grammar check.
 */
function numberAt(s: string, a: number, b: number): number | typeof NOT_A_NUMBER {
  let i = a, negative = false;
  const first = s.charCodeAt(i);
  if (first === 0x2d || first === 0x2b) {
    negative = first === 0x2d;
    i++;
  }
  let m = 0, digits = 0, fraction = -1;
  for (; i < b; i++) {
    const c = s.charCodeAt(i) - 0x30;
    if (c >= 0 && c <= 9) {
      m = m * 10 + c;
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === -2 && fraction < 0) fraction = 0; // "."
    else break;
  }
  if (i === b && digits > 0 && digits <= 15) {
    const x = fraction > 0 ? m / POW10[fraction]! : m;
    return negative ? -x : x;
  }
  const text = s.slice(a, b);
  return NUMBER_TEXT.test(text) ? Number(text) : NOT_A_NUMBER;
}

/** Boolean text as DuckDB's CSV reader types it (any case): true, false, t, f. */
function booleanAt(s: string, a: number, b: number): boolean | null {
  const t = s.slice(a, b).toLowerCase();
  return t === "true" || t === "t" ? true : t === "false" || t === "f" ? false : null;
}

/**
 * Reads a CSV or TSV file with gatelab's own strict streaming parser
 * (RFC 4180): a header row, fields separated by the delimiter (`,` or a
 * tab), quoted fields with `""` for a quote and delimiters and line breaks
 * inside, rows ended by CRLF, LF or CR, a UTF-8 byte order mark skipped,
 * blank lines skipped. A row with more or fewer fields than the header, a
 * quote that is not closed, text after a closing quote, a quote inside an
 * unquoted field and bytes that are not UTF-8 are each a `parse_error`
 * naming the row (one-based, header excluded), the line of the file and
 * the column. A header cell without a name is named `column<i>` (its
 * zero-based position) and a repeated name gets `_1`, `_2`, ..., as
 * DuckDB's CSV reader names them.
 *
 * Cells are typed by the mapping, not sniffed from a sample: the columns
 * named in `text` (ids, arm, status, round, checkpoint, error, the injected
 * list) are always text, so an id such as `0001` stays `0001`. Any other
 * column is numbers when every non-empty cell is number text (parsed
 * correctly rounded, so floats written by Python's `repr` or pandas come
 * back bit for bit), else booleans when every one is `true`/`false`/`t`/`f`
 * in any case, else text. An empty cell, quoted or not, is `null`.
 *
 * @example A quoted field, an empty cell, typed columns
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/t.csv`, 'task_id,reward,note\r\n0001,0.25,"a, ""b"""\r\n0002,,\r\n');
 * const t = await readCsvTable(`${dir}/t.csv`, "csv", new Set(["task_id"]));
 * deepEqual(t, {
 *   file: `${dir}/t.csv`,
 *   format: "csv",
 *   columns: ["task_id", "reward", "note"],
 *   rows: 2,
 *   data: { task_id: ["0001", "0002"], reward: [0.25, null], note: ['a, "b"', null] },
 *   // sha256sum of the same bytes
 *   sha256: "dd86489b03405d1ccbeadd3c4db9e83bc95c90b98789f63655f7c76b9f8c0543",
 * });
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param file The file.
 * @param format `csv` (comma) or `tsv` (tab).
 * @param text Columns always read as text.
 * @returns The table, or the issue (the first problem of the file).
 */
export async function readCsvTable(
  file: string,
  format: "csv" | "tsv",
  text: ReadonlySet<string> = new Set(),
): Promise<SourceTable | Issue> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  let s: string;
  try {
    // The decoder drops a leading byte order mark.
    s = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { code: "parse_error", message: `cannot read as ${format}: not UTF-8 text`, file };
  }
  const table = parseDelimited(s, file, format, text);
  return "code" in table ? table : { ...table, sha256: sha256Hex(bytes) };
}

/** {@linkcode readCsvTable} on text already decoded. */
export function parseDelimited(
  s: string,
  file: string,
  format: "csv" | "tsv",
  text: ReadonlySet<string> = new Set(),
): SourceTable | Issue {
  const delim = format === "tsv" ? 0x09 : 0x2c;
  const n = s.length;
  let i = 0, line = 1, row = 0;
  // Bounds of every cell, row after row: start, end; a start written as ~start (negative)
  // marks a quoted cell holding doubled quotes, unescaped when it is cut out.
  let bounds = new Int32Array(1 << 16);
  let used = 0;
  let header: string[] | null = null;
  let columns = 0;
  const fail = (message: string, column: number) => ({
    code: "parse_error" as const,
    message: `cannot read as ${format}: ${message}${
      header === null ? " (header, line 1)" : ` (line ${line})`
    }`,
    file,
    ...(header === null ? {} : { line: row + 1 }),
    ...(header !== null && header[column] !== undefined ? { path: header[column] } : {}),
  });
  const headerCells: string[] = [];
  while (i < n) {
    const c0 = s.charCodeAt(i);
    if (c0 === LF || c0 === CR) {
      // A blank line.
      i += c0 === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      continue;
    }
    const rowLine = line;
    for (let c = 0;; c++) {
      let start: number, end: number;
      if (s.charCodeAt(i) === QUOTE) {
        let j = i + 1, escaped = false;
        for (;;) {
          const k = s.indexOf('"', j);
          if (k < 0) {
            line = rowLine;
            return fail("a quoted field is not closed", c);
          }
          if (s.charCodeAt(k + 1) === QUOTE) {
            escaped = true;
            j = k + 2;
          } else {
            j = k;
            break;
          }
        }
        start = i + 1;
        end = j;
        for (let k = start; k < end; k++) {
          const ch = s.charCodeAt(k);
          if (ch === LF || (ch === CR && s.charCodeAt(k + 1) !== LF)) line++;
        }
        if (escaped) start = ~start;
        i = j + 1;
        const next = s.charCodeAt(i);
        if (i < n && next !== delim && next !== LF && next !== CR) {
          return fail('text after a closing quote (a quote inside a field is written "")', c);
        }
      } else {
        start = i;
        for (; i < n; i++) {
          const ch = s.charCodeAt(i);
          if (ch === delim || ch === LF || ch === CR) break;
          if (ch === QUOTE) {
            return fail('a quote inside an unquoted field (quote the field, the quote as "")', c);
          }
        }
        end = i;
      }
      if (header === null) headerCells.push(cut(s, start, end) ?? "");
      else {
        if (c >= columns) {
          return fail(`the row has more fields than the header's ${columns}`, columns);
        }
        if (used + 2 > bounds.length) {
          const grown = new Int32Array(bounds.length * 2);
          grown.set(bounds);
          bounds = grown;
        }
        bounds[used++] = start;
        bounds[used++] = end;
      }
      const ch = s.charCodeAt(i);
      if (i < n && ch === delim) {
        i++;
        continue;
      }
      // The end of the row: a line break or the end of the text.
      if (header === null) {
        header = names(headerCells);
        columns = header.length;
      } else {
        if (c + 1 < columns) {
          return fail(`the row has ${c + 1} field(s), the header ${columns}`, c + 1);
        }
        row++;
      }
      if (i < n) {
        i += ch === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
        line++;
      }
      break;
    }
  }
  if (header === null) {
    return { code: "parse_error", message: `cannot read as ${format}: no header row`, file };
  }
  const data: Record<string, unknown[] | Float64Array> = {};
  for (let c = 0; c < columns; c++) {
    const name = header[c]!;
    data[name] = text.has(name)
      ? textColumn(s, bounds, c, columns, row)
      : numberColumn(s, bounds, c, columns, row) ?? booleanColumn(s, bounds, c, columns, row) ??
        textColumn(s, bounds, c, columns, row);
  }
  return { file, format, columns: header, rows: row, data };
}

/** Header names as DuckDB's reader makes them: `column<i>` for an empty one, `_<k>` for a repeat. */
function names(cells: readonly string[]): string[] {
  const out: string[] = [];
  const used = new Set<string>();
  cells.forEach((cell, i) => {
    const base = cell === "" ? `column${i}` : cell;
    let name = base;
    for (let k = 1; used.has(name); k++) name = `${base}_${k}`;
    used.add(name);
    out.push(name);
  });
  return out;
}

/** The cell `[start, end)` (start ~-encoded when it holds doubled quotes), null when empty. */
function cut(s: string, start: number, end: number): string | null {
  if (start < 0) return s.slice(~start, end).replaceAll('""', '"');
  return end > start ? s.slice(start, end) : null;
}

/** A column as text; a cell equal to the one above reuses its string (ids, arm, status repeat). */
function textColumn(
  s: string,
  bounds: Int32Array,
  c: number,
  columns: number,
  rows: number,
): (string | null)[] {
  const out: (string | null)[] = new Array(rows);
  let prev: string | null = null;
  for (let r = 0, k = 2 * c; r < rows; r++, k += 2 * columns) {
    const start = bounds[k]!, end = bounds[k + 1]!;
    if (
      start >= 0 && prev !== null && end - start === prev.length && s.startsWith(prev, start)
    ) {
      out[r] = prev;
      continue;
    }
    prev = cut(s, start, end);
    out[r] = prev;
  }
  return out;
}

/**
 * A column as numbers when every non-empty cell is number text, else null:
 * a Float64Array (no boxed number per cell) unless a cell is empty.
 */
function numberColumn(
  s: string,
  bounds: Int32Array,
  c: number,
  columns: number,
  rows: number,
): (number | null)[] | Float64Array | null {
  const out = new Float64Array(rows);
  let empty: number[] | null = null;
  for (let r = 0, k = 2 * c; r < rows; r++, k += 2 * columns) {
    const start = bounds[k]!, end = bounds[k + 1]!;
    // A cell with doubled quotes (start written as ~start) is not a number.
    if (start < 0) return null;
    if (end === start) {
      (empty ??= []).push(r);
      continue;
    }
    const x = numberAt(s, start, end);
    if (x === NOT_A_NUMBER) return null;
    out[r] = x;
  }
  if (empty === null) return out;
  const withNulls: (number | null)[] = Array.from(out);
  for (const r of empty) withNulls[r] = null;
  return withNulls;
}

/** A column as booleans when every non-empty cell is true/false/t/f (any case), else null. */
function booleanColumn(
  s: string,
  bounds: Int32Array,
  c: number,
  columns: number,
  rows: number,
): (boolean | null)[] | null {
  const out: (boolean | null)[] = new Array(rows);
  for (let r = 0, k = 2 * c; r < rows; r++, k += 2 * columns) {
    const start = bounds[k]!, end = bounds[k + 1]!;
    if (start < 0) return null;
    if (end === start) {
      out[r] = null;
      continue;
    }
    const b = booleanAt(s, start, end);
    if (b === null) return null;
    out[r] = b;
  }
  return out;
}
