/**
 * The rows of a CSV or TSV text given in pieces (RFC 4180): where each
 * cell of each complete row starts and ends, window by window, so a file is
 * read in chunks and never held as one string (lib/import/read_csv.ts).
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";

const QUOTE = 0x22, LF = 0x0a, CR = 0x0d;

/**
 * The complete rows of one window of text: `rows` rows of `columns` cells,
 * cell k of row r at `bounds[2 * (r * columns + k)]` (start) and the next
 * entry (end) in `text`; a start written as `~start` (negative) marks a
 * quoted cell holding doubled quotes, unescaped when it is cut out.
 */
export interface RowWindow {
  readonly text: string;
  readonly bounds: Int32Array;
  readonly rows: number;
  readonly columns: number;
  /** Zero-based number of the window's first row in the file (header excluded). */
  readonly firstRow: number;
}

/** The cell `[start, end)` (start ~-encoded when it holds doubled quotes), null when empty. */
export function cut(s: string, start: number, end: number): string | null {
  if (start < 0) return s.slice(~start, end).replaceAll('""', '"');
  return end > start ? s.slice(start, end) : null;
}

/** What ended a scan early: a parse problem, or more rows than allowed. */
export type ScanStop = Issue | "past rows";

/**
 * Scans a delimited text fed in pieces: the header row first (its cells
 * through {@linkcode CsvScanner.header}), then every complete row, passed
 * window by window to `onRows`. A row is complete when its line break is
 * seen (or the text ends): a row cut by a piece's end is carried into the
 * next piece. Blank lines are skipped; line numbers count the file's lines
 * (one-based), rows the data rows (header excluded).
 */
export class CsvScanner {
  readonly #file: string;
  readonly #format: "csv" | "tsv";
  readonly #delim: number;
  readonly #maxRows: number;
  readonly #onRows: (window: RowWindow) => void;
  #carry = "";
  #line = 1;
  #row = 0;
  #header: string[] | null = null;
  #bounds = new Int32Array(1 << 16);

  /**
   * @param file The file, for issues.
   * @param format `csv` (comma) or `tsv` (tab).
   * @param maxRows Data rows allowed; one more stops the scan with "past rows".
   * @param onRows Told each window of complete rows.
   */
  constructor(
    file: string,
    format: "csv" | "tsv",
    maxRows: number,
    onRows: (window: RowWindow) => void,
  ) {
    this.#file = file;
    this.#format = format;
    this.#delim = format === "tsv" ? 0x09 : 0x2c;
    this.#maxRows = maxRows;
    this.#onRows = onRows;
  }

  /** The header's column names (null until the header row is complete). */
  get header(): readonly string[] | null {
    return this.#header;
  }

  /** Data rows scanned so far. */
  get rows(): number {
    return this.#row;
  }

  /**
   * Scans `piece` after what was carried; `end` when it is the last. Returns
   * why the scan stopped early, or null.
   */
  feed(piece: string, end: boolean): ScanStop | null {
    const s = this.#carry + piece;
    const n = s.length;
    const delim = this.#delim;
    let i = 0, used = 0;
    let bounds = this.#bounds;
    const firstRow = this.#row;
    let columns = this.#header?.length ?? 0;
    const headerCells: string[] = [];
    const flush = () => {
      if (used > 0) {
        this.#onRows({
          text: s,
          bounds,
          rows: this.#row - firstRow,
          columns,
          firstRow,
        });
      }
    };
    const fail = (message: string, column: number, line: number) =>
      this.#fail(message, column, line);
    rows: while (i < n) {
      const c0 = s.charCodeAt(i);
      if (c0 === LF || c0 === CR) {
        // A blank line; a CR at the piece's end may be the first half of a CRLF.
        if (c0 === CR && i + 1 === n && !end) break;
        i += c0 === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
        this.#line++;
        continue;
      }
      const rowStart = i, rowLine = this.#line, rowUsed = used;
      let line = rowLine;
      headerCells.length = 0;
      for (let c = 0;; c++) {
        const cell = this.#cell(s, i, end, c, line, rowLine);
        if (cell === "later") {
          i = rowStart;
          used = rowUsed;
          break rows;
        }
        if ("code" in cell) return cell;
        const { start, stop } = cell;
        i = cell.next;
        line = cell.line;
        // The row (or this cell) may go on in the next piece.
        if (!end && (i >= n || (s.charCodeAt(i) === CR && i + 1 === n))) {
          i = rowStart;
          used = rowUsed;
          break rows;
        }
        if (this.#header === null) headerCells.push(cut(s, start, stop) ?? "");
        else {
          if (c >= columns) {
            return fail(`the row has more fields than the header's ${columns}`, columns, line);
          }
          if (used + 2 > bounds.length) {
            const grown = new Int32Array(bounds.length * 2);
            grown.set(bounds);
            bounds = this.#bounds = grown;
          }
          bounds[used++] = start;
          bounds[used++] = stop;
        }
        const ch = s.charCodeAt(i);
        if (i < n && ch === delim) {
          i++;
          continue;
        }
        // The end of the row: a line break or the end of the text.
        if (this.#header === null) {
          this.#header = names(headerCells);
          columns = this.#header.length;
        } else {
          if (c + 1 < columns) {
            return fail(`the row has ${c + 1} field(s), the header ${columns}`, c + 1, line);
          }
          if (this.#row === this.#maxRows) return "past rows";
          this.#row++;
        }
        if (i < n) {
          i += ch === CR && s.charCodeAt(i + 1) === LF ? 2 : 1;
          line++;
        }
        this.#line = line;
        break;
      }
    }
    flush();
    this.#carry = s.slice(i);
    return null;
  }

  /** A parse problem at `column` of the current row, on the file's `line`. */
  #fail(message: string, column: number, line: number): Issue {
    const header = this.#header;
    return {
      code: "parse_error",
      message: `cannot read as ${this.#format}: ${message}${
        header === null ? " (header, line 1)" : ` (line ${line})`
      }`,
      file: this.#file,
      ...(header === null ? {} : { line: this.#row + 1 }),
      ...(header !== null && header[column] !== undefined ? { path: header[column] } : {}),
    };
  }

  /**
   * The cell at `i` (column `c` of a row starting on `rowLine`, now on
   * `line`): its bounds (a start written as `~start` when it holds doubled
   * quotes), where the text goes on after it and the line there; "later"
   * when the piece ends inside it; an issue when it is malformed.
   */
  #cell(
    s: string,
    i: number,
    end: boolean,
    c: number,
    line: number,
    rowLine: number,
  ): { start: number; stop: number; next: number; line: number } | "later" | Issue {
    const n = s.length, delim = this.#delim;
    if (s.charCodeAt(i) !== QUOTE) {
      let k = i;
      for (; k < n; k++) {
        const ch = s.charCodeAt(k);
        if (ch === delim || ch === LF || ch === CR) break;
        if (ch === QUOTE) {
          return this.#fail(
            'a quote inside an unquoted field (quote the field, the quote as "")',
            c,
            line,
          );
        }
      }
      return { start: i, stop: k, next: k, line };
    }
    const closing = closingQuote(s, i + 1, end);
    if (closing === "later") return "later";
    if (closing === "never") return this.#fail("a quoted field is not closed", c, rowLine);
    const stop = closing.at;
    for (let k = i + 1; k < stop; k++) {
      const ch = s.charCodeAt(k);
      if (ch === LF || (ch === CR && s.charCodeAt(k + 1) !== LF)) line++;
    }
    const next = stop + 1, after = s.charCodeAt(next);
    if (next < n && after !== delim && after !== LF && after !== CR) {
      return this.#fail(
        'text after a closing quote (a quote inside a field is written "")',
        c,
        line,
      );
    }
    return { start: closing.escaped ? ~(i + 1) : i + 1, stop, next, line };
  }
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

/**
 * The closing quote of a quoted field whose text starts at `from`: its
 * place and whether the field holds doubled quotes; "later" when the piece
 * ends first (or with a quote that may be the first of a doubled one) and
 * more text follows; "never" at the end of the text.
 */
function closingQuote(
  s: string,
  from: number,
  end: boolean,
): { at: number; escaped: boolean } | "later" | "never" {
  let escaped = false;
  for (let j = from;;) {
    const k = s.indexOf('"', j);
    if (k < 0 || (k + 1 === s.length && !end)) return end ? "never" : "later";
    if (s.charCodeAt(k + 1) !== QUOTE) return { at: k, escaped };
    escaped = true;
    j = k + 2;
  }
}
