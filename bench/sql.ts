/**
 * `deno task bench --sql`: `gate sql`'s start, side by side with native
 * DuckDB in Python (bench/sql_native.py) doing the same load and query,
 * each a fresh process, best wall time of `--repeats` runs (default one):
 *
 * 1. the demo gate (data/demo/ckpt-a/gate-a): `select count(*) from
 *    attempts`; native DuckDB reads both runs' traces.jsonl with
 *    read_json_auto;
 * 2. a 40,000-row gate (bench/gen_scale.py, cached in .cache/bench-scale),
 *    the same query;
 * 3. an analysis output of the demo gate: `select count(*) from
 *    coefficients`; native DuckDB reads coefficients.parquet.
 *
 * Then where the time goes, measured in this process, one step after the
 * other (the CLI overlaps DuckDB's start with reading): starting
 * duckdb-wasm, reading the sources, building the tables, Arrow IPC,
 * inserting, the query. Timings are never test assertions.
 *
 * @module
 */
import { gateArgs } from "./_gate.ts";
import { wall } from "./_wall.ts";
import { openDuckDb } from "../lib/sql/engine.ts";
import { readSqlSources } from "../lib/sql/read_sources.ts";
import { runTables } from "../lib/sql/run_tables.ts";
import { arrowIpcStream } from "../lib/sql/arrow_ipc.ts";

const CACHE = ".cache/bench-scale";

async function best(repeats: number, cmd: string, args: readonly string[]): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) times.push(await wall(cmd, args));
  return Math.min(...times);
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** Where the time of loading `dirs` goes, step by step, in ms. */
async function phases(dirs: readonly string[]): Promise<[string, number][]> {
  const laps: [string, number][] = [];
  let t = performance.now();
  const lap = (what: string) => {
    const now = performance.now();
    laps.push([what, now - t]);
    t = now;
  };
  const db = await openDuckDb();
  lap("start duckdb-wasm");
  try {
    const sources = await readSqlSources(dirs, { only: new Set(["attempts"]) });
    lap("read sources (JSONL parse)");
    const table = runTables(sources.runs, new Set(["attempts"])).attempts;
    lap("build tables");
    const ipc = await arrowIpcStream(table);
    lap("Arrow IPC");
    await db.insertArrowIpc("attempts", ipc);
    lap("insert into DuckDB");
    await db.query("select count(*) from attempts");
    lap("query");
  } finally {
    await db.close();
  }
  return laps;
}

/** Runs the SQL benchmark and prints its table. */
export async function runSql(options: { readonly repeats: number }): Promise<void> {
  const { repeats } = options;
  const big = `${CACHE}/40000`;
  if (!(await exists(`${big}/bare/traces.jsonl`))) {
    console.error(`generating ${big} ...`);
    await wall("python3", ["bench/gen_scale.py", big, "--tasks", "40000", "--columns", "16"]);
  }
  const tmp = await Deno.makeTempDir({ prefix: "gatelab-bench-sql-" });
  try {
    const out = `${tmp}/out`;
    await wall(
      "deno",
      gateArgs(["analyze", "data/demo/ckpt-a/gate-a", "--out", out, "--bootstrap", "0", "--quiet"]),
    );
    const count = "select count(*) from attempts";
    const cases: { name: string; ours: string[]; native: string[] }[] = [
      {
        name: "demo gate, 806 attempts",
        ours: ["sql", "data/demo/ckpt-a/gate-a", "--query", count],
        native: [
          count,
          "attempts=data/demo/ckpt-a/bare-val/traces.jsonl,data/demo/ckpt-a/gate-a/traces.jsonl",
        ],
      },
      {
        name: "40,000-row gate, 80,000 attempts",
        ours: ["sql", `${big}/gate`, "--query", count],
        native: [count, `attempts=${big}/bare/traces.jsonl,${big}/gate/traces.jsonl`],
      },
      {
        name: "demo analysis output, coefficients",
        ours: ["sql", out, "--query", "select count(*) from coefficients"],
        native: ["select count(*) from coefficients", `coefficients=${out}/coefficients.parquet`],
      },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      const ours = await best(repeats, "deno", gateArgs(c.ours));
      const native = await best(repeats, "python3", ["bench/sql_native.py", ...c.native]);
      rows.push([
        c.name,
        `${(ours / 1000).toFixed(2)} s`,
        `${(native / 1000).toFixed(2)} s`,
        `${(ours / native).toFixed(1)}x`,
      ]);
    }
    // Load average of the machine (Linux; the bench has no --allow-sys=loadavg).
    const load = await Deno.readTextFile("/proc/loadavg").then(
      (t) => Number(t.split(" ")[0]),
      () => undefined,
    );
    console.log(
      `gate sql vs native DuckDB (Python), best of ${repeats}, fresh processes` +
        (load === undefined ? "" : `; load average ${load.toFixed(1)} at the end`),
    );
    console.log(["case", "gate sql", "native", "ratio"].join(" | "));
    for (const r of rows) console.log(r.join(" | "));
    for (
      const [name, dirs] of [["demo gate", ["data/demo/ckpt-a/gate-a"]], ["40,000-row gate", [
        `${big}/gate`,
      ]]] as const
    ) {
      console.log(`\nwhere the time goes (${name}, in process, one step after the other):`);
      for (const [what, ms] of await phases(dirs)) {
        console.log(`  ${what.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms`);
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
