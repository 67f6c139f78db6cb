/**
 * A tidy table: named, typed columns of equal length, one observation per
 * row. The one shape every command's CSV and Parquet export is written from
 * ({@linkcode tidyCsv}, `tidyParquet`).
 *
 * Missing values have one definition: `null` (in a plain array column) is
 * missing, written as an empty unquoted CSV field and as a Parquet null.
 * NaN and infinities are never written: a non-finite number is missing
 * too (the JSON outputs already write them as `null`). `-0` is written as
 * `0`, as `JSON.stringify` writes it, so a table and its JSON agree bit for
 * bit.
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";

/**
 * Kind of a tidy column: `str` text, `f64` 64-bit float, `i32` 32-bit
 * integer, `bool` boolean, `str_list` a list of texts (CSV: a JSON array).
 */
export type TidyKind = "str" | "f64" | "i32" | "bool" | "str_list";

/** One column: name, kind, one value per row (`null` where missing). */
export interface TidyColumn {
  /** Column name (as written in the CSV header and the Parquet schema). */
  readonly name: string;
  /** What the values are. */
  readonly kind: TidyKind;
  /** One value per row: a number, string, boolean or string array by kind, or null. */
  readonly values: ArrayLike<unknown>;
}

/** A table to export: its file stem (`coefficients` gives coefficients.csv/.parquet) and columns. */
export interface TidyTable {
  /** File stem. */
  readonly name: string;
  /** Row count (every column holds this many values). */
  readonly rows: number;
  /** Columns in order. */
  readonly columns: readonly TidyColumn[];
}

/** Characters that make a CSV field need quotes (RFC 4180, plus edge spaces). */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** A text as one CSV field: quoted when needed; the empty string as `""` (empty is missing). */
function csvText(text: string): string {
  return text === "" || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One value as its CSV field: numbers by `String(number)` (the shortest text
 * that reads back as the same double), missing as the empty field.
 *
 * @param kind The column's kind.
 * @param value The value.
 * @returns The field text.
 *
 * @example
 * ```ts
 * import { csvField } from "./tidy_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(
 *   [csvField("f64", 0.1 + 0.2), csvField("f64", null), csvField("f64", NaN), csvField("f64", -0),
 *    csvField("str", "a,b"), csvField("str", ""), csvField("str_list", ["x", "y"]), csvField("bool", true)],
 *   ["0.30000000000000004", "", "", "0", '"a,b"', '""', '"[""x"",""y""]"', "TRUE"],
 * );
 * ```
 */
export function csvField(kind: TidyKind, value: unknown): string {
  if (value === null || value === undefined) return "";
  switch (kind) {
    case "f64":
    case "i32": {
      const v = value as number;
      return Number.isFinite(v) ? String(v === 0 ? 0 : v) : "";
    }
    case "bool":
      // R's read.csv reads TRUE/FALSE (not true/false) as logical; pandas, polars and DuckDB too.
      return value ? "TRUE" : "FALSE";
    case "str":
      return csvText(String(value));
    case "str_list":
      return csvText(JSON.stringify(value));
  }
}

/** Size a CSV chunk grows to before it is handed out (characters). */
const CHUNK = 1 << 16;

/**
 * The table as CSV (RFC 4180, comma, `\n` line ends, a header line), in
 * chunks of about 64 KiB so a large table never has to be one string.
 * Field rules: {@linkcode csvField}.
 *
 * @param table The table.
 * @param options Progress over the rows, told as each piece is taken.
 * @returns The CSV text in pieces.
 *
 * @example
 * ```ts
 * import { tidyCsv } from "./tidy_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const csv = [...tidyCsv({ name: "t", rows: 2, columns: [
 *   { name: "id", kind: "str", values: ["a", "b"] },
 *   { name: "x", kind: "f64", values: [1 / 3, null] },
 * ] })].join("");
 * deepEqual(csv, "id,x\na,0.3333333333333333\nb,\n");
 * ```
 */
export function* tidyCsv(
  table: TidyTable,
  options: TidyCsvOptions = {},
): Generator<string, void, undefined> {
  const { columns, rows } = table;
  const { onProgress } = options;
  const fields = columns.map(fieldWriter);
  let buffer = columns.map((c) => csvText(c.name)).join(",") + "\n";
  for (let i = 0; i < rows; i++) {
    buffer += fields[0]!(i);
    for (let j = 1; j < fields.length; j++) buffer += "," + fields[j]!(i);
    buffer += "\n";
    if (buffer.length >= CHUNK) {
      yield buffer;
      buffer = "";
      onProgress?.(i + 1, rows);
    }
  }
  if (buffer.length > 0) yield buffer;
  // Told once at the end (not again when the last piece ended at the last row).
  if (buffer.length > 0) onProgress?.(rows, rows);
}

/** Options of {@linkcode tidyCsv}. */
export interface TidyCsvOptions {
  /** Progress over the table's rows, told after each piece is taken and when the last one is. */
  readonly onProgress?: ProgressCallback;
}

/**
 * The CSV field of row i of a column, as {@linkcode csvField} writes it,
 * with fast paths: a typed array of numbers is formatted without the
 * per-value type tests, and a repeated text is quoted once.
 */
function fieldWriter(column: TidyColumn): (i: number) => string {
  const { kind, values } = column;
  if (values instanceof Float64Array || values instanceof Int32Array) {
    return (i) => {
      const v = values[i]!;
      return Number.isFinite(v) ? String(v === 0 ? 0 : v) : "";
    };
  }
  if (kind === "str") {
    const seen = new Map<unknown, string>();
    return (i) => {
      const v = values[i];
      let field = seen.get(v);
      if (field === undefined) {
        field = csvField(kind, v);
        if (seen.size < 1 << 16) seen.set(v, field);
      }
      return field;
    };
  }
  return (i) => csvField(kind, values[i]);
}

/**
 * A table from rows of plain values, the kind of each column given once
 * (in column order): the few lines each command needs for its table. A
 * field a row lacks is missing (null).
 *
 * @param name The table's file stem.
 * @param kinds Column name to kind, in column order; each a field of the
 *   rows' type (typed rows, interfaces included, pass as they are).
 * @param rows The rows.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { tidyFromRows } from "./tidy_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = tidyFromRows("t", { id: "str", x: "f64" }, [{ id: "a", x: 1 }, { id: "b" }]);
 * deepEqual(t.columns.map((c) => c.values), [["a", "b"], [1, null]]);
 * ```
 */
export function tidyFromRows<R extends object>(
  name: string,
  kinds: { readonly [K in keyof R & string]?: TidyKind },
  rows: readonly R[],
): TidyTable {
  const declared: Readonly<Record<string, TidyKind | undefined>> = kinds;
  const columns: TidyColumn[] = Object.entries(declared).flatMap(([column, kind]) =>
    kind === undefined ? [] : [{
      name: column,
      kind,
      values: rows.map((r) => Reflect.get(r, column) ?? null),
    }]
  );
  return { name, rows: rows.length, columns };
}
