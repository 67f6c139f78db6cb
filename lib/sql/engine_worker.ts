/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
/**
 * The worker that holds the SQL engine (lib/sql/engine.ts starts it). A
 * query runs to its end once started, so it runs here, off the main
 * thread, where `worker.terminate()` can stop it (`--timeout`, Ctrl-C) and
 * where an engine fault ends this worker only.
 *
 * Messages in: `{ id, op: "run" | "insert" | "query" | "close", ... }`;
 * out: `{ ready: true }` once, then `{ id, ok: true, ipc? }` or
 * `{ id, ok: false, code, message, fault }` per message. `fault` is true
 * when the engine itself failed (a wasm trap, or a trap on a probe query
 * after an error): the engine is unusable from then on.
 *
 * @module
 */
import { QueryStopped, type SqlEngine, startSqlEngine } from "../core/sql_database.ts";
import { readOnlyStatement } from "./read_only.ts";

/** A message to the worker. */
export type EngineRequest =
  | { readonly id: number; readonly op: "run"; readonly sql: string }
  | {
    readonly id: number;
    readonly op: "query";
    readonly sql: string;
    /** Milliseconds the query may run; then it is cancelled (code `sql_timeout`). */
    readonly timeoutMs: number;
  }
  | {
    readonly id: number;
    readonly op: "insert";
    readonly name: string;
    readonly schema?: string;
    readonly ipc: Uint8Array;
  }
  | { readonly id: number; readonly op: "close" };

/** The worker's answer to one message. */
export type EngineReply =
  | { readonly id: number; readonly ok: true; readonly ipc?: Uint8Array }
  | {
    readonly id: number;
    readonly ok: false;
    readonly code: "sql_error" | "sql_read_only" | "sql_timeout" | "sql_engine";
    readonly message: string;
    readonly fault: boolean;
  };

const isTrap = (error: unknown) =>
  error instanceof WebAssembly.RuntimeError ||
  (error instanceof RangeError && /call stack/.test(error.message));

const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error);

/** Whether the engine still answers after an error (a deep expression can break it silently). */
function stillWorks(engine: SqlEngine): boolean {
  try {
    engine.execute("select 42");
    return true;
  } catch {
    return false;
  }
}

function handle(engine: SqlEngine, request: EngineRequest): EngineReply {
  const { id } = request;
  try {
    switch (request.op) {
      case "run":
        engine.run(request.sql);
        return { id, ok: true };
      case "insert":
        engine.insertArrowIpc(request.name, request.ipc, request.schema);
        return { id, ok: true };
      case "close":
        engine.close();
        return { id, ok: true };
      case "query": {
        const checked = readOnlyStatement(request.sql, engine);
        if (!("sql" in checked)) return { id, ok: false, ...checked, fault: false };
        const deadline = performance.now() + request.timeoutMs;
        return {
          id,
          ok: true,
          ipc: engine.execute(checked.sql, () => performance.now() > deadline),
        };
      }
    }
  } catch (error) {
    if (error instanceof QueryStopped) {
      return { id, ok: false, code: "sql_timeout", message: error.message, fault: false };
    }
    const fault = isTrap(error) || !stillWorks(engine);
    return {
      id,
      ok: false,
      code: isTrap(error) ? "sql_engine" : "sql_error",
      message: messageOf(error),
      fault,
    };
  }
}

try {
  const engine = await startSqlEngine();
  // Nothing reads or writes a file, and no setting changes from here on.
  engine.run("SET enable_external_access=false");
  engine.run("SET lock_configuration=true");
  self.onmessage = (event: MessageEvent<EngineRequest>) => {
    const reply = handle(engine, event.data);
    self.postMessage(reply, {
      transfer: reply.ok && reply.ipc ? [reply.ipc.buffer as ArrayBuffer] : [],
    });
  };
  self.postMessage({ ready: true });
} catch (error) {
  self.postMessage({ ready: false, message: messageOf(error) });
}
