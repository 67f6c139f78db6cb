/**
 * A small handle on an in-memory duckdb-wasm database. The engine runs in
 * a worker (lib/sql/engine_worker.ts), so a query that runs too long is
 * stopped by ending the worker, and an engine fault ends the worker, never
 * the program. The duckdb module and its wasm are loaded only when
 * {@linkcode openDuckDb} is called, so importing lib/mod.ts never starts
 * DuckDB; start-up takes about 0.5 s in a fresh process (docs/performance.md,
 * "SQL start").
 *
 * @module
 */
import { DEFAULTS } from "../core/defaults.ts";
import { fromArrowTable, type QueryResult } from "./query_result.ts";
import type { EngineReply, EngineRequest } from "./engine_worker.ts";

/** `"name"` with embedded quotes doubled: a SQL identifier. */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * The longest query text sent to the engine, in characters. Texts up to
 * this size run (a 1,000,000-character query is tested); a query is typed
 * or generated, never data, so a longer one is refused before it is sent.
 */
export const MAX_QUERY_CHARACTERS = 1_000_000;

/** How long after its time limit a query that the engine could not cancel ends the worker. */
const HARD_STOP_MS = 2000;

/** What went wrong with a query, as a code and one message. */
export type SqlErrorCode = "sql_error" | "sql_read_only" | "sql_timeout" | "sql_engine";

/**
 * A query that did not run or did not finish: `sql_error` (DuckDB's
 * message: a parse, bind or run-time error), `sql_read_only` (refused by
 * the read-only rule, lib/sql/read_only.ts), `sql_timeout` (stopped after
 * the time limit) or `sql_engine` (the engine itself failed and is closed).
 */
export class SqlError extends Error {
  /** `"SqlError"`. */
  override readonly name = "SqlError";
  /** What went wrong. */
  readonly code: SqlErrorCode;
  /** The query text. */
  readonly query: string;
  /**
   * An error of one query.
   *
   * @param code What went wrong.
   * @param message DuckDB's or gatelab's message (may span lines; see `sqlErrorLine`).
   * @param query The query text.
   */
  constructor(code: SqlErrorCode, message: string, query: string) {
    super(message);
    this.code = code;
    this.query = query;
  }
}

/** Options of {@linkcode openDuckDb} and of one query. */
export interface SqlOptions {
  /**
   * Seconds a query may run before it is cancelled (Infinity for no
   * limit). A query stuck in one long operation cannot be cancelled: 2 s
   * later the engine's worker is ended and the handle closed (Deno stops a
   * busy worker's thread only when the program exits).
   * @default {DEFAULTS.sqlTimeoutSeconds}
   */
  readonly timeoutSeconds?: number;
}

/** An open in-memory DuckDB database with one connection. */
export interface DuckDb {
  /**
   * Runs one read-only query and returns typed columns.
   * @throws {SqlError} when the query is refused, fails, runs past the time
   *   limit or breaks the engine.
   */
  query(sql: string, options?: SqlOptions): Promise<QueryResult>;
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
  /** Closes the connection and ends the engine's worker. */
  close(): Promise<void>;
}

/** A request before the handle numbers it. */
type Unnumbered<T> = T extends unknown ? Omit<T, "id"> : never;

/** Why a query text is refused before it reaches the engine, or null. */
function textRefusal(sql: string): SqlError | null {
  if (sql.length > MAX_QUERY_CHARACTERS) {
    return new SqlError(
      "sql_error",
      `the query is ${sql.length} characters long; at most ${MAX_QUERY_CHARACTERS} are sent to DuckDB`,
      sql,
    );
  }
  if (sql.includes("\0")) {
    return new SqlError(
      "sql_read_only",
      "the query holds a NUL character, and DuckDB would read only the text before it",
      sql,
    );
  }
  return null;
}

/**
 * Starts duckdb-wasm (node blocking bundle, in memory, in a worker) and
 * opens one connection. Extension autoloading and autoinstalling are
 * switched off first, so no query can ever try to download an extension
 * (under Deno such an attempt would kill the process). The session is
 * read-only: `query` runs one statement that DuckDB's own parser reads as
 * a query (`readOnlyStatement`, lib/sql/read_only.ts: no COPY, EXPORT,
 * ATTACH, INSTALL, LOAD, SET, PRAGMA or writes, and never a second
 * statement), and DuckDB runs with external access disabled and its
 * configuration locked, so no statement reads or writes a file. Tables
 * come in through `insertArrowIpc` only.
 *
 * Errors are DuckDB's, at any point of the query (a failing cast in the
 * middle of a scan included), as {@linkcode SqlError}. A query running past
 * `timeoutSeconds` is stopped and the handle closed.
 *
 * Permissions: `--allow-read` (the wasm bundle) and `--allow-sys=cpus`
 * (the worker has the program's).
 *
 * @param options The default time limit of a query.
 * @returns The open database.
 *
 * @example
 * ```ts
 * import { openDuckDb } from "../mod.ts";
 * import { deepEqual, rejects } from "node:assert/strict";
 * const db = await openDuckDb();
 * try {
 *   const r = await db.query("select 40 + 2 as answer");
 *   deepEqual([...r.column("answer")], [42]);
 *   await rejects(db.query("select 'a'::INT"), /Could not convert string 'a' to INT32/);
 *   await rejects(db.query("create table t (x int)"), /CREATE is not allowed/);
 * } finally {
 *   await db.close();
 * }
 * ```
 */
export async function openDuckDb(options: SqlOptions = {}): Promise<DuckDb> {
  const defaultTimeout = options.timeoutSeconds ?? DEFAULTS.sqlTimeoutSeconds;
  const worker = new Worker(new URL("./engine_worker.ts", import.meta.url), { type: "module" });
  const waiting = new Map<number, (reply: EngineReply) => void>();
  let nextId = 1;
  /** Why the handle is unusable, once it is. */
  let stopped: string | null = null;
  const stop = (why: string) => {
    if (stopped !== null) return;
    stopped = why;
    worker.terminate();
    for (const [id, answer] of waiting) {
      answer({ id, ok: false, code: "sql_engine", message: why, fault: true });
    }
    waiting.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ ready: boolean; message?: string }>) => {
      if (event.data.ready) resolve();
      else {
        stop(`the SQL engine did not start: ${event.data.message}`);
        reject(new SqlError("sql_engine", stopped!, ""));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      stop(`the SQL engine did not start: ${event.message}`);
      reject(new SqlError("sql_engine", stopped!, ""));
    };
  });
  await ready;
  worker.onmessage = (event: MessageEvent<EngineReply>) => {
    const answer = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    answer?.(event.data);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    stop(`the SQL engine failed: ${event.message}`);
  };

  /**
   * Sends one request; resolves with the reply, or rejects with a SqlError.
   * A query past its time limit is cancelled by the worker between steps;
   * one that cannot be (a single long operation) ends the worker 2 s later.
   */
  const send = (
    request: Unnumbered<EngineRequest>,
    query: string,
    timeoutSeconds = Infinity,
  ): Promise<EngineReply & { ok: true }> => {
    if (stopped !== null) {
      return Promise.reject(
        new SqlError("sql_engine", `the DuckDB handle is closed: ${stopped}`, query),
      );
    }
    const id = nextId++;
    const seconds = `${timeoutSeconds} second${timeoutSeconds === 1 ? "" : "s"}`;
    const late = `the query ran longer than ${seconds} and was stopped`;
    return new Promise((resolve, reject) => {
      const timer = Number.isFinite(timeoutSeconds)
        ? setTimeout(() => {
          waiting.delete(id);
          stop(`a query could not be stopped after ${seconds} and the engine was ended`);
          reject(new SqlError("sql_timeout", late, query));
        }, timeoutSeconds * 1000 + HARD_STOP_MS)
        : undefined;
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.ok) return resolve(reply);
        if (reply.fault) stop(`the SQL engine failed (${reply.message.split("\n")[0]})`);
        reject(
          new SqlError(reply.code, reply.code === "sql_timeout" ? late : reply.message, query),
        );
      });
      worker.postMessage({ ...request, id });
    });
  };
  const schemas = new Set<string>();

  return {
    async query(sql, queryOptions = {}) {
      const refusal = textRefusal(sql);
      if (refusal !== null) throw refusal;
      const timeout = queryOptions.timeoutSeconds ?? defaultTimeout;
      const { ipc } = await send({ op: "query", sql, timeoutMs: timeout * 1000 }, sql, timeout);
      const arrow = await import("npm:apache-arrow@17.0.0");
      return fromArrowTable(arrow.tableFromIPC(ipc!));
    },
    async insertArrowIpc(name, ipcStream, schema) {
      if (schema !== undefined && !schemas.has(schema)) {
        const sql = `create schema ${quoteIdentifier(schema)}`;
        await send({ op: "run", sql }, sql);
        schemas.add(schema);
      }
      await send({
        op: "insert",
        name,
        ipc: ipcStream,
        ...(schema === undefined ? {} : { schema }),
      }, "");
    },
    async createView(name, select) {
      const sql = `create view main.${quoteIdentifier(name)} as ${select}`;
      await send({ op: "run", sql }, sql);
    },
    async close() {
      if (stopped !== null) return;
      try {
        await send({ op: "close" }, "");
      } catch {
        // A broken engine is ended all the same.
      }
      stop("it was closed");
    },
  };
}

/** Characters of the query shown in a {@linkcode sqlErrorLine}. */
const SHOWN_QUERY = 60;

/**
 * One line for a failed query: `<code>  <query>  <message>`, the query with
 * its white space collapsed and cut to 60 characters, DuckDB's message
 * without its excerpt of the query (`LINE 1: ...` and the caret below it,
 * reduced to `(query line 1)`) and its lines joined.
 *
 * @example
 * ```ts
 * import { SqlError, sqlErrorLine } from "./engine.ts";
 * import { equal } from "node:assert/strict";
 * const message = 'Catalog Error: Table with name atempts does not exist!\nDid you mean "attempts"?\nLINE 1: select *\n  from atempts\n                ^';
 * equal(sqlErrorLine(new SqlError("sql_error", message, "select *\n  from atempts")),
 *   'sql_error  select * from atempts  Catalog Error: Table with name atempts does not exist! Did you mean "attempts"? (query line 1)');
 * ```
 */
export function sqlErrorLine(error: SqlError): string {
  const flat = error.query.replace(/\s+/g, " ").trim();
  const query = flat.length > SHOWN_QUERY ? `${flat.slice(0, SHOWN_QUERY - 3)}...` : flat;
  const lines = error.message.split("\n");
  const at = lines.findIndex((l) => /^LINE \d+:/.test(l));
  const kept = (at === -1 ? lines : lines.slice(0, at)).map((l) => l.trim()).filter((l) =>
    l !== ""
  );
  const where = at === -1 ? "" : ` (query line ${/^LINE (\d+):/.exec(lines[at]!)![1]})`;
  return `${error.code}  ${query || "(empty)"}  ${kept.join(" ")}${where}`;
}
