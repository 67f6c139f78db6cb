/**
 * Words a read-only statement may start with: queries (`SELECT`, `WITH`,
 * `VALUES`, DuckDB's `FROM`-first and `TABLE`), and `EXPLAIN`, `DESCRIBE`,
 * `SHOW`, `SUMMARIZE`, `PIVOT`, `UNPIVOT`.
 */
export const READ_ONLY_STARTS: readonly string[] = [
  "SELECT",
  "WITH",
  "VALUES",
  "FROM",
  "TABLE",
  "EXPLAIN",
  "DESCRIBE",
  "SHOW",
  "SUMMARIZE",
  "PIVOT",
  "UNPIVOT",
];

/**
 * Keywords that write, leave the in-memory database or change the session
 * (`WITH ... INSERT` starts like a query, so they are refused anywhere in
 * a statement outside strings, quoted identifiers and comments).
 */
export const WRITING_WORDS: readonly string[] = [
  "INSERT",
  "UPDATE",
  "DELETE",
  "MERGE",
  "UPSERT",
  "TRUNCATE",
  "CREATE",
  "DROP",
  "ALTER",
  "COPY",
  "EXPORT",
  "IMPORT",
  "ATTACH",
  "DETACH",
  "INSTALL",
  "LOAD",
  "FORCE",
  "SET",
  "RESET",
  "PRAGMA",
  "CALL",
  "CHECKPOINT",
  "VACUUM",
  "USE",
];

const STARTS = new Set(READ_ONLY_STARTS);
const WRITING = new Set(WRITING_WORDS);

/**
 * The bare words of each statement of SQL text, upper-cased: string
 * literals (`'...'`, `E'...'`, `$$...$$`), quoted identifiers (`"..."`) and
 * comments (`--`, `/* *\/`) are skipped, statements are split on `;`.
 */
function statementWords(sql: string): string[][] {
  const statements: string[][] = [[]];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      // Doubled quotes escape themselves; E'' strings also use backslashes.
      const escaped = c === "'" && i > 0 && /[eE]/.test(sql[i - 1]!);
      for (i++; i < n; i++) {
        if (escaped && sql[i] === "\\") i++;
        else if (sql[i] === c) {
          if (sql[i + 1] === c) i++;
          else break;
        }
      }
      i++;
    } else if (c === "$" && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end === -1 ? n : end + tag.length;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? n : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === ";") {
      statements.push([]);
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i, i + 256))![0];
      statements[statements.length - 1]!.push(word.toUpperCase());
      i += word.length;
    } else i++;
  }
  return statements.filter((words) => words.length > 0);
}

/**
 * Why SQL text is not a read-only query, or null when it is. The SQL
 * session of `gate sql` and `openDuckDb` only reads the loaded tables:
 * every statement must start with one of {@linkcode READ_ONLY_STARTS} and
 * contain none of {@linkcode WRITING_WORDS} as a bare word (quote an
 * identifier with that name: `"set"`). DuckDB itself also runs with
 * external access disabled, so no statement can reach the file system.
 *
 * @param sql SQL text, possibly several statements.
 * @returns One sentence naming the refused word, or null.
 *
 * @example
 * ```ts
 * import { readOnlyRefusal } from "./read_only.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(readOnlyRefusal("select 'COPY; DROP' as \"insert\" -- delete\nfrom runs"), null);
 * deepEqual(readOnlyRefusal("COPY runs TO '/tmp/x.csv'"), "COPY is not allowed: the SQL session is read-only (statements start with SELECT, WITH, VALUES, FROM, TABLE, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE, PIVOT or UNPIVOT)");
 * deepEqual(readOnlyRefusal("with c as (select 1) insert into runs select * from c"), "INSERT is not allowed: the SQL session is read-only and never writes");
 * ```
 */
export function readOnlyRefusal(sql: string): string | null {
  for (const words of statementWords(sql)) {
    const first = words[0]!;
    if (!STARTS.has(first)) {
      return `${first} is not allowed: the SQL session is read-only (statements start with ${
        READ_ONLY_STARTS.slice(0, -1).join(", ")
      } or ${READ_ONLY_STARTS.at(-1)})`;
    }
    const writing = words.find((w) => WRITING.has(w));
    if (writing !== undefined) {
      return `${writing} is not allowed: the SQL session is read-only and never writes`;
    }
  }
  return null;
}
