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
import { tempDir, writeGateFixture } from "./fixtures.ts";

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
