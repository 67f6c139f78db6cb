/**
 * `gate sql` and the notebooks' loader over analysis outputs: the tidy
 * tables of two online rounds (demo checkpoint B, analysed here) as SQL
 * tables joinable with the gates and runs, equal to the JSON to the bit;
 * an older output without tables loaded from its JSON with a note; a
 * directory that is neither run, gate nor output refused with exit 2.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { openDuckDb } from "../lib/sql/engine.ts";
import { loadIntoDuckDb } from "../lib/sql/load_tables.ts";
import { readSqlSources } from "../lib/sql/read_sources.ts";
import { sqlTables } from "../lib/sql/tables.ts";
import { quiet } from "./fixtures.ts";
import { readContributions } from "./contributions_file.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { gate, ROOT, smallCsv, tempDir } from "./import_gate.ts";

const R1 = "data/demo/ckpt-b/gate-online-r1";
const R2 = "data/demo/ckpt-b/gate-online-r2";
const DRAWS = 20;

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let cached: Promise<{ root: string; r1: string; r2: string; old: string }> | null = null;
/** Both rounds analysed once per process, and a copy of round 1 without its tables (an older output). */
function outputs() {
  cached ??= (async () => {
    const root = await Deno.makeTempDir({ prefix: "gatelab-sql-out-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
    const [r1, r2, old] = ["r1", "r2", "old"].map((n) => join(root, n));
    for (const [gate, out] of [[R1, r1], [R2, r2]] as const) {
      const args = ["analyze", gate, "--out", out!, "--bootstrap", String(DRAWS), "--save-draws"];
      deepEqual(await quiet(() => main([...args, "--quiet"])), 0);
    }
    await Deno.mkdir(old!);
    await Deno.copyFile(join(r1!, "selection.json"), join(old!, "selection.json"));
    // An older gatelab held the per-task rows in contributions.json's `tasks`, where
    // `tasks_table` is now.
    const { tasks, ...doc } = await readContributions(r1!);
    const older = Object.fromEntries(
      Object.entries(doc).map(([key, value]) =>
        key === "tasks_table" ? ["tasks", tasks] : [key, value]
      ),
    );
    await Deno.writeTextFile(
      join(old!, "contributions.json"),
      JSON.stringify(older, null, 2) + "\n",
    );
    return { root, r1: r1!, r2: r2!, old: old! };
  })();
  return cached;
}

const json = async (path: string): Promise<Json> => JSON.parse(await Deno.readTextFile(path));

/** Runs `gate sql` in process; returns exit code, stdout and stderr lines. */
async function sql(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    return { code: await main(["sql", ...args]), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("gate sql over two outputs: coefficients side by side equal both JSONs, draws pooled, tasks join gates", async () => {
  const { root, r1, r2 } = await outputs();
  const csv = join(root, "side.csv");
  const side = await sql([
    r1,
    r2,
    "--query",
    `select a.version_id, a.estimate as r1, b.estimate as r2, a.se_cluster as r1_se
     from coefficients a join coefficients b using (metric, version_id)
     where a.output = '${r1}' and b.output = '${r2}' and metric = 'reward' order by version_id`,
    "--out",
    csv,
  ]);
  deepEqual([side.code, side.err], [0, []]);
  const c1 = (await json(join(r1, "contributions.json"))).metrics.reward.coefficients;
  const c2 = (await json(join(r2, "contributions.json"))).metrics.reward.coefficients;
  const lines = (await Deno.readTextFile(csv)).trim().split("\n");
  deepEqual(lines[0], "version_id,r1,r2,r1_se");
  const versions = Object.keys(c1).filter((v) => v in c2).sort();
  deepEqual(lines.length - 1, versions.length);
  ok(versions.length >= 10);
  lines.slice(1).forEach((line, i) => {
    const [v, a, b, s] = line.split(",");
    deepEqual(v, versions[i]);
    // toCsv writes String(number): the same double as the JSON's.
    deepEqual([Number(a), Number(b), Number(s)], [
      c1[v!].estimate,
      c2[v!].estimate,
      c1[v!].se_cluster,
    ]);
  });

  const pooled = await sql([
    r1,
    r2,
    "--query",
    "select o.gate_ids[1] as gate, count(*)::int as n, count(distinct draw)::int as draws " +
    "from draws d join outputs o using (output) group by 1 order by 1",
  ]);
  deepEqual(pooled.code, 0);
  const k1 = Object.keys(c1).length, k2 = Object.keys(c2).length;
  const m = Object.keys((await json(join(r1, "contributions.json"))).metrics).length;
  ok(pooled.out[0]!.includes(`gate-online-r1  ${DRAWS * m * k1}`), pooled.out[0]);
  ok(pooled.out[0]!.includes(`gate-online-r2  ${DRAWS * m * k2}`), pooled.out[0]);

  // tasks.round is the gate id: joinable with the gates table of the gate directories.
  const joined = await sql([
    r1,
    R1,
    "--query",
    "select g.stage, count(*)::int as n from tasks t join gates g on g.gate_id = t.round " +
    "join runs r on r.run_id = g.masked_run_id group by 1",
  ]);
  deepEqual(joined.code, 0);
  const rows = (await json(join(r1, "contributions.json"))).n_pairs;
  ok(joined.out[0]!.includes(`online  ${rows}`), joined.out[0]);
});

Deno.test("sqlTables over outputs: the tidy tables, with an output column; an older output is loaded from its JSON", async () => {
  const { r1, old } = await outputs();
  const sources = await readSqlSources([r1, old]);
  deepEqual(sources.notes, [
    `${old}: no tidy tables (an output of an older gatelab); coefficients, tasks, selection built from its JSON, no draws`,
  ]);
  deepEqual(sources.outputs!.map((o) => o.source), ["parquet", "json"]);
  const db = await openDuckDb();
  try {
    const counts = await loadIntoDuckDb(db, sources);
    const c = await json(join(r1, "contributions.json"));
    const m = Object.keys(c.metrics).length, k = c.columns.length;
    deepEqual(
      [counts.outputs, counts.coefficients, counts.tasks, counts.selection, counts.draws],
      [2, 2 * m * k, 2 * c.n_pairs, 2 * k, DRAWS * m * k],
    );
    const tables = await sqlTables(db);
    const names = tables.map((t) => t.name);
    for (const t of ["outputs", "coefficients", "tasks", "selection", "draws", "runs"]) {
      ok(names.includes(t), t);
    }
    const coefficients = tables.find((t) => t.name === "coefficients")!;
    deepEqual(coefficients.columns.slice(0, 3).map((x) => x.name), [
      "output",
      "metric",
      "version_id",
    ]);
    deepEqual(coefficients.columns.find((x) => x.name === "estimate")!.type, "DOUBLE");
    // The JSON-derived tables of the older output equal the Parquet ones, value for value.
    for (const table of ["coefficients", "tasks", "selection"]) {
      const differ = await db.query(
        `select count(*)::int as n from ((select * exclude (output) from ${table} where output = '${r1}')
         except all (select * exclude (output) from ${table} where output = '${old}'))`,
      );
      deepEqual(differ.rows()[0], { n: 0 }, table);
    }
    const same = await db.query(
      `select count(*)::int as n from coefficients a join coefficients b using (metric, version_id)
       where a.output = '${r1}' and b.output = '${old}' and a.estimate = b.estimate
       and a.se is not distinct from b.se and a.rank is not distinct from b.rank`,
    );
    deepEqual(same.rows()[0], { n: m * k });
  } finally {
    await db.close();
  }
});

Deno.test("gate sql: an older output prints a one-line note; a directory that is no run, gate or output is exit 2", async () => {
  const { root, old } = await outputs();
  const r = await sql([old, "--query", "select count(*)::int as n from coefficients"]);
  deepEqual(r.code, 0);
  deepEqual(r.err, [
    `note: ${old}: no tidy tables (an output of an older gatelab); coefficients, tasks, selection built from its JSON, no draws`,
  ]);
  await Deno.mkdir(join(root, "empty"), { recursive: true });
  const bad = await sql([join(root, "empty"), "--query", "select 1"]);
  deepEqual([bad.code, bad.err], [2, [
    `usage_error  ${
      join(root, "empty")
    } is not a gate (gate.json), a run (manifest.json) or a gatelab output (contributions.json or .gatelab-output.json): gate sql reads those directories`,
  ]]);
  const none = await sql([R1, "--query", "select * from coefficients"]);
  deepEqual([none.code, none.err.length], [2, 1]);
  ok(none.err[0]!.includes("no directory given is an analysis output"), none.err[0]);
});

Deno.test("gate sql over other commands' outputs: their tidy tables by file name, output_ before a taken name", async () => {
  const { root, r1 } = await outputs();
  const reward = join(root, "reward");
  const rewardArgs = ["reward", "data/demo/steps/steps.jsonl", "--recipe", "A", "--out", reward];
  deepEqual(await quiet(() => main([...rewardArgs, "--quiet"])), 0);
  const power = join(root, "power");
  const powerArgs = ["plan-power", "--from", r1, "--sims", "50", "--out", power, "--quiet"];
  deepEqual(await quiet(() => main(powerArgs)), 0);
  const sources = await readSqlSources([reward, power]);
  deepEqual(sources.outputs.map((o) => Object.keys(o.tables)), [["output_rewards"], ["mde"]]);
  const lines = (await Deno.readTextFile(join(reward, "rewards.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l));
  const r = await sql([
    reward,
    power,
    "--query",
    "select (select count(*)::int from output_rewards) as n, " +
    "(select sum(reward) from output_rewards) as s, (select count(*)::int from mde) as m",
  ]);
  deepEqual(r.code, 0);
  const doc = await json(join(power, "power.json"));
  const sum = lines.reduce((a: number, l: Json) => a + (l.reward ?? 0), 0);
  const cells = r.out[0]!.split("\n")[2]!.trim().split(/\s+/);
  deepEqual(Number(cells[0]), lines.length);
  ok(Math.abs(Number(cells[1]) - sum) < 1e-9 * Math.max(1, Math.abs(sum)), `${cells[1]} vs ${sum}`);
  deepEqual(Number(cells[2]), doc.mde_by_tasks.length + doc.mde_by_columns.length);
});

Deno.test({
  name:
    "docs/validation.md: the two-outputs join, run as written from a user's directory, prints what it shows",
  ignore: ignoreWithout("deno", "sql_outputs_test (docs join)"),
  async fn() {
    const text = await Deno.readTextFile(join(ROOT, "docs", "validation.md"));
    const at = text.indexOf("Two analysis outputs side by side");
    ok(at >= 0, "docs/validation.md: the two-outputs example is missing");
    const start = text.indexOf("```\n", at) + 4;
    const block = text.slice(start, text.indexOf("\n```", start)).split("\n");
    const commands = block.filter((l) => l.startsWith("$ "));
    deepEqual(commands.length, 3);
    await using dir = await tempDir();
    let printed: string[] = [];
    for (const command of commands) {
      const query = /--query "(.*)"$/.exec(command)?.[1];
      const words = command.replace(/ --query ".*"$/, "").split(" ").slice(4)
        .map((w) => w.startsWith("data/demo/") ? join(ROOT, w) : w);
      const ran = await gate(dir.path, query === undefined ? words : [...words, "--query", query]);
      deepEqual(ran.code, 0, `${command}: ${ran.stderr}`);
      printed = ran.stdout.split("\n").filter((l) => l !== "");
    }
    deepEqual(printed, block.filter((l) => !l.startsWith("$ ")));
  },
});

Deno.test({
  name: "gate sql over an import's --out loads the gates it lists (not an output without tables)",
  ignore: ignoreWithout("deno", "sql_outputs_test (import dir)"),
  async fn() {
    await using dir = await tempDir();
    await Deno.writeTextFile(join(dir.path, "t.csv"), smallCsv(8));
    const imported = await gate(dir.path, ["import", "table", "t.csv", "--out", "imp"]);
    deepEqual(imported.code, 0, imported.stderr);
    const query = "select g.gate_id, r.arm, count(*)::int as n from attempts a " +
      "join runs r using (run_id) cross join gates g group by all order by 2";
    const ran = await gate(dir.path, ["sql", "imp", "--query", query]);
    deepEqual(ran.code, 0, ran.stderr);
    // smallCsv(8): 8 tasks, one bare and one masked row each; one gate.
    deepEqual(ran.stdout.trimEnd().split("\n").slice(2), [
      "gate     bare    8",
      "gate     masked  8",
      "(2 rows)",
    ]);
    ok(!ran.stderr.includes("without tidy tables"), ran.stderr);
  },
});
