/**
 * What is in an open DuckDB: every table with its columns (name and SQL
 * type, in table order) and its row count, read from DuckDB's own
 * `information_schema`.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { type DuckDb, quoteIdentifier } from "./engine.ts";

/** One table of {@linkcode sqlTables}. */
export interface SqlTableInfo {
  /** Table name. */
  readonly name: string;
  /** Row count. */
  readonly rows: number;
  /** Column names and DuckDB types, in table order. */
  readonly columns: readonly { readonly name: string; readonly type: string }[];
}

/**
 * Lists the tables of the main schema, by name, with columns and row counts.
 *
 * @param db An open database (`openDuckDb`), e.g. after `loadIntoDuckDb`.
 * @returns One entry per table, ordered by name.
 *
 * @example
 * ```ts
 * import { loadIntoDuckDb, openDuckDb, readSqlSources, sqlTables } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const db = await openDuckDb();
 * try {
 *   await loadIntoDuckDb(db, await readSqlSources(["data/demo/ckpt-a/gate-a"]));
 *   const tables = await sqlTables(db);
 *   deepEqual(tables.map((t) => [t.name, t.rows]), [
 *     ["assignments", 5600], ["attempts", 806], ["gates", 1], ["injected", 2828],
 *     ["rewards", 4800], ["runs", 2], ["versions", 14],
 *   ]);
 * } finally {
 *   await db.close();
 * }
 * ```
 */
export async function sqlTables(db: DuckDb): Promise<SqlTableInfo[]> {
  const info = await db.query(
    "select table_name, column_name, data_type from information_schema.columns " +
      "where table_schema = 'main' order by table_name, ordinal_position",
  );
  const byTable = new Map<string, { name: string; type: string }[]>();
  for (const row of info.rows()) {
    const table = String(row["table_name"]);
    if (!byTable.has(table)) byTable.set(table, []);
    byTable.get(table)!.push({ name: String(row["column_name"]), type: String(row["data_type"]) });
  }
  const tables: SqlTableInfo[] = [];
  for (const [name, columns] of byTable) {
    const count = await db.query(`select count(*)::double as n from ${quoteIdentifier(name)}`);
    tables.push({ name, rows: Number(count.rows()[0]?.["n"] ?? 0), columns });
  }
  return tables;
}

/**
 * The listing of {@linkcode sqlTables} as a table for display: table,
 * rows, and its columns as `name type` pairs.
 *
 * @param tables What `sqlTables` returned.
 * @returns A table (rows right-aligned).
 *
 * @example
 * ```ts
 * import { sqlTablesTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = sqlTablesTable([{ name: "runs", rows: 2, columns: [{ name: "run_id", type: "VARCHAR" }, { name: "n", type: "INTEGER" }] }]);
 * deepEqual(t.rows, [["runs", "2", "run_id VARCHAR, n INTEGER"]]);
 * ```
 */
export function sqlTablesTable(tables: readonly SqlTableInfo[]): Table {
  return {
    caption: "Tables in DuckDB",
    columns: [{ label: "table" }, { label: "rows", align: "right" }, { label: "columns" }],
    rows: tables.map((t) => [
      t.name,
      String(t.rows),
      t.columns.map((c) => `${c.name} ${c.type}`).join(", "),
    ]),
  };
}
