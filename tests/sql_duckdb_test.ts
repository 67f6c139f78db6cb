/**
 * DuckDB: a fixture gate loaded into duckdb-wasm; SQL aggregates agree
 * with the values the TypeScript validation computed.
 */
import { deepEqual, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { run } from "../lib/cli/sql.ts";
import { UsageError } from "../lib/cli/args.ts";
import { openDuckDb } from "../lib/sql/engine.ts";
import { loadIntoDuckDb } from "../lib/sql/load_tables.ts";
import { readSqlSources } from "../lib/sql/read_sources.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { quiet, tempDir, writeGateFixture } from "./fixtures.ts";

Deno.test("SQL over a loaded gate agrees with the paired dataset", async (t) => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 25, repeats: 2, failedFirst: [3, 10] });
  const dataset = (await validateGates([fx.gateDir])).dataset!;
  const sources = await readSqlSources([fx.gateDir]);
  deepEqual(sources.issues, []);
  const db = await openDuckDb();
  try {
    const counts = await loadIntoDuckDb(db, sources);
    deepEqual(counts, {
      runs: 2,
      attempts: 50 + 52,
      rewards: 100 * 2, // completed attempts x components (r_strict, r_success); failed carry none
      injected: fx.rows.reduce((a, r) => a + r.present.length, 0) +
        [3, 10].reduce((a, i) => a + fx.rows[i]!.present.length, 0),
      gates: 1,
      versions: 4,
      assignments: 50 * 4,
    });

    await t.step("attempts and failures per arm", async () => {
      const r = await db.query(
        "select r.arm, count(*)::int as n, count(*) filter (where a.status = 'failed')::int as failed " +
          "from attempts a join runs r using (run_id) group by r.arm order by r.arm",
      );
      deepEqual(r.rows(), [{ arm: "bare", n: 50, failed: 0 }, { arm: "masked", n: 52, failed: 2 }]);
      ok(r.column("n") instanceof Int32Array);
    });

    await t.step("mean paired delta of every metric equals the TS dataset", async () => {
      const r = await db.query(`
        with c as (
          select r.arm, a.split, a.task_id, a.sample_id, w.component, w.value
          from attempts a join runs r on r.run_id = a.run_id
          join rewards w on w.run_id = a.run_id and w.split = a.split and w.task_id = a.task_id
            and w.sample_id = a.sample_id and w.attempt = a.attempt
          where a.status = 'completed')
        select m.component, avg(m.value - b.value) as delta_mean, count(*)::int as n
        from c m join c b using (split, task_id, sample_id, component)
        where m.arm = 'masked' and b.arm = 'bare'
        group by m.component order by m.component`);
      const mean = (x: Float64Array) => x.reduce((a, b) => a + b, 0) / x.length;
      const got = r.rows();
      deepEqual(got.map((row) => [row["component"], row["n"]]), [["r_strict", 50], [
        "r_success",
        50,
      ]]);
      for (const row of got) {
        const want = mean(dataset.delta[row["component"] as string]!);
        ok(
          Math.abs((row["delta_mean"] as number) - want) < 1e-12,
          `${row["component"]}: ${row["delta_mean"]} vs ${want}`,
        );
      }
    });

    await t.step(
      "presence of each version from assignments equals the design column sums",
      async () => {
        const r = await db.query(
          "select v.version_id, count(a.version_id)::int as present from versions v " +
            "left join assignments a on a.gate_id = v.gate_id and a.version_id = v.version_id " +
            "group by v.version_id, v.column_index order by v.column_index",
        );
        const sums = dataset.columns.map((_, j) => {
          let s = 0;
          for (let i = 0; i < dataset.n; i++) s += dataset.design[i * dataset.k + j]!;
          return s;
        });
        deepEqual(
          r.rows(),
          dataset.columns.map((c, j) => ({ version_id: c.version_id, present: sums[j]! })),
        );
      },
    );

    await t.step(
      "NULL reward for failed attempts; BIGINT and DOUBLE come back as Float64Array",
      async () => {
        const r = await db.query(
          "select count(*) as n, sum(case when reward is null then 1 else 0 end) as nulls, " +
            "max(job_seed) as max_seed from attempts where status = 'failed'",
        );
        deepEqual(r.rows(), [{ n: 2, nulls: 2, max_seed: 1010 }]);
        ok(r.column("n") instanceof Float64Array);
      },
    );
  } finally {
    await db.close();
  }
});

Deno.test("gate sql writes the result as CSV atomically; refuses bad usage and empty input", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 6 });
  const out = join(dir.path, "res", "arms.csv");
  await Deno.mkdir(join(dir.path, "res")); // sql --out never makes directories
  await Deno.mkdir(join(dir.path, "nothing-here"));
  const log = console.log, err = console.error;
  const printed: string[] = [];
  console.log = (s: string) => printed.push(s);
  console.error = (s: string) => printed.push(s);
  try {
    deepEqual(
      await run([
        fx.gateDir,
        fx.bareDir,
        "--query",
        "select arm, n_tasks from runs order by arm",
        "--out",
        out,
      ]),
      0,
    );
    deepEqual(await run([join(dir.path, "nothing-here"), "--query", "select 1"]), 2);
    await rejects(() => run([fx.gateDir]), UsageError);
    await rejects(() => run([join(dir.path, "no-such-dir"), "--query", "select 1"]), UsageError);
    await rejects(
      () => run([fx.gateDir, "--query", "select 1", "--out", join(dir.path, "no", "x.csv")]),
      /directory .* does not exist/,
    );
  } finally {
    console.log = log;
    console.error = err;
  }
  deepEqual(await Deno.readTextFile(out), "arm,n_tasks\nbare,6\nmasked,6\n");
  deepEqual([...Deno.readDirSync(join(dir.path, "res"))].map((e) => e.name), ["arms.csv"]);
});

Deno.test("gate sql refuses COPY, EXPORT, ATTACH, INSTALL, LOAD and writes with exit 2 and one line; nothing is written", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 4 });
  const target = join(dir.path, "leak.csv");
  const refused = [
    `COPY runs TO '${target}'`,
    `copy (select * from attempts) to '${target}' (format csv)`,
    `EXPORT DATABASE '${dir.path}/exported'`,
    `ATTACH '${dir.path}/other.db' AS other`,
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "insert into runs select * from runs",
    "with c as (select * from runs) insert into runs select * from c",
    "select 1; drop table runs",
    "create table x as select 1",
    "PRAGMA database_list",
  ];
  for (const query of refused) {
    const lines: string[] = [];
    const log = console.log, err = console.error;
    console.log = (s: string) => lines.push(s);
    console.error = (s: string) => lines.push(s);
    let code: number;
    try {
      code = await run([fx.gateDir, "--query", query, "--out", join(dir.path, "out.csv")]);
    } finally {
      console.log = log;
      console.error = err;
    }
    deepEqual(code, 2, query);
    deepEqual(lines.length, 1, `${query}: ${lines.join(" | ")}`);
    ok(/^sql_read_only {2}.+ {2}.*the SQL session is read-only/.test(lines[0]!), lines[0]);
  }
  deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), ["bare-val", "gate"]);
});

Deno.test("the DuckDB session itself is read-only and has no file access", async () => {
  await using dir = await tempDir();
  const db = await openDuckDb();
  try {
    await rejects(() => db.query(`copy (select 1) to '${dir.path}/x.csv'`), /read-only/);
    await rejects(() => db.query("select 1 as x; create table t as select 1"), /2 statements/);
    // A query, yet DuckDB's own lock still refuses files.
    await rejects(() => db.query("select * from read_csv('/etc/hostname')"), /disabled/);
    deepEqual((await db.query("select 'COPY' as \"set\"")).column("set"), ["COPY"]);
  } finally {
    await db.close();
  }
  deepEqual([...Deno.readDirSync(dir.path)], []);
});

Deno.test("gate sql --out prefixes text cells a spreadsheet would run as formulas", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 2 });
  const out = join(dir.path, "cells.csv");
  const query = `select * from (values
    ('=1+1', -0.5), ('+SUM(A1:A2)', 1.0), ('-2+3', 2.0), ('@cmd', 3.0),
    ('-0.5', 4.0), ('a=b', 5.0), ('=HYPERLINK("http://x")', 6.0)) v(text, num) order by num`;
  deepEqual(await quiet(() => run([fx.gateDir, "--query", query, "--out", out])), 0);
  deepEqual(
    await Deno.readTextFile(out),
    [
      "text,num",
      "'=1+1,-0.5",
      "'+SUM(A1:A2),1",
      "'-2+3,2",
      "'@cmd,3",
      "-0.5,4",
      "a=b,5",
      `"'=HYPERLINK(""http://x"")",6`,
      "",
    ].join("\n"),
  );
});
