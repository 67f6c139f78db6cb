/**
 * Which of gatelab's SQL tables a query names, so `gate sql` builds only
 * those.
 *
 * @module
 */
import { SQL_COLUMN_KINDS } from "./sql_schema.ts";
import { OUTPUT_TABLES } from "./output_tables.ts";

/** Every table `loadIntoDuckDb` can create. */
export const ALL_SQL_TABLES: readonly string[] = [
  ...Object.keys(SQL_COLUMN_KINDS),
  "outputs",
  ...OUTPUT_TABLES,
];

/**
 * The tables of {@linkcode ALL_SQL_TABLES} that occur in the query as
 * words (case-insensitive; a name inside a string literal or a column of
 * the same name counts too, which only loads a table more). A query that
 * names none of them (`show tables`, `select 42`, `information_schema`)
 * gets them all, so listing what is there still works.
 *
 * @param sql The query.
 * @param outputTables Further table names the given outputs bring
 *   (`outputTableNames`: `splits`, `comparison`, ...).
 * @returns The table names to load.
 *
 * @example
 * ```ts
 * import { tablesNamedIn } from "./named_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...tablesNamedIn("select count(*) from Attempts a join runs using (run_id)")], ["runs", "attempts"]);
 * deepEqual(tablesNamedIn("show tables").size, 12);
 * ```
 */
export function tablesNamedIn(sql: string, outputTables: readonly string[] = []): Set<string> {
  const words = new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []);
  const all = [...new Set([...ALL_SQL_TABLES, ...outputTables])];
  const named = all.filter((t) => words.has(t.toLowerCase()));
  return new Set(named.length > 0 ? named : all);
}
