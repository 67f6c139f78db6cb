import type { Table } from "../table/table.ts";
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
 * aligned; integer columns as they are, every other numeric column with
 * `digits` decimals throughout (so a column of means reads evenly, `8578.0000`
 * beside `7041.5000`); NULL as an em dash.
 *
 * @param result A DuckDB query result.
 * @param options Caption, row limit and decimals.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { queryTable } from "./query_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const result = { names: ["arm", "n", "mean"], types: ["Utf8", "Int64", "Float64"], columns: [], numRows: 2,
 *   column: () => { throw new Error(); },
 *   rows: () => [{ arm: "bare", n: 3, mean: 0.53125 }, { arm: "masked", n: 4, mean: 1 }] };
 * deepEqual(queryTable(result).rows, [["bare", "3", "0.5313"], ["masked", "4", "1.0000"]]);
 * ```
 */
export function queryTable(
  result: Pick<QueryResult, "names" | "types" | "numRows" | "rows">,
  options: QueryTableOptions = {},
): Table {
  const maxRows = options.maxRows ?? 50;
  const digits = options.digits ?? 4;
  const numeric = result.types.map((t) => /int|float|decimal|double/i.test(t));
  const integer = result.types.map((t) => /int/i.test(t) && !/interval/i.test(t));
  const cell = (v: number | string | boolean | bigint | null | undefined, j: number): string => {
    if (v === null || v === undefined) return "—";
    if (typeof v === "number") {
      return integer[j] && Number.isInteger(v) ? String(v) : v.toFixed(digits);
    }
    return String(v);
  };
  const rows = result.rows().slice(0, maxRows).map((row) =>
    result.names.map((n, j) => cell(row[n], j))
  );
  return {
    caption: options.caption ?? "Query result",
    columns: result.names.map((label, j) => ({ label, align: numeric[j] ? "right" : "left" })),
    rows,
    ...(result.numRows > maxRows
      ? { notes: [`${result.numRows - maxRows} more rows not shown`] }
      : {}),
  };
}
