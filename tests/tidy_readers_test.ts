/**
 * The tidy tables of `gate analyze` read by the readers users have:
 * pandas, polars and native DuckDB in Python (scripts/read_tables.py: each
 * reads every table's Parquet and CSV in one line) and base R's `read.csv`
 * (scripts/read_tables.R). Each must see every table with its rows and
 * columns and reproduce a handful of numbers of contributions.json and
 * selection.json exactly (Python prints floats in their shortest round-trip
 * repr, R with 17 significant digits; both parse back to the same double),
 * and infer each kind of column as its type: text, float, integer and
 * boolean (`TRUE`/`FALSE` in CSV, which R reads as logical).
 */
import { readContributions } from "./contributions_file.ts";
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { quiet } from "./fixtures.ts";

const GATE = "data/demo/ckpt-a/gate-a";
/** The types every reader must infer, from the file alone: text, float, integer, boolean. */
const TYPES: Record<string, Record<string, string>> = {
  coefficients: { metric: "str", estimate: "float" },
  selection: { status: "str", alpha: "float", budget_k: "int", retired: "bool" },
};
const VERSION = "query-formulation.v1";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

let cached: Promise<{ out: string; expected: Json }> | null = null;
/** The demo gate analysed once, and the values every reader must reproduce (from its JSON). */
function analysed() {
  cached ??= (async () => {
    const out = await Deno.makeTempDir({ prefix: "gatelab-readers-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(out, { recursive: true }));
    const args = ["analyze", GATE, "--out", out, "--bootstrap", "30", "--save-draws", "--quiet"];
    deepEqual(await quiet(() => main(args)), 0);
    const contributions = await readContributions(out);
    const selection = JSON.parse(await Deno.readTextFile(join(out, "selection.json")));
    const c = contributions.metrics.reward.coefficients[VERSION];
    const d = selection.decisions.find((x: Json) => x.version_id === VERSION);
    const t = contributions.tasks[5];
    const metrics = Object.keys(contributions.metrics);
    const versions: string[] = contributions.columns.map((x: Json) => x.version_id);
    const coefficientRows = metrics.length * versions.length;
    // Row 10 of draws: draw 0, metric 0, version 10 (draw-major, then metric, then version).
    // Its estimate as gatelab wrote it (the draws themselves are checked against the
    // JSON's intervals in analyze_tidy_tables_test.ts).
    const drawVersion = versions[10]!;
    const drawField = (await Deno.readTextFile(join(out, "draws.csv"))).split("\n")[11]!.split(
      ",",
    )[3]!;
    const expected: Json = {
      coefficients: {
        rows: coefficientRows,
        picks: {
          estimate: c.estimate,
          se: c.se_robust,
          p: c.p,
          se_cluster: c.se_cluster,
          ci_low: c.ci[0],
          ci_high: c.ci[1],
          rank: d.rank,
          status: d.status,
        },
      },
      tasks: {
        rows: contributions.tasks.length,
        picks: {
          task_id: t.task_id,
          sample_id: t.sample_id,
          reward_delta: t.values.reward.delta,
          r_strict_masked: t.values.r_strict.masked,
          [`mask:${VERSION}`]: t.columns[VERSION],
          injected: versions.filter((v) => t.columns[v] === 1),
        },
      },
      selection: {
        rows: selection.decisions.length,
        picks: { alpha: d.alpha, rank: d.rank, retired: d.retired, status: d.status },
      },
      draws: {
        rows: 30 * coefficientRows,
        picks: {
          draw: 0,
          metric: metrics[0],
          version_id: drawVersion,
          estimate: drawField === "" ? null : Number(drawField),
        },
      },
    };
    return { out, expected };
  })();
  return cached;
}

/** Column names of each table, from the CSV header line (what the writer wrote). */
async function headers(out: string): Promise<Record<string, string[]>> {
  const names: Record<string, string[]> = {};
  for (const table of ["coefficients", "tasks", "selection", "draws"]) {
    const text = await Deno.readTextFile(join(out, `${table}.csv`));
    names[table] = text.slice(0, text.indexOf("\n")).split(",");
  }
  return names;
}

async function runTool(command: string, args: string[]): Promise<string> {
  const o = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  const err = new TextDecoder().decode(o.stderr);
  if (!o.success) throw new Error(`${command} ${args.join(" ")} failed: ${err}`);
  return new TextDecoder().decode(o.stdout);
}

Deno.test({
  name: "tidy tables: pandas, polars and DuckDB read every table and reproduce the JSON's numbers",
  ignore: ignoreWithout("python3", "tidy readers (Python)"),
  async fn() {
    const { out, expected } = await analysed();
    const columns = await headers(out);
    const readers = JSON.parse(await runTool("python3", ["scripts/read_tables.py", out, VERSION]));
    deepEqual(Object.keys(readers), [
      "pandas_parquet",
      "pandas_csv",
      "polars_parquet",
      "polars_csv",
      "duckdb_parquet",
      "duckdb_csv",
    ]);
    for (const [reader, tables] of Object.entries(readers as Json)) {
      for (const table of ["coefficients", "tasks", "selection", "draws"]) {
        const got = tables[table];
        const want = expected[table];
        deepEqual(got.rows, want.rows, `${reader} ${table} rows`);
        deepEqual(got.columns, columns[table], `${reader} ${table} columns`);
        deepEqual(got.picks, want.picks, `${reader} ${table} values`);
        deepEqual(got.types, TYPES[table] ?? {}, `${reader} ${table} types`);
      }
    }
  },
});

Deno.test({
  name: "tidy tables: R's read.csv reads every table and reproduces the JSON's numbers",
  ignore: ignoreWithout("Rscript", "tidy readers (R)"),
  async fn() {
    const { out, expected } = await analysed();
    const columns = await headers(out);
    const lines = (await runTool("Rscript", ["scripts/read_tables.R", out, VERSION])).trim()
      .split("\n").map((l) => l.split("\t"));
    const num = (s: string) => (s.trim() === "NA" ? null : Number(s));
    const byTable = Object.fromEntries(lines.map(([table, ...rest]) => [table!, rest]));
    for (const table of ["coefficients", "tasks", "selection", "draws"]) {
      const [rows, names] = byTable[table]!;
      deepEqual([Number(rows), names!.split("|")], [expected[table].rows, columns[table]], table);
    }
    const co = byTable.coefficients!.slice(2);
    const e = expected.coefficients.picks;
    deepEqual(
      [...co.slice(0, 7).map(num), co[7]],
      [e.estimate, e.se, e.p, e.se_cluster, e.ci_low, e.ci_high, e.rank, e.status],
    );
    const ta = byTable.tasks!.slice(2);
    const t = expected.tasks.picks;
    deepEqual(
      [ta[0], num(ta[1]!), num(ta[2]!), num(ta[3]!), num(ta[4]!), JSON.parse(ta[5]!)],
      [t.task_id, t.sample_id, t.reward_delta, t.r_strict_masked, t[`mask:${VERSION}`], t.injected],
    );
    const se = byTable.selection!.slice(2);
    const s = expected.selection.picks;
    deepEqual([num(se[0]!), num(se[1]!), se[2], se[3]], [
      s.alpha,
      s.rank,
      String(s.retired).toUpperCase(),
      s.status,
    ]);
    const [, ...types] = lines.find(([t]) => t === "types")!;
    deepEqual(types, [
      ...Object.values(TYPES.coefficients!),
      ...Object.values(TYPES.selection!),
    ], "read.csv's types");
    const dr = byTable.draws!.slice(2);
    const w = expected.draws.picks;
    deepEqual([num(dr[0]!), dr[1], dr[2], num(dr[3]!)], [0, w.metric, w.version_id, w.estimate]);
  },
});
