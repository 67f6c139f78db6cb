/**
 * The read-only rule of the SQL session, decided by DuckDB itself: its
 * lexer splits the text into statements and its parser says whether the
 * one statement is a query. No keyword list of gatelab's reads the text:
 * strings (`E'\''`, `$$...$$`), nested comments and quoted names are
 * whatever DuckDB makes of them.
 *
 * @module
 */
import type { SqlTokens } from "../core/sql_database.ts";

/** What the rule asks of the engine (lib/core/sql_database.ts `SqlEngine`). */
export interface StatementEngine {
  /** DuckDB's tokens of the text. */
  tokens(sql: string): SqlTokens;
  /** DuckDB's message when the text does not prepare (parse, bind, plan), else null. */
  prepareError(sql: string): string | null;
}

/** The words a statement allowed in the session starts with. */
export const READ_ONLY_STARTS: readonly string[] = [
  "SELECT",
  "WITH",
  "VALUES",
  "FROM",
  "TABLE",
  "PIVOT",
  "UNPIVOT",
  "DESCRIBE",
  "SHOW",
  "SUMMARIZE",
  "EXPLAIN",
];

/** Starts of a query: proved one by preparing it as a subquery. */
const QUERY_STARTS = new Set([
  "SELECT",
  "WITH",
  "VALUES",
  "FROM",
  "TABLE",
  "PIVOT",
  "UNPIVOT",
  "(",
]);
/** Starts whose only grammar is DuckDB's show statement over a table or a query. */
const SHOW_STARTS = new Set(["DESCRIBE", "SHOW", "SUMMARIZE"]);

const KEYWORD = 4, OPERATOR = 3, COMMENT = 5;
/** DuckDB's message for text it runs as several statements. */
const MANY = /Cannot prepare multiple statements/;

/** Why a statement is not run: refused by the read-only rule, or failed in DuckDB. */
export interface SqlRefusal {
  readonly code: "sql_read_only" | "sql_error";
  readonly message: string;
}

/** The one statement to run, or why not. */
export type CheckedStatement = { readonly sql: string } | SqlRefusal;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const allowed = () =>
  `the SQL session is read-only and runs one query (a statement starting with ${
    READ_ONLY_STARTS.slice(0, -1).join(", ")
  } or ${READ_ONLY_STARTS.at(-1)})`;

/**
 * The statement of SQL text that the read-only session runs, or why it is
 * refused. DuckDB's lexer splits the text on `;` (trailing ones are
 * dropped): more than one statement is refused, naming how many. The one
 * statement must prepare (else DuckDB's message, code `sql_error`) and be
 * read-only, which DuckDB's parser decides:
 * - one starting with `SELECT`, `WITH`, `VALUES`, `FROM`, `TABLE`, `PIVOT`,
 *   `UNPIVOT` or `(` must also prepare as a subquery
 *   (`select * from (<it>)`), where DuckDB's grammar admits only a query:
 *   `WITH ... INSERT ... RETURNING` fails there, and so does a `PIVOT`
 *   whose columns come from the data (DuckDB makes an ENUM type for it
 *   first, a second statement);
 * - `DESCRIBE`, `SHOW` and `SUMMARIZE` have one grammar, a show statement
 *   over a table or a query;
 * - `EXPLAIN [ANALYZE]` is followed by a query, proved as above.
 * Every other statement (`INSERT`, `CREATE`, `COPY`, `ATTACH`, `SET`,
 * `PRAGMA`, `CALL`, `INSTALL`, `LOAD`, ...) is refused with code
 * `sql_read_only`. DuckDB also runs with external access disabled and its
 * configuration locked, so no query reads or writes a file or changes a
 * setting (lib/sql/engine.ts).
 *
 * @param sql The text as given (without NUL characters).
 * @param engine The engine that reads it.
 * @returns The statement to run (the text up to its last token, so DuckDB's
 *   line numbers stay those of the text), or the refusal.
 *
 * @example The rule over a stand-in engine that knows three statements
 * ```ts
 * import { readOnlyStatement } from "./read_only.ts";
 * import { deepEqual } from "node:assert/strict";
 * const engine = {
 *   tokens: (sql: string) => sql.startsWith("insert")
 *     ? { offsets: [0, 7], types: [4, 4] }
 *     : { offsets: [0, 7, 8], types: [4, 1, 3] },
 *   prepareError: (sql: string) => sql.startsWith("select * from (") && sql.includes("insert") ? "syntax error" : null,
 * };
 * deepEqual(readOnlyStatement("select 1; ", engine), { sql: "select 1" });
 * deepEqual((readOnlyStatement("insert into t values (1)", engine) as { code: string }).code, "sql_read_only");
 * ```
 */
export function readOnlyStatement(sql: string, engine: StatementEngine): CheckedStatement {
  const bytes = encoder.encode(sql);
  let tokens: SqlTokens;
  try {
    tokens = engine.tokens(sql);
  } catch (error) {
    return { code: "sql_error", message: error instanceof Error ? error.message : String(error) };
  }
  const offsets = tokens.offsets ?? [], types = tokens.types ?? [];
  const word = (i: number) => {
    const end = i + 1 < offsets.length ? offsets[i + 1]! : bytes.length;
    return decoder.decode(bytes.subarray(offsets[i]!, end)).trim();
  };
  // Statements: runs of tokens between ";" operators.
  const statements: number[][] = [[]];
  for (let i = 0; i < offsets.length; i++) {
    if (types[i] === COMMENT) continue;
    if (types[i] === OPERATOR && word(i).startsWith(";")) statements.push([]);
    else statements.at(-1)!.push(i);
  }
  const given = statements.filter((s) => s.length > 0);
  if (given.length === 0) return { code: "sql_read_only", message: "the query is empty" };
  if (given.length > 1) {
    return {
      code: "sql_read_only",
      message: `${given.length} statements given; ${allowed()}: give one statement`,
    };
  }
  const statement = given[0]!;
  const first = statement[0]!, last = statement.at(-1)!;
  // From the text's start (or just after a leading ";") to the end of the last token.
  const lead = offsets.findLastIndex((_, i) => i < first && types[i] === OPERATOR);
  const from = lead === -1 ? 0 : offsets[lead]! + 1;
  const after = last + 1 < offsets.length ? offsets[last + 1]! : bytes.length;
  const text = decoder.decode(bytes.subarray(from, after)).trimEnd();
  const start = types[first] === KEYWORD
    ? word(first).toUpperCase()
    : word(first).startsWith("(")
    ? "("
    : "";
  const shown = start === "" ? word(first).split(/\s/)[0] : start;
  if (!QUERY_STARTS.has(start) && !SHOW_STARTS.has(start) && start !== "EXPLAIN") {
    return { code: "sql_read_only", message: `${shown} is not allowed: ${allowed()}` };
  }
  const failed = engine.prepareError(text);
  if (failed !== null && MANY.test(failed)) {
    // One statement to the lexer that DuckDB runs as several: a PIVOT over the
    // data's values creates an ENUM type first.
    return {
      code: "sql_read_only",
      message: `DuckDB runs this ${shown} statement as several (a PIVOT without an IN list ` +
        `first creates a type from the data): name the pivoted values with IN (...); ${allowed()}`,
    };
  }
  // A syntax error is the user's; a binder error waits until the statement
  // is known to be a query (a write that does not bind is still a write).
  if (failed !== null && (failed.startsWith("Parser Error") || SHOW_STARTS.has(start))) {
    return { code: "sql_error", message: failed };
  }
  if (SHOW_STARTS.has(start)) return { sql: text };
  // EXPLAIN [ANALYZE] <query>: the query is what follows.
  let query = text;
  if (start === "EXPLAIN") {
    const next = statement[1] !== undefined && types[statement[1]] === KEYWORD &&
        word(statement[1]).toUpperCase() === "ANALYZE"
      ? statement[2]
      : statement[1];
    if (next === undefined) {
      return { code: "sql_read_only", message: `EXPLAIN of nothing: ${allowed()}` };
    }
    query = decoder.decode(bytes.subarray(offsets[next]!, after));
  }
  // Inside "from ( )" DuckDB's grammar admits a query and nothing else; a
  // binder error there still means it parsed as one.
  const asSubquery = engine.prepareError(`select * from (\n${query}\n)`);
  if (asSubquery !== null && (asSubquery.startsWith("Parser Error") || MANY.test(asSubquery))) {
    const near = /at or near "([^"]*)"/.exec(asSubquery)?.[1];
    return {
      code: "sql_read_only",
      message: `this ${start === "(" ? "" : `${start} `}statement is not a query${
        near === undefined ? "" : ` (DuckDB reads it as more than a query at "${near}")`
      }: ${allowed()}`,
    };
  }
  if (failed !== null) return { code: "sql_error", message: failed };
  return { sql: text };
}
