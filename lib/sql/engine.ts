/**
 * A small handle on an in-memory duckdb-wasm database. The duckdb module
 * and its 34 MB wasm are loaded only when {@linkcode openDuckDb} is called
 * (dynamic import), so importing lib/mod.ts never starts DuckDB; start-up
 * takes about 1.5 to 3 s in a fresh process.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { fromArrowTable, type QueryResult } from "./query_result.ts";

/** An open in-memory DuckDB database with one connection. */
export interface DuckDb {
  /** Runs SQL and returns typed columns. @throws Error with DuckDB's message when the SQL fails. */
  query(sql: string): Promise<QueryResult>;
  /** Creates table `name` from an Arrow IPC stream (`tableToIPC(table, "stream")`). */
  insertArrowIpc(name: string, ipcStream: Uint8Array): Promise<void>;
  /** Closes the connection and releases the database. */
  close(): Promise<void>;
}

/**
 * Starts duckdb-wasm (node blocking bundle, in memory) and opens one
 * connection. Extension autoloading and autoinstalling are switched off
 * first, so no query can ever try to download an extension (under Deno
 * such an attempt would kill the process).
 *
 * Permissions: `--allow-read` (the wasm bundle) and `--allow-sys=cpus`.
 *
 * @returns The open database.
 *
 * @example
 * ```ts ignore
 * import { openDuckDb } from "./engine.ts";
 * const db = await openDuckDb();
 * const r = await db.query("select 40 + 2 as answer");
 * console.log(r.column("answer")); // Int32Array [42]
 * await db.close();
 * ```
 */
export async function openDuckDb(): Promise<DuckDb> {
  const duckdb = await import("@duckdb/duckdb-wasm/blocking");
  const file = (p: string) => fileURLToPath(import.meta.resolve(p));
  const bundles = {
    mvp: {
      mainModule: file("@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm"),
      mainWorker: file("@duckdb/duckdb-wasm/dist/duckdb-node-mvp.worker.cjs"),
    },
    eh: {
      mainModule: file("@duckdb/duckdb-wasm/dist/duckdb-eh.wasm"),
      mainWorker: file("@duckdb/duckdb-wasm/dist/duckdb-node-eh.worker.cjs"),
    },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  db.open({ path: ":memory:" });
  const conn = db.connect();
  conn.query("SET autoload_known_extensions=false");
  conn.query("SET autoinstall_known_extensions=false");
  let open = true;
  const ensureOpen = (what: string) => {
    if (!open) throw new Error(`Cannot ${what}: the DuckDB handle is closed`);
  };
  return {
    query(sql: string) {
      ensureOpen("run query");
      return Promise.resolve(fromArrowTable(conn.query(sql)));
    },
    insertArrowIpc(name: string, ipcStream: Uint8Array) {
      ensureOpen(`create table ${name}`);
      conn.insertArrowFromIPCStream(ipcStream, { name, create: true });
      return Promise.resolve();
    },
    close() {
      if (open) {
        open = false;
        conn.close();
        db.reset();
      }
      return Promise.resolve();
    },
  };
}
