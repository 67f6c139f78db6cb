/**
 * `sqlTables`: the tables `loadIntoDuckDb` creates, listed from DuckDB's
 * information_schema, with the columns of SQL_TABLES in order and row
 * counts equal to the counts the loader computed while building the Arrow
 * tables (an independent count: TypeScript arrays vs SQL `count(*)`), and
 * the fixture's known sizes.
 */
import { deepEqual } from "node:assert/strict";
import { openDuckDb } from "../lib/sql/engine.ts";
import { loadIntoDuckDb } from "../lib/sql/load_tables.ts";
import { SQL_TABLES } from "../lib/sql/sql_schema.ts";
import { readSqlSources } from "../lib/sql/read_sources.ts";
import { sqlTables, sqlTablesTable } from "../lib/sql/tables.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";

Deno.test("sqlTables lists every loaded table with its columns and row count", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 25, repeats: 2, failedFirst: [3, 10] });
  const db = await openDuckDb();
  try {
    const counts = await loadIntoDuckDb(db, await readSqlSources([fx.gateDir]));
    const tables = await sqlTables(db);
    deepEqual(tables.map((t) => t.name), Object.keys(SQL_TABLES).sort());
    for (const t of tables) {
      deepEqual(t.columns.map((c) => c.name), SQL_TABLES[t.name]);
      deepEqual(t.rows, counts[t.name]);
    }
    const byName = Object.fromEntries(tables.map((t) => [t.name, t.rows]));
    deepEqual([byName["runs"], byName["attempts"], byName["gates"]], [2, 50 + 52, 1]);
    deepEqual(sqlTablesTable(tables).rows.find((r) => r[0] === "gates")?.[1], "1");
  } finally {
    await db.close();
  }
});
