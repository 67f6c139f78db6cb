import { createHash } from "node:crypto";
import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";
import { CsvScanner, cut, type RowWindow } from "./csv_scanner.ts";
import { InputBudget } from "./limits.ts";

/** Bytes read at a time. */
const CHUNK_BYTES = 8 << 20;

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
 * The file is read in chunks of 8 MiB, each decoded and scanned for its
 * complete rows, whose cells go straight into their columns (no string of
 * the whole file, no object per row). A column typed as numbers or booleans
 * that meets a cell of another kind becomes text, and its earlier cells are
 * read again as written (a second pass over the file for such columns
 * only). The file's size and its rows count against the import's limits
 * (lib/import/limits.ts): past them, one issue naming the file and the limit.
 *
 * @param file The file.
 * @param format `csv` (comma) or `tsv` (tab).
 * @param text Columns always read as text.
 * @param options The import's limits, and the chunk size (for tests).
 * @returns The table, or the issue (the first problem of the file).
 */
export async function readCsvTable(
  file: string,
  format: "csv" | "tsv",
  text: ReadonlySet<string> = new Set(),
  options: { readonly budget?: InputBudget; readonly chunkBytes?: number } = {},
): Promise<SourceTable | Issue> {
  const budget = options.budget ?? new InputBudget();
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  let size: number;
  try {
    size = (await Deno.stat(file)).size;
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  if (size > budget.bytesLeft) return budget.takeBytes(file, size)!;
  let columns: ColumnBuilder[] = [];
  const scanner = new CsvScanner(file, format, budget.rowsLeft, (window) => {
    if (columns.length === 0) {
      columns = scanner.header!.map((name) =>
        text.has(name) ? new TextColumn() : new ValueColumn()
      );
    }
    columns.forEach((column, c) => column.add(window, c));
  });
  const hash = createHash("sha256");
  let done = 0;
  // Stopped as soon as the rows read need more heap than there is, not once all are read.
  const heap = () =>
    budget.checkHeap(file, scanner.rows, scanner.header?.length ?? 0, { done, size });
  const scanned = await scanFile(file, format, scanner, chunkBytes, (bytes) => {
    hash.update(bytes);
    done += bytes.length;
  }, heap);
  if (scanned !== null) return scanned === "past rows" ? budget.pastRows(file) : scanned;
  const header = scanner.header;
  if (header === null) {
    return { code: "parse_error", message: `cannot read as ${format}: no header row`, file };
  }
  const rows = scanner.rows;
  if (columns.length === 0) {
    columns = header.map((name) => text.has(name) ? new TextColumn() : new ValueColumn());
  }
  // Columns that became text after holding numbers or booleans: their earlier cells as written.
  const again = columns.flatMap((column, c) =>
    column instanceof ValueColumn && column.textFrom > 0 ? [[c, column] as const] : []
  );
  if (again.length > 0) {
    const rescan = new CsvScanner(file, format, rows, (window) => {
      for (const [c, column] of again) column.addEarlierText(window, c);
    });
    await scanFile(file, format, rescan, chunkBytes);
  }
  budget.takeBytes(file, size);
  budget.takeRows(file, rows);
  const data: Record<string, unknown[] | Float64Array> = {};
  header.forEach((name, c) => (data[name] = columns[c]!.done(rows)));
  return { file, format, columns: [...header], rows, data, sha256: hash.digest("hex") };
}

/** Feeds a file to a scanner chunk by chunk; why it stopped early, or null. */
async function scanFile(
  file: string,
  format: "csv" | "tsv",
  scanner: CsvScanner,
  chunkBytes: number,
  onBytes: (bytes: Uint8Array) => void = () => {},
  check: () => Issue | null = () => null,
): Promise<Issue | "past rows" | null> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  using _ = handle;
  // The decoder drops a leading byte order mark, and holds a character cut by a chunk's end.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(chunkBytes);
  for (;;) {
    const n = await handle.read(buffer);
    let piece: string;
    try {
      piece = n === null
        ? decoder.decode()
        : decoder.decode(buffer.subarray(0, n), { stream: true });
    } catch {
      return { code: "parse_error", message: `cannot read as ${format}: not UTF-8 text`, file };
    }
    if (n !== null) onBytes(buffer.subarray(0, n));
    const stop = scanner.feed(piece, n === null) ?? check();
    if (stop !== null || n === null) return stop;
  }
}

/** A column being read, window by window. */
interface ColumnBuilder {
  /** Adds column `c` of a window's rows. */
  add(window: RowWindow, c: number): void;
  /** The column's values, `rows` long. */
  done(rows: number): unknown[] | Float64Array;
}

/** A column read as text; a cell equal to the one above reuses its string (ids, arm, status repeat). */
class TextColumn implements ColumnBuilder {
  readonly #values: (string | null)[] = [];
  #prev: string | null = null;
  add({ text: s, bounds, rows, columns }: RowWindow, c: number): void {
    const out = this.#values;
    let prev = this.#prev;
    for (let r = 0, k = 2 * c; r < rows; r++, k += 2 * columns) {
      const start = bounds[k]!, end = bounds[k + 1]!;
      if (
        start >= 0 && prev !== null && end - start === prev.length && s.startsWith(prev, start)
      ) {
        out.push(prev);
        continue;
      }
      prev = cut(s, start, end);
      out.push(prev);
    }
    this.#prev = prev;
  }
  done(): (string | null)[] {
    return this.#values;
  }
}

/**
 * A column typed by its cells: numbers while every non-empty cell is
 * number text (a Float64Array, no boxed number per cell, unless a cell is
 * empty), else booleans while every one is true/false/t/f (any case), else
 * text. A cell that ends the numbers or the booleans makes the column text
 * from its row on (`textFrom`); the earlier cells are added as written by
 * {@linkcode ValueColumn.addEarlierText}.
 */
class ValueColumn implements ColumnBuilder {
  #kind: "empty" | "number" | "boolean" | "text" = "empty";
  #numbers = new Float64Array(1024);
  #empty: number[] = [];
  #values: (boolean | string | null)[] = [];
  #rows = 0;
  /** The row from which the column is text after holding numbers or booleans (0: none). */
  textFrom = 0;

  add({ text: s, bounds, rows, columns }: RowWindow, c: number): void {
    for (let r = 0, k = 2 * c; r < rows; r++, k += 2 * columns) {
      const start = bounds[k]!, end = bounds[k + 1]!, row = this.#rows++;
      if (start >= 0 && end === start) {
        if (this.#kind === "number") this.#number(row, 0, true);
        else this.#values[row] = null;
        continue;
      }
      if (this.#kind === "empty") {
        // A cell with doubled quotes is neither a number nor a boolean.
        this.#kind = start >= 0 && numberAt(s, start, end) !== NOT_A_NUMBER
          ? "number"
          : start >= 0 && booleanAt(s, start, end) !== null
          ? "boolean"
          : "text";
        if (this.#kind === "number") { for (let e = 0; e < row; e++) this.#number(e, 0, true); }
      }
      if (this.#kind === "number") {
        const x = start >= 0 ? numberAt(s, start, end) : NOT_A_NUMBER;
        if (x !== NOT_A_NUMBER) {
          this.#number(row, x, false);
          continue;
        }
        this.#toText(row);
      } else if (this.#kind === "boolean") {
        const b = start >= 0 ? booleanAt(s, start, end) : null;
        if (b !== null) {
          this.#values[row] = b;
          continue;
        }
        this.#toText(row);
      }
      this.#values[row] = cut(s, start, end);
    }
  }

  #number(row: number, x: number, empty: boolean): void {
    if (row >= this.#numbers.length) {
      const grown = new Float64Array(this.#numbers.length * 2);
      grown.set(this.#numbers);
      this.#numbers = grown;
    }
    this.#numbers[row] = x;
    if (empty) this.#empty.push(row);
  }

  /** From `row` on the column is text; the cells before it are read again as written. */
  #toText(row: number): void {
    this.#kind = "text";
    this.textFrom = row;
    this.#values = new Array(row).fill(null);
    this.#numbers = new Float64Array(0);
    this.#empty = [];
  }

  /** Adds the text of the window's cells in rows before `textFrom`. */
  addEarlierText({ text: s, bounds, rows, columns, firstRow }: RowWindow, c: number): void {
    const end = Math.min(rows, this.textFrom - firstRow);
    for (let r = 0, k = 2 * c; r < end; r++, k += 2 * columns) {
      this.#values[firstRow + r] = cut(s, bounds[k]!, bounds[k + 1]!);
    }
  }

  done(rows: number): (number | null)[] | (boolean | string | null)[] | Float64Array {
    // No cell at all: numbers, as every one of none is number text.
    if (rows === 0 && this.#kind === "empty") return new Float64Array(0);
    if (this.#kind !== "number") {
      if (this.#values.length < rows) {
        for (let r = this.#values.length; r < rows; r++) this.#values[r] = null;
      }
      return this.#values;
    }
    const out = this.#numbers.length === rows ? this.#numbers : this.#numbers.slice(0, rows);
    if (this.#empty.length === 0) return out;
    const withNulls: (number | null)[] = Array.from(out);
    for (const r of this.#empty) withNulls[r] = null;
    return withNulls;
  }
}
