/**
 * Loads runs and gate plans into DuckDB tables through Arrow IPC streams
 * (much faster than inserting rows one by one). apache-arrow is imported on call.
 *
 * @module
 */
import type { LoadedRun } from "../load/read_run.ts";
import type { DuckDb } from "./engine.ts";
import { arrowIpcStream } from "./arrow_ipc.ts";
import { gateTables, type SqlGate } from "./gate_tables.ts";
import { runTables } from "./run_tables.ts";
import { SQL_COLUMN_KINDS, type SqlTableName } from "./sql_schema.ts";

/** What {@linkcode loadIntoDuckDb} loads. */
export interface SqlSources {
  /** Runs to load (bare, masked, or any run directory). */
  readonly runs: readonly LoadedRun[];
  /** Gates to load. */
  readonly gates: readonly SqlGate[];
}

/**
 * Creates the tables `runs`, `attempts`, `rewards` (one row per attempt x
 * component), `injected` (one row per attempt x injected version),
 * `gates`, `versions` (one row per design column) and `assignments` (one
 * row per episode x slot; `version_id` NULL when the slot is absent) in an
 * open DuckDB. Failed attempts have NULL reward. Table and column names
 * are listed in `SQL_TABLES` (lib/sql/sql_schema.ts).
 *
 * @param db An open database from `openDuckDb`.
 * @param sources Runs and gates to load.
 * @returns Row counts per table.
 * @example
 * ```ts
 * import { loadIntoDuckDb, openDuckDb, readSqlSources } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const db = await openDuckDb();
 * try {
 *   const counts = await loadIntoDuckDb(db, await readSqlSources(["data/demo/ckpt-a/gate-a"]));
 *   deepEqual([counts.runs, counts.attempts, counts.rewards, counts.assignments], [2, 806, 4800, 5600]);
 * } finally {
 *   await db.close();
 * }
 * ```
 */
export async function loadIntoDuckDb(
  db: DuckDb,
  sources: SqlSources,
): Promise<Record<string, number>> {
  const tables = { ...runTables(sources.runs), ...gateTables(sources.gates) };
  const counts: Record<string, number> = {};
  for (const name of Object.keys(SQL_COLUMN_KINDS) as SqlTableName[]) {
    await db.insertArrowIpc(name, await arrowIpcStream(tables[name]));
    counts[name] = tables[name].rows;
  }
  return counts;
}
