/**
 * A small handle on an in-memory duckdb-wasm database. The duckdb module
 * and its 18 MB wasm are loaded only when {@linkcode openDuckDb} is called
 * (dynamic import), so importing lib/mod.ts never starts DuckDB; start-up
 * takes about 0.4 s in a fresh process (docs/performance.md, "SQL start").
 *
 * @module
 */
import { startDuckDb } from "../core/sql_database.ts";
import { type ArrowTableLike, fromArrowTable, type QueryResult } from "./query_result.ts";
import { readOnlyRefusal } from "./read_only.ts";

/** `"name"` with embedded quotes doubled: a SQL identifier. */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** An open in-memory DuckDB database with one connection. */
export interface DuckDb {
  /**
   * Runs read-only SQL and returns typed columns.
   * @throws Error with the reason when the SQL is not read-only (see `readOnlyRefusal`),
   *   or with DuckDB's message when it fails.
   */
  query(sql: string): Promise<QueryResult>;
  /**
   * Creates table `name` (in `schema`, default `main`) from an Arrow IPC
   * stream (`tableToIPC(table, "stream")`).
   */
  insertArrowIpc(name: string, ipcStream: Uint8Array, schema?: string): Promise<void>;
  /**
   * For loaders: creates view `name` in `main` as `select` (e.g. a union of
   * tables loaded into another schema). Not reachable from `query`.
   */
  createView(name: string, select: string): Promise<void>;
  /** Closes the connection and releases the database. */
  close(): Promise<void>;
}

/**
 * Starts duckdb-wasm (node blocking bundle, in memory) and opens one
 * connection. Extension autoloading and autoinstalling are switched off
 * first, so no query can ever try to download an extension (under Deno
 * such an attempt would kill the process). The session is read-only:
 * `query` refuses anything but read-only statements (`readOnlyRefusal`:
 * no COPY, EXPORT, ATTACH, INSTALL, LOAD, SET or writes), and DuckDB runs
 * with external access disabled and its configuration locked, so no
 * statement reads or writes a file. Tables come in through
 * `insertArrowIpc` only.
 *
 * Permissions: `--allow-read` (the wasm bundle) and `--allow-sys=cpus`.
 *
 * @returns The open database.
 *
 * @example
 * ```ts
 * import { openDuckDb } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const db = await openDuckDb();
 * try {
 *   const r = await db.query("select 40 + 2 as answer");
 *   deepEqual([...r.column("answer")], [42]);
 * } finally {
 *   await db.close();
 * }
 * ```
 */
export async function openDuckDb(): Promise<DuckDb> {
  const { db, conn } = await startDuckDb<ArrowTableLike>();
  conn.query("SET enable_external_access=false");
  conn.query("SET lock_configuration=true");
  let open = true;
  const schemas = new Set<string>();
  const ensureOpen = (what: string) => {
    if (!open) throw new Error(`Cannot ${what}: the DuckDB handle is closed`);
  };
  return {
    query(sql: string) {
      try {
        ensureOpen("run query");
        const refusal = readOnlyRefusal(sql);
        if (refusal !== null) throw new Error(refusal);
        return Promise.resolve(fromArrowTable(conn.query(sql)));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    insertArrowIpc(name: string, ipcStream: Uint8Array, schema?: string) {
      ensureOpen(`create table ${name}`);
      if (schema !== undefined && !schemas.has(schema)) {
        conn.query(`create schema ${quoteIdentifier(schema)}`);
        schemas.add(schema);
      }
      conn.insertArrowFromIPCStream(ipcStream, {
        name,
        create: true,
        ...(schema === undefined ? {} : { schema }),
      });
      return Promise.resolve();
    },
    createView(name: string, select: string) {
      try {
        ensureOpen(`create view ${name}`);
        conn.query(`create view main.${quoteIdentifier(name)} as ${select}`);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
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
