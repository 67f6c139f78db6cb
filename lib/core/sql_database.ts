/**
 * duckdb-wasm, started on call: the one place that names the package, for
 * `gate sql` (lib/sql/engine.ts).
 *
 * Deno installs, when any program starts, every npm package that the module
 * graph names (a literal dynamic import counts) and every package of the
 * import map and of deno.lock; on a fresh machine that made every command,
 * `--help` included, download duckdb-wasm (69 MB). So duckdb-wasm is named
 * only here, in a variable (not in deno.json, not statically in the graph),
 * and the committed deno.lock does not hold it: it is fetched the first time
 * SQL runs (tests/sql_lazy_test.ts checks all three).
 *
 * The build is duckdb-wasm 1.28.0 (DuckDB 0.9.1), chosen for its start: the
 * later builds (1.29 to 1.32, DuckDB 1.1 to 1.4) are linked for loadable
 * extensions, and their loader registers each of tens of thousands of
 * exports in JavaScript before the first query, for extensions that gatelab
 * turns off anyway (they would be downloaded). Measured in fresh processes on
 * an idle machine, start and `select 42`: 1.32.0 1.46 to 1.56 s
 * (instantiation 1.06 to 1.10 s), 1.28.0 0.37 to 0.46 s (0.13 to 0.15 s);
 * its package is half the size (69 MB). docs/performance.md ("SQL start").
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const DUCKDB_PACKAGE = "npm:@duckdb/duckdb-wasm@1.28.0";
const DUCKDB_MODULE = `${DUCKDB_PACKAGE}/blocking`;

/** A connection of duckdb-wasm's blocking bundle; `T` is the Arrow table its queries return. */
export interface DuckDbConnection<T> {
  /** Runs SQL and returns its result as an Arrow table. */
  query(sql: string): T;
  /** Creates (or appends to) a table from an Arrow IPC stream. */
  insertArrowFromIPCStream(
    ipc: Uint8Array,
    options: { name: string; create?: boolean; schema?: string },
  ): void;
  /** Closes the connection. */
  close(): void;
}

/** The database of duckdb-wasm's blocking bundle, as far as gatelab uses it. */
export interface DuckDbDatabase {
  /** Makes `bytes` readable by SQL under `name` (DuckDB opens no file itself). */
  registerFileBuffer(name: string, bytes: Uint8Array): void;
  /** Forgets a registered buffer. */
  dropFile(name: string): void;
  /** Frees the database. */
  reset(): void;
}

interface DuckDbModule<T> {
  createDuckDB(
    bundles: Record<string, { mainModule: string; mainWorker: string }>,
    logger: unknown,
    runtime: unknown,
  ): Promise<
    DuckDbDatabase & {
      instantiate(): Promise<unknown>;
      open(config: { path: string }): void;
      connect(): DuckDbConnection<T>;
    }
  >;
  VoidLogger: new () => unknown;
  NODE_RUNTIME: unknown;
}

/**
 * Starts an in-memory duckdb-wasm database (about 0.4 s in a fresh
 * process) with one connection, extension autoloading and autoinstalling
 * off (nothing is ever downloaded at run time). The caller types the Arrow
 * tables its queries return (`T`: a structural view, since they come from
 * duckdb-wasm's own copy of apache-arrow).
 *
 * Permissions: `--allow-read` (the wasm bundle) and `--allow-sys=cpus`.
 *
 * @returns The database and its connection.
 */
export async function startDuckDb<T>(): Promise<
  { db: DuckDbDatabase; conn: DuckDbConnection<T> }
> {
  const duckdb: DuckDbModule<T> = await import(DUCKDB_MODULE);
  const file = (p: string) => fileURLToPath(import.meta.resolve(`${DUCKDB_PACKAGE}/${p}`));
  const bundles = {
    mvp: {
      mainModule: file("dist/duckdb-mvp.wasm"),
      mainWorker: file("dist/duckdb-node-mvp.worker.cjs"),
    },
    eh: {
      mainModule: file("dist/duckdb-eh.wasm"),
      mainWorker: file("dist/duckdb-node-eh.worker.cjs"),
    },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  db.open({ path: ":memory:" });
  const conn = db.connect();
  conn.query("SET autoload_known_extensions=false");
  conn.query("SET autoinstall_known_extensions=false");
  return { db, conn };
}
