import type { QueryResult } from "./query_result.ts";
import { terminalText } from "../core/terminal_text.ts";

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isNaN(value) ? "" : String(value);
  return defuseFormula(String(value));
}

/**
 * A text cell a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return) gets a leading `'`, which
 * spreadsheets show as text and do not evaluate (OWASP's advice against CSV
 * injection). Text that is a plain decimal number (`-0.5`, `+3e-2`) is
 * read as a number, never a formula, and is kept as it is; numeric columns
 * are never changed.
 *
 * @example
 * ```ts
 * import { defuseFormula } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(["=1+1", "@SUM(A1)", "-2+3", "-0.5", "a=b"].map(defuseFormula), ["'=1+1", "'@SUM(A1)", "'-2+3", "-0.5", "a=b"]);
 * ```
 */
export function defuseFormula(text: string): string {
  if (!/^[=+\-@\t\r]/.test(text)) return text;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return text;
  return `'${text}`;
}

/** Rows of CSV per piece written (so a large result is never one string). */
const CSV_ROWS_PER_PIECE = 8192;

/**
 * A query result as RFC 4180 CSV, in pieces of text: header line, one line
 * per row, fields quoted when they hold a comma, quote or line break; NULL
 * (and NaN) is an empty field; numbers in JavaScript's shortest round-trip
 * form (exact: parsing the text gives the same double). Text cells (and
 * column names) that a spreadsheet would evaluate as a formula get a
 * leading `'` ({@linkcode defuseFormula}).
 *
 * @example
 * ```ts
 * import { csvPieces } from "./format.ts";
 * import { fromArrowTable } from "./query_result.ts";
 * import { tableFromArrays } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const r = fromArrowTable(tableFromArrays({ x: Float64Array.from([-0.5, NaN]), s: ["a,b", "=HYPERLINK(\"x\")"] }));
 * deepEqual([...csvPieces(r)].join(""), 'x,s\n-0.5,"a,b"\n,"\'=HYPERLINK(""x"")"\n');
 * ```
 */
export function* csvPieces(result: QueryResult): Generator<string> {
  const quote = (
    text: string,
  ) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  yield result.names.map((name) => quote(defuseFormula(name))).join(",") + "\n";
  for (let from = 0; from < result.numRows; from += CSV_ROWS_PER_PIECE) {
    const lines: string[] = [];
    for (let r = from; r < Math.min(result.numRows, from + CSV_ROWS_PER_PIECE); r++) {
      lines.push(result.columns.map((c) => quote(cellText(c[r]))).join(",") + "\n");
    }
    yield lines.join("");
  }
}

/** The result as one CSV text ({@linkcode csvPieces} joined). */
export function toCsv(result: QueryResult): string {
  return [...csvPieces(result)].join("");
}

/** How far (relative) a printed DOUBLE may lie from the value: 1e-12. */
const DOUBLE_TOLERANCE = 1e-12;

/**
 * A floating-point number as the printed table shows it: a DOUBLE as the
 * shortest decimal within 1e-12 (relative) of the value, a FLOAT (32 bits)
 * as the shortest decimal that reads back as the same float. The noise of
 * floating-point arithmetic (a few units in the 17th digit, or what a sum
 * of many terms accumulates) disappears, while a value needing more digits
 * keeps them: 0.1 + 0.2 shows as 0.3, 0.48304687500000004 as 0.483046875,
 * 1234567890123 as itself. `full` shows the shortest round-trip form
 * instead, which is exact (what DuckDB's own box renderer prints and the
 * CSV holds).
 *
 * @example
 * ```ts
 * import { shownFloat } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([0.1 + 0.2, 0.48304687500000004, 0.8261492500000005, 1234567890123, 1 / 3].map((x) => shownFloat(x, 64)),
 *   ["0.3", "0.483046875", "0.82614925", "1234567890123", "0.333333333333"]);
 * deepEqual([shownFloat(Math.fround(0.1), 32), shownFloat(0.1 + 0.2, 64, true), shownFloat(-1e21, 64)], ["0.1", "0.30000000000000004", "-1e+21"]);
 * ```
 */
export function shownFloat(value: number, bits: 32 | 64, full = false): string {
  if (!Number.isFinite(value) || full) return String(value);
  for (let digits = 1; digits < 17; digits++) {
    const shorter = Number(value.toPrecision(digits));
    const close = bits === 64
      ? Math.abs(shorter - value) <= DOUBLE_TOLERANCE * Math.abs(value)
      : Math.fround(shorter) === value;
    if (close) return String(shorter);
  }
  return String(value);
}

/** The float width of a column's Arrow type name (`Float64`, `Float32`), or null. */
function floatBits(type: string): 32 | 64 | null {
  return type === "Float64" ? 64 : type === "Float32" ? 32 : null;
}

/** Options of {@linkcode toTextTable}. */
export interface TextTableOptions {
  /** Rows shown before the count line. @default {100} */
  readonly maxRows?: number;
  /** Show floating-point numbers in full (shortest round-trip form), see {@linkcode shownFloat}. @default {false} */
  readonly fullPrecision?: boolean;
}

/**
 * Renders a query result as an aligned plain-text table for a terminal
 * (numbers right aligned, NULL shown as `NULL`, floating-point numbers as
 * {@linkcode shownFloat} shows them, control characters in text shown as
 * escapes: `\e`, `\n`), at most `maxRows` rows plus a count line.
 *
 * @example
 * ```ts
 * import { toTextTable } from "./format.ts";
 * import { fromArrowTable } from "./query_result.ts";
 * import { tableFromArrays } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const r = fromArrowTable(tableFromArrays({ arm: ["bare", "ma\x1bsked"], n: Int32Array.from([400, 7]), p: Float64Array.from([0.1 + 0.2, 1]) }));
 * deepEqual(toTextTable(r), "arm         n    p\n--------  ---  ---\nbare      400  0.3\nma\\esked    7    1\n(2 rows)\n");
 * ```
 */
export function toTextTable(result: QueryResult, options: TextTableOptions = {}): string {
  const { maxRows = 100, fullPrecision = false } = options;
  const shown = Math.min(result.numRows, maxRows);
  const numeric = result.columns.map((c) => c instanceof Float64Array || c instanceof Int32Array);
  const cells = result.columns.map((c, i) => {
    const bits = floatBits(result.types[i]!);
    return Array.from({ length: shown }, (_, r) => {
      const v = c[r];
      if (v === null || (typeof v === "number" && Number.isNaN(v))) return "NULL";
      if (typeof v === "number" && bits !== null) return shownFloat(v, bits, fullPrecision);
      return terminalText(String(v));
    });
  });
  const names = result.names.map((name) => terminalText(name));
  const widths = names.map((name, i) => Math.max(name.length, ...cells[i]!.map((s) => s.length)));
  const pad = (
    text: string,
    i: number,
  ) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const lines = [
    names.map((n, i) => pad(n, i)).join("  ").trimEnd(),
    widths.map((w) => "-".repeat(w)).join("  "),
  ];
  for (let r = 0; r < shown; r++) {
    lines.push(cells.map((c, i) => pad(c[r]!, i)).join("  ").trimEnd());
  }
  lines.push(
    shown < result.numRows
      ? `(${result.numRows} rows, first ${shown} shown)`
      : `(${result.numRows} row${result.numRows === 1 ? "" : "s"})`,
  );
  return lines.join("\n") + "\n";
}
