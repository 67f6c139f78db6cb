/**
 * Loads runs, gate plans and analysis outputs into DuckDB tables through
 * Arrow IPC streams (much faster than inserting rows one by one).
 * apache-arrow and parquet-wasm are imported on call.
 *
 * @module
 */
import type { LoadedRun } from "../load/read_run.ts";
import { type DuckDb, quoteIdentifier } from "./engine.ts";
import { arrowIpcStream } from "./arrow_ipc.ts";
import { gateTables, type SqlGate } from "./gate_tables.ts";
import { runTables } from "./run_tables.ts";
import { SQL_COLUMN_KINDS, type SqlTableName } from "./sql_schema.ts";
import { OUTPUT_TABLES, outputsTable, type SqlOutput } from "./output_tables.ts";
import { tidyArrowIpc } from "../tidy/tidy_parquet.ts";

/** What {@linkcode loadIntoDuckDb} loads. */
export interface SqlSources {
  /** Runs to load (bare, masked, or any run directory). */
  readonly runs: readonly LoadedRun[];
  /** Gates to load. */
  readonly gates: readonly SqlGate[];
  /** Analysis outputs to load (`gate analyze --out` directories). @default {[]} */
  readonly outputs?: readonly SqlOutput[];
}

/** Options of {@linkcode loadIntoDuckDb}. */
export interface LoadOptions {
  /**
   * Load only these tables (e.g. the ones a query names; see
   * `tablesNamedIn`); the others are not built.
   * @default {every table}
   */
  readonly only?: ReadonlySet<string>;
  /**
   * The tables an analysis output brings, loaded first and in this order
   * (`gate sql`: the analysis bundle's `tidy`, from `BUNDLES`); the
   * outputs' other tables follow by name.
   * @default {OUTPUT_TABLES}
   */
  readonly analysisTables?: readonly string[];
}

/** Schema holding each output's own copy of a table; `main` has their union as a view. */
const PARTS_SCHEMA = "gatelab_outputs";

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Arrow IPC stream of one output table: its Parquet file through parquet-wasm, or the built table. */
async function outputIpc(table: { file: string } | Parameters<typeof tidyArrowIpc>[0]) {
  if (!("file" in table)) return await tidyArrowIpc(table);
  const pq = await import("npm:parquet-wasm@0.8.0/bundler");
  return pq.readParquet(await Deno.readFile(table.file)).intoIPCStream();
}

/**
 * Creates the tables `runs`, `attempts`, `rewards` (one row per attempt x
 * component), `injected` (one row per attempt x injected version),
 * `gates`, `versions` (one row per design column) and `assignments` (one
 * row per episode x slot; `version_id` NULL when the slot is absent) in an
 * open DuckDB. Failed attempts have NULL reward. Table and column names
 * are listed in `SQL_TABLES` (lib/sql/sql_schema.ts). With analysis
 * outputs, also `outputs` (one row per output directory) and
 * `coefficients`, `tasks`, `selection`, `draws` (the tidy tables of
 * docs/FORMAT.md, every output's rows stacked by column name, with an
 * `output` column first naming the directory); a table no output has is
 * not created.
 *
 * @param db An open database from `openDuckDb`.
 * @param sources Runs, gates and outputs to load.
 * @param options Which tables to load.
 * @returns Row counts per table loaded.
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
  options: LoadOptions = {},
): Promise<Record<string, number>> {
  const wanted = (name: string) => options.only === undefined || options.only.has(name);
  const counts: Record<string, number> = {};
  const names = (Object.keys(SQL_COLUMN_KINDS) as SqlTableName[]).filter(wanted);
  if (names.length > 0) {
    const runNames = names.filter((n) => n in runTablesOf);
    const tables = {
      ...(runNames.length > 0 ? runTables(sources.runs, options.only) : {}),
      ...(names.some((n) => !(n in runTablesOf)) ? gateTables(sources.gates) : {}),
    } as Record<SqlTableName, Parameters<typeof arrowIpcStream>[0]>;
    for (const name of names) {
      await db.insertArrowIpc(name, await arrowIpcStream(tables[name]));
      counts[name] = tables[name].rows;
    }
  }
  const outputs = sources.outputs ?? [];
  if (outputs.length === 0) return counts;
  if (wanted("outputs")) {
    await db.insertArrowIpc("outputs", await tidyArrowIpc(outputsTable(outputs)));
    counts["outputs"] = outputs.length;
  }
  const first: readonly string[] = options.analysisTables ?? OUTPUT_TABLES;
  const others = [...new Set(outputs.flatMap((o) => Object.keys(o.tables)))]
    .filter((n) => !first.includes(n)).sort();
  for (const name of [...first, ...others].filter(wanted)) {
    const parts: string[] = [];
    for (const [i, output] of outputs.entries()) {
      const table = output.tables[name];
      if (table === undefined) continue;
      const part = `${name}_${i}`;
      await db.insertArrowIpc(part, await outputIpc(table), PARTS_SCHEMA);
      parts.push(
        `select ${sqlText(output.dir)} as output, * from ${PARTS_SCHEMA}.${quoteIdentifier(part)}`,
      );
    }
    if (parts.length === 0) continue;
    await db.createView(name, parts.join(" union all by name "));
    const n = await db.query(`select count(*)::double as n from ${quoteIdentifier(name)}`);
    counts[name] = Number(n.rows()[0]?.["n"] ?? 0);
  }
  return counts;
}

/** The tables `runTables` builds (the others come from the gates). */
const runTablesOf = { runs: 1, attempts: 1, rewards: 1, injected: 1 } as const;
