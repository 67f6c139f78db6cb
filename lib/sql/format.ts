import type { QueryResult } from "./query_result.ts";

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

/**
 * Renders a query result as RFC 4180 CSV: header line, one line per row,
 * fields quoted when they hold a comma, quote or line break; NULL (and NaN)
 * is an empty field; numbers in JavaScript's shortest round-trip form. Text
 * cells (and column names) that a spreadsheet would evaluate as a formula
 * get a leading `'` ({@linkcode defuseFormula}).
 *
 * @example
 * ```ts
 * import { toCsv } from "./format.ts";
 * import { fromArrowTable } from "./query_result.ts";
 * import { tableFromArrays } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const r = fromArrowTable(tableFromArrays({ x: Float64Array.from([-0.5, NaN]), s: ["a,b", "=HYPERLINK(\"x\")"] }));
 * deepEqual(toCsv(r), 'x,s\n-0.5,"a,b"\n,"\'=HYPERLINK(""x"")"\n');
 * ```
 */
export function toCsv(result: QueryResult): string {
  const quote = (
    text: string,
  ) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [result.names.map((name) => quote(defuseFormula(name))).join(",")];
  for (let r = 0; r < result.numRows; r++) {
    lines.push(result.columns.map((c) => quote(cellText(c[r]))).join(","));
  }
  return lines.join("\n") + "\n";
}

/**
 * Renders a query result as an aligned plain-text table (numbers right
 * aligned, NULL shown as `NULL`), at most `maxRows` rows plus a count line.
 *
 * @example
 * ```ts
 * import { toTextTable } from "./format.ts";
 * import { fromArrowTable } from "./query_result.ts";
 * import { tableFromArrays } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const r = fromArrowTable(tableFromArrays({ arm: ["bare", "masked"], n: Int32Array.from([400, 7]) }));
 * deepEqual(toTextTable(r), "arm       n\n------  ---\nbare    400\nmasked    7\n(2 rows)\n");
 * ```
 */
export function toTextTable(result: QueryResult, maxRows = 100): string {
  const shown = Math.min(result.numRows, maxRows);
  const numeric = result.columns.map((c) => c instanceof Float64Array || c instanceof Int32Array);
  const cells = result.columns.map((c) =>
    Array.from({ length: shown }, (_, r) => {
      const v = c[r];
      return v === null || (typeof v === "number" && Number.isNaN(v)) ? "NULL" : String(v);
    })
  );
  const widths = result.names.map((name, i) =>
    Math.max(name.length, ...cells[i]!.map((s) => s.length))
  );
  const pad = (
    text: string,
    i: number,
  ) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const lines = [
    result.names.map((n, i) => pad(n, i)).join("  ").trimEnd(),
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
