/**
 * duckdb-wasm, started on call: the one place that names the package and
 * knows its bindings, for the SQL engine's worker (lib/sql/engine_worker.ts).
 *
 * Deno installs, when any program starts, every npm package that the module
 * graph names (a literal dynamic import counts) and every package of the
 * import map and of deno.lock; on a fresh machine that made every command,
 * `--help` included, download duckdb-wasm (69 MB). So duckdb-wasm is named
 * only here, in a variable (not in deno.json, not statically in the graph),
 * and the committed deno.lock does not hold it (tests/sql_lazy_test.ts
 * checks all three). The commands that may run SQL use deno.sql.lock
 * instead, frozen: deno.lock plus duckdb-wasm's packages, installed only
 * when SQL first runs (docs/validation.md, "The engine's lock").
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
 * SQL text goes to the engine through the wasm heap, never as an argument
 * string: the bundle's own calls copy a string argument onto the 256 KiB
 * wasm stack at 4 bytes per character, so a query of about 64,000
 * characters overwrote the engine's memory (`memory access out of bounds`
 * on every later call).
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { concatBytes } from "./bytes.ts";

const DUCKDB_PACKAGE = "npm:@duckdb/duckdb-wasm@1.28.0";
const DUCKDB_MODULE = `${DUCKDB_PACKAGE}/blocking`;

/** The engine's tokens of SQL text: UTF-8 byte offsets and token types. */
export interface SqlTokens {
  /** Byte offset of each token in the UTF-8 text. */
  readonly offsets: readonly number[];
  /** 0 identifier, 1 number, 2 string, 3 operator, 4 keyword, 5 comment. */
  readonly types: readonly number[];
}

/** One connection of an in-memory duckdb-wasm database (blocking bundle). */
export interface SqlEngine {
  /** Runs a statement of gatelab's own (settings, schemas, views); throws DuckDB's message. */
  run(sql: string): void;
  /** The engine's tokens of `sql` (its lexer: strings, escapes, nested comments as DuckDB reads them). */
  tokens(sql: string): SqlTokens;
  /** Prepares `sql` without running it: DuckDB's message when that fails, else null. */
  prepareError(sql: string): string | null;
  /**
   * Starts `sql` as a pending query and steps it to the end: the Arrow IPC
   * stream of its result (schema then record batches). Throws DuckDB's
   * message when the query fails, at any step (a failing cast in the middle
   * of a scan included: the bundle's one-call `query` loses those and
   * returns the rows fetched before the failure, often none). Between
   * steps (at most about 0.1 s of work each, unless one operation takes
   * longer) `stop` is asked; when it says so the query is cancelled and
   * {@linkcode QueryStopped} thrown.
   */
  execute(sql: string, stop?: () => boolean): Uint8Array;
  /** Creates table `name` (in `schema`) from an Arrow IPC stream. */
  insertArrowIpc(name: string, ipc: Uint8Array, schema?: string): void;
  /** Closes the connection and frees the database. */
  close(): void;
}

/** Thrown by `SqlEngine.execute` when its `stop` asked to cancel the query. */
export class QueryStopped extends Error {
  override readonly name = "QueryStopped";
  constructor() {
    super("the query was cancelled");
  }
}

interface Emscripten {
  _malloc(size: number): number;
  _free(pointer: number): void;
  HEAPU8: Uint8Array;
  HEAPF64: Float64Array;
  ccall(name: string, returns: null, types: string[], args: number[]): void;
  stackSave(): number;
  stackAlloc(size: number): number;
  stackRestore(pointer: number): void;
}

interface Bindings {
  readonly mod: Emscripten;
  instantiate(): Promise<unknown>;
  open(config: { path: string }): void;
  connect(): {
    useUnsafe<R>(f: (bindings: unknown, conn: number) => R): R;
    query(sql: string): unknown;
    insertArrowFromIPCStream(
      ipc: Uint8Array,
      options: { name: string; create?: boolean; schema?: string },
    ): void;
    close(): void;
  };
  pollPendingQuery(conn: number): Uint8Array | null;
  cancelPendingQuery(conn: number): boolean;
  fetchQueryResults(conn: number): Uint8Array;
  reset(): void;
}

interface DuckDbModule {
  createDuckDB(
    bundles: Record<string, { mainModule: string; mainWorker: string }>,
    logger: unknown,
    runtime: unknown,
  ): Promise<Bindings>;
  VoidLogger: new () => unknown;
  NODE_RUNTIME: unknown;
}

/**
 * Starts an in-memory duckdb-wasm database (about 0.4 s in a fresh
 * process) with one connection, extension autoloading and autoinstalling
 * off (nothing is ever downloaded at run time). Run it off the main thread
 * (lib/sql/engine_worker.ts): a query runs to its end once started.
 *
 * Permissions: `--allow-read` (the wasm bundle) and `--allow-sys=cpus`.
 *
 * @returns The engine.
 */
export async function startSqlEngine(): Promise<SqlEngine> {
  const { db, conn, id } = await openDatabase();
  const heap = heapCalls(db.mod, id);
  const engine: SqlEngine = {
    run(sql) {
      conn.query(sql);
    },
    tokens(sql) {
      const bytes = heap.answer(heap.callWithText("duckdb_web_tokenize", sql, false));
      return JSON.parse(bytes === null ? "{}" : heap.decoder.decode(bytes)) as SqlTokens;
    },
    prepareError: (sql) => prepareError(heap, sql),
    execute: (sql, stop) => executeQuery(db, heap, sql, stop),
    insertArrowIpc(name, ipc, schema) {
      conn.insertArrowFromIPCStream(ipc, {
        name,
        create: true,
        ...(schema === undefined ? {} : { schema }),
      });
    },
    close() {
      conn.close();
      db.reset();
    },
  };
  engine.run("SET autoload_known_extensions=false");
  engine.run("SET autoinstall_known_extensions=false");
  return engine;
}

type Connection = ReturnType<Bindings["connect"]>;

/** Loads the package, instantiates its wasm bundle and opens `:memory:` with one connection. */
async function openDatabase(): Promise<{ db: Bindings; conn: Connection; id: number }> {
  const duckdb: DuckDbModule = await import(DUCKDB_MODULE);
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
  const id = conn.useUnsafe((_, c) => c);
  return { db, conn, id };
}

/** Calls into the engine with SQL text on the wasm heap (never as a string argument). */
interface HeapCalls {
  readonly mod: Emscripten;
  /** The connection's id. */
  readonly id: number;
  readonly decoder: TextDecoder;
  /** Calls `fn(response, [conn,] text)` with the text on the heap; returns [status, data, size]. */
  callWithText(
    fn: string,
    text: string,
    withConnection: boolean,
  ): readonly [number, number, number];
  /** Frees the engine's last response. */
  clear(): void;
  /** The response's bytes as text. */
  text(data: number, size: number): string;
  /** The response's bytes (copied), null for an empty one; throws DuckDB's message on failure. */
  answer(response: readonly [number, number, number]): Uint8Array | null;
}

function heapCalls(mod: Emscripten, id: number): HeapCalls {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const clear = () => mod.ccall("duckdb_web_clear_response", null, [], []);
  const text = (data: number, size: number) =>
    decoder.decode(mod.HEAPU8.subarray(data, data + size));
  return {
    mod,
    id,
    decoder,
    callWithText(fn, sql, withConnection) {
      const bytes = encoder.encode(sql);
      const pointer = mod._malloc(bytes.length + 1);
      mod.HEAPU8.set(bytes, pointer);
      mod.HEAPU8[pointer + bytes.length] = 0;
      const stack = mod.stackSave();
      const response = mod.stackAlloc(3 * 8);
      try {
        const types = withConnection ? ["number", "number", "number"] : ["number", "number"];
        const args = withConnection ? [response, id, pointer] : [response, pointer];
        mod.ccall(fn, null, types, args);
        const at = response >> 3;
        return [mod.HEAPF64[at]!, mod.HEAPF64[at + 1]!, mod.HEAPF64[at + 2]!] as const;
      } finally {
        mod.stackRestore(stack);
        mod._free(pointer);
      }
    },
    clear,
    text,
    answer([status, data, size]) {
      try {
        if (status !== 0) throw new Error(text(data, size));
        return data === 0 ? null : mod.HEAPU8.slice(data, data + size);
      } finally {
        clear();
      }
    },
  };
}

/** Prepares `sql` and closes the statement: DuckDB's message when preparing fails, else null. */
function prepareError(heap: HeapCalls, sql: string): string | null {
  const { mod, id } = heap;
  const [status, data, size] = heap.callWithText("duckdb_web_prepared_create", sql, true);
  if (status !== 0) {
    const message = heap.text(data, size);
    heap.clear();
    return message;
  }
  heap.clear();
  const stack = mod.stackSave();
  const response = mod.stackAlloc(3 * 8);
  try {
    mod.ccall("duckdb_web_prepared_close", null, ["number", "number", "number"], [
      response,
      id,
      data,
    ]);
  } finally {
    mod.stackRestore(stack);
    heap.clear();
  }
  return null;
}

/** {@linkcode SqlEngine.execute}: a pending query stepped to its end, its batches as one stream. */
function executeQuery(
  db: Bindings,
  heap: HeapCalls,
  sql: string,
  stop: (() => boolean) | undefined,
): Uint8Array {
  const { id } = heap;
  let header: Uint8Array | null = heap.answer(
    heap.callWithText("duckdb_web_pending_query_start", sql, true),
  );
  while (header === null) {
    if (stop?.()) {
      db.cancelPendingQuery(id);
      throw new QueryStopped();
    }
    header = db.pollPendingQuery(id);
  }
  const parts: Uint8Array[] = [header];
  for (;;) {
    const batch = db.fetchQueryResults(id);
    if (batch === null || batch.length === 0) break;
    parts.push(batch);
  }
  return concatBytes(parts);
}
