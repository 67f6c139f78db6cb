import type { Table } from "../report/table.ts";
import type { QueryResult } from "../sql/query_result.ts";

/** Options of {@linkcode queryTable}. */
export interface QueryTableOptions {
  /**
   * Table caption.
   * @default {"Query result"}
   */
  readonly caption?: string;
  /**
   * At most this many rows are shown; a note says how many were left out.
   * @default {50}
   */
  readonly maxRows?: number;
  /**
   * Decimals of non-integer numbers.
   * @default {4}
   */
  readonly digits?: number;
}

/**
 * A SQL result (lib/sql) as a {@linkcode Table} for display: numbers right
 * aligned, integers as is, other numbers with `digits` decimals, NULL as an
 * em dash.
 *
 * @param result A DuckDB query result.
 * @param options Caption, row limit and decimals.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { queryTable } from "./query_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const result = { names: ["arm", "mean"], types: ["Utf8", "Float64"], columns: [], numRows: 1,
 *   column: () => { throw new Error(); }, rows: () => [{ arm: "bare", mean: 0.53125 }] };
 * deepEqual(queryTable(result).rows, [["bare", "0.5313"]]);
 * ```
 */
export function queryTable(
  result: Pick<QueryResult, "names" | "types" | "numRows" | "rows">,
  options: QueryTableOptions = {},
): Table {
  const maxRows = options.maxRows ?? 50;
  const digits = options.digits ?? 4;
  const numeric = result.types.map((t) => /int|float|decimal|double/i.test(t));
  const cell = (v: number | string | boolean | bigint | null | undefined): string => {
    if (v === null || v === undefined) return "—";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(digits);
    return String(v);
  };
  const rows = result.rows().slice(0, maxRows).map((row) => result.names.map((n) => cell(row[n])));
  return {
    caption: options.caption ?? "Query result",
    columns: result.names.map((label, j) => ({ label, align: numeric[j] ? "right" : "left" })),
    rows,
    ...(result.numRows > maxRows
      ? { notes: [`${result.numRows - maxRows} more rows not shown`] }
      : {}),
  };
}
