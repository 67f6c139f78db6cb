/**
 * The read-only SQL session against bypass attempts (issue 31 item 7):
 * comments (nested ones too), string escapes, E'' strings, dollar quoting,
 * several statements, PRAGMA/SET/ATTACH/INSTALL/LOAD/COPY/EXPORT/CREATE/
 * INSERT ... RETURNING, CALL, unicode look-alikes. Each is refused, or runs
 * as the one read-only query DuckDB reads in it; afterwards the session's
 * tables hold what was loaded and no file appeared. The keyword filter
 * this replaced ran the INSERT, CREATE and DROP hidden behind `LIKE '\'`
 * and a nested comment.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { loadIntoDuckDb, openDuckDb, readSqlSources, SqlError } from "../lib/mod.ts";
import { main } from "../lib/cli/main.ts";
import { tempDir, writeGateFixture } from "./fixtures.ts";

/** [query, what happens]: a refusal code, or "runs" (the result's first cell). */
function corpus(dir: string): [string, "sql_read_only" | "sql_error" | { runs: unknown }][] {
  const file = join(dir, "leak");
  return [
    // The two bypasses of the keyword filter, and variations.
    [
      "select task_id from attempts where task_id like '\\' ; insert into runs select * from runs returning run_id; --'",
      "sql_read_only",
    ],
    ["select 'a\\' ; drop table runs", "sql_read_only"],
    ["select 1 as x /* a /* nested */ ; drop table runs; */", { runs: 1 }],
    ["select 1 as x /* a */ ; drop table runs; /* b */", "sql_read_only"],
    ["select E'x\\'' ; create table y as select 1", "sql_read_only"],
    ["select E'x\\'; drop table runs; --' as x", { runs: "x'; drop table runs; --" }],
    ["select $$a;b$$ as x; drop table runs", "sql_read_only"],
    ["select $t$ ; drop table runs $t$ as x", { runs: " ; drop table runs " }],
    ["select 'it''s' as x; drop table runs", "sql_read_only"],
    ['select "a;b" from (select 1 as "a;b"); drop table runs', "sql_read_only"],
    ["select 1 as x -- ; drop table runs", { runs: 1 }],
    ["select 1 as x;\n-- trailing comment", { runs: 1 }],
    // Several statements, each allowed alone.
    ["select 1; select 2", "sql_read_only"],
    // Writes and session changes, also behind a query-looking start.
    [
      "with c as (select * from runs) insert into runs select * from c returning run_id",
      "sql_read_only",
    ],
    ["insert into runs select * from runs returning run_id", "sql_read_only"],
    ["create table y as select 1", "sql_read_only"],
    ["create temp view v as select 1", "sql_read_only"],
    ["create macro m(a) as a", "sql_read_only"],
    ["drop table runs", "sql_read_only"],
    ["delete from runs", "sql_read_only"],
    ["update runs set split = 'x'", "sql_read_only"],
    ["alter table runs rename to r2", "sql_read_only"],
    ["truncate runs", "sql_read_only"],
    [`copy runs to '${file}.csv'`, "sql_read_only"],
    [`copy (select 1) to '${file}.csv'`, "sql_read_only"],
    [`export database '${file}'`, "sql_read_only"],
    [`attach '${file}.db' as other`, "sql_read_only"],
    ["detach memory", "sql_read_only"],
    ["install httpfs", "sql_read_only"],
    ["load httpfs", "sql_read_only"],
    ["force install httpfs", "sql_read_only"],
    ["set enable_external_access = true", "sql_read_only"],
    ["reset lock_configuration", "sql_read_only"],
    ["pragma database_list", "sql_read_only"],
    ["pragma enable_profiling", "sql_read_only"],
    ["call pragma_version()", "sql_read_only"],
    ["checkpoint", "sql_read_only"],
    ["begin transaction", "sql_read_only"],
    ["use memory", "sql_read_only"],
    ["prepare p as select 1", "sql_read_only"],
    ["vacuum", "sql_read_only"],
    ["explain analyze insert into runs select * from runs", "sql_read_only"],
    // A PIVOT over the data's values: DuckDB makes an ENUM type first.
    ["pivot attempts on status using count(*)", "sql_read_only"],
    // Queries that read files: DuckDB's own lock.
    [`select * from read_csv('${file}.csv')`, "sql_error"],
    ["select * from read_csv('/etc/hostname')", "sql_error"],
    [`select * from glob('${dir}/*')`, "sql_error"],
    // Unicode: look-alike letters and a full-width semicolon are no keywords or separators.
    ["ѕelect 1", "sql_read_only"], // Cyrillic ѕ
    ["select 1；drop table runs", "sql_error"],
    ["select 1\u200b; drop table runs", "sql_read_only"],
    ["select 1 as x\u00a0", { runs: 1 }],
    ["select '\u202e;drop table runs' as \"x\"", { runs: "\u202e;drop table runs" }],
    ["select 1 as x\0; drop table runs", "sql_read_only"],
    // Read-only statements that run.
    ["describe runs", { runs: "run_id" }],
    ["show tables", { runs: "assignments" }],
    ["summarize select 1 as a", { runs: "a" }],
    ["explain select count(*) from runs", { runs: "physical_plan" }],
    ["pivot (select 1 as k, 'a' as s) on s in ('a') using count(*)", { runs: 1 }],
    [
      "with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select max(n) from r",
      { runs: 3 },
    ],
    ["from runs select count(*)", { runs: 2 }],
    ["select count(*) as \"insert\" from runs where split <> 'drop table runs;'", { runs: 2 }],
  ];
}

/** The loaded tables and their row counts. */
async function tables(db: Awaited<ReturnType<typeof openDuckDb>>): Promise<string> {
  const names = (await db.query(
    "select schema_name || '.' || table_name as t from duckdb_tables() order by 1",
  )).column("t") as string[];
  const views =
    (await db.query("select view_name as v from duckdb_views() where not internal order by 1"))
      .column("v") as string[];
  const counts: string[] = [];
  for (const name of names) {
    const [schema, table] = name.split(".");
    const n = await db.query(`select count(*)::double as n from "${schema}"."${table}"`);
    counts.push(`${name}=${n.column("n")[0]}`);
  }
  const types =
    (await db.query("select count(*)::double as n from duckdb_types() where not internal"))
      .column("n")[0];
  return JSON.stringify({ counts, views, types });
}

Deno.test("the read-only session refuses every bypass attempt or runs only its one query; tables and files unchanged", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 4 });
  const filesBefore = [...Deno.readDirSync(dir.path)].map((e) => e.name).sort();
  const db = await openDuckDb();
  try {
    await loadIntoDuckDb(db, await readSqlSources([fx.gateDir]));
    const before = await tables(db);
    for (const [query, expected] of corpus(dir.path)) {
      let outcome: string | { runs: unknown };
      try {
        const result = await db.query(query);
        outcome = { runs: result.columns[0]![0] };
      } catch (error) {
        if (!(error instanceof SqlError)) throw error;
        outcome = error.code;
      }
      deepEqual(outcome, expected, query);
      equal(await tables(db), before, `tables changed by ${query}`);
    }
  } finally {
    await db.close();
  }
  deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), filesBefore);
});

Deno.test("gate sql prints each refusal as one line: code, the query, the reason; exit 2", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  const cases: [string, RegExp][] = [
    [
      "select task_id from attempts where task_id like '\\' ; drop table runs; --'",
      /^sql_read_only {2}select task_id from attempts where task_id like '\\' ; dro\.\.\. {2}2 statements given; the SQL session is read-only and runs one query .*: give one statement$/,
    ],
    [
      "create table y as select 1",
      /^sql_read_only {2}create table y as select 1 {2}CREATE is not allowed: /,
    ],
    [
      "with c as (select 1) insert into runs select * from c",
      /^sql_read_only {2}.* {2}this WITH statement is not a query \(DuckDB reads it as more than a query at "insert"\)/,
    ],
    [
      "select * from read_csv('/etc/hostname')",
      /^sql_error {2}.* {2}Permission Error: Scanning CSV files is disabled through configuration$/,
    ],
  ];
  for (const [query, line] of cases) {
    const lines: string[] = [];
    const log = console.log, err = console.error;
    console.log = (s: string) => lines.push(String(s));
    console.error = (s: string) => lines.push(String(s));
    let code: number;
    try {
      code = await main(["sql", fx.gateDir, "--query", query]);
    } finally {
      console.log = log;
      console.error = err;
    }
    equal(code, 2, query);
    equal(lines.length, 1, lines.join("\n"));
    match(lines[0]!, line);
  }
});
