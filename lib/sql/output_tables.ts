/**
 * gatelab analysis outputs as SQL tables: an output directory of `gate
 * analyze` brings `coefficients`, `tasks`, `selection` and (with
 * `--save-draws`) `draws` from its Parquet files, without re-parsing its
 * JSON; an output written before the tables existed gets the same tables
 * built from its JSON (no `draws`), with a note. Several outputs are
 * stacked into one table each (`union all by name`), with an `output`
 * column naming the directory; `outputs` has one row per directory.
 * Any other gatelab output directory (one holding `.gatelab-output.json`)
 * brings the tidy table of its command (`splits`, `comparison`, `mde`,
 * ...): every Parquet file it lists, as a table of the file's name
 * (`output_<name>` where that is already a table of runs or gates, e.g.
 * `output_rewards` for `gate reward`).
 *
 * @module
 */
import { join } from "node:path";
import { OUTPUT_MARKER } from "../core/atomic_write.ts";
import { SQL_COLUMN_KINDS } from "./sql_schema.ts";
import { STUDY_TABLES_FORMAT } from "../tidy/study_columns.ts";
import { readJsonMembers } from "../load/json_head.ts";
import type { TidyTable } from "../tidy/tidy_table.ts";
import {
  ANALYSIS_TIDY_TABLES,
  coefficientsTable,
  selectionTable,
  tasksTable,
} from "../analyze/analyze_tidy.ts";
import type { ContributionsOutput, SelectionOutput, TaskRow } from "../analyze/types.ts";

/** Name of a table an analysis output brings. */
export type OutputTableName = "coefficients" | "tasks" | "selection" | "draws";

/**
 * The tables an analysis output brings, in load order, for library
 * callers: the analyze stage's declaration, `ANALYSIS_TIDY_TABLES`, which
 * is its bundle's `tidy`. `gate sql` passes the analysis bundle's `tidy`
 * from `BUNDLES` (lib/report/bundles.ts, above this stage) as
 * `analysisTables` instead; this stage holds no list of stages.
 */
export const OUTPUT_TABLES: readonly OutputTableName[] = ANALYSIS_TIDY_TABLES;

/** One analysis output as read for SQL. */
export interface SqlOutput {
  /** The directory as given. */
  readonly dir: string;
  /** Where its tables come from: its Parquet files, or its JSON (an older output). */
  readonly source: "parquet" | "json";
  /**
   * Per table, the Parquet file (source "parquet") or the table built from
   * the JSON; an analysis output's are {@linkcode OutputTableName}s.
   */
  readonly tables: Readonly<Record<string, { file: string } | TidyTable>>;
  /** contributions.json's head: gate ids, baseline and masked run ids, sizes, bootstrap. */
  readonly head: {
    readonly gate_ids: readonly string[];
    readonly baseline_run_id: string | null;
    readonly masked_run_id: string | null;
    readonly n_pairs: number | null;
    readonly n_tasks: number | null;
    readonly cov_type: string | null;
    readonly draws: number | null;
    readonly seed: number | null;
  };
}

/** Whether `path` is a file. */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/**
 * What kind of directory `gate sql` was given: a gate (gate.json), a run
 * (manifest.json), an analysis output (contributions.json), or none.
 *
 * @param dir The directory.
 * @returns The kind, or null when it holds none of those files.
 *
 * @example
 * ```ts
 * import { sqlSourceKind } from "./output_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(await Promise.all(["data/demo/ckpt-a/gate-a", "data/demo/ckpt-a/bare-val", "lib"].map(sqlSourceKind)),
 *   ["gate", "run", null]);
 * ```
 */
export async function sqlSourceKind(dir: string): Promise<"gate" | "run" | "output" | null> {
  if (await isFile(join(dir, "gate.json"))) return "gate";
  if (await isFile(join(dir, "manifest.json"))) return "run";
  if (await isFile(join(dir, "contributions.json"))) return "output";
  if (await isFile(join(dir, OUTPUT_MARKER))) return "output";
  return null;
}

/** contributions.json's `tasks` rows as the columns `tasksTable` reads. */
function taskColumnsFromJson(
  c: Pick<ContributionsOutput, "columns" | "metrics" | "gates" | "tasks">,
): Parameters<typeof tasksTable>[0] {
  const rows: readonly TaskRow[] = c.tasks ?? [];
  const n = rows.length, k = c.columns.length;
  const metrics = Object.keys(c.metrics);
  const versions = c.columns.map((x) => x.version_id);
  const gateIds = c.gates.map((g) => g.gate_id);
  const design = new Uint8Array(n * k);
  const masked: Record<string, Float64Array> = {};
  const bare: Record<string, Float64Array> = {};
  const delta: Record<string, Float64Array> = {};
  for (const m of metrics) {
    masked[m] = new Float64Array(n);
    bare[m] = new Float64Array(n);
    delta[m] = new Float64Array(n);
  }
  const gateIndex = new Uint16Array(n);
  rows.forEach((r, i) => {
    versions.forEach((v, j) => (design[i * k + j] = r.columns[v] ? 1 : 0));
    for (const m of metrics) {
      masked[m]![i] = r.values[m]!.masked;
      bare[m]![i] = r.values[m]!.bare;
      delta[m]![i] = r.values[m]!.delta;
    }
    gateIndex[i] = r.gate_id === undefined ? 0 : Math.max(0, gateIds.indexOf(r.gate_id));
  });
  return {
    n,
    k,
    metrics,
    design,
    masked,
    bare,
    delta,
    episodes: rows.map((r) => ({ split: r.split, task_id: r.task_id, sample_id: r.sample_id })),
    gateIndex,
    columns: c.columns,
    gates: c.gates,
  };
}

const HEAD_MEMBERS = ["format", "conventions", "baseline", "masked", "gates", "n_pairs", "n_tasks"];

/**
 * Reads an analysis output for SQL: its tables' Parquet files when it has
 * them (only their paths and contributions.json's head are read here),
 * else the tables built from its JSON (then `note` says so).
 *
 * @param dir An analysis output directory (holding contributions.json).
 * @param analysisTables The tables an analysis output brings, in load
 *   order (`gate sql`: the analysis bundle's `tidy`).
 * @returns The output, and a one-line note for an older output (else null).
 * @throws SyntaxError When contributions.json is not JSON.
 */
export async function readSqlOutput(
  dir: string,
  analysisTables: readonly string[] = OUTPUT_TABLES,
): Promise<{ output: SqlOutput; note: string | null }> {
  const contributionsPath = join(dir, "contributions.json");
  if (!(await isFile(contributionsPath))) return await readOtherOutput(dir, analysisTables);
  const parquet: Record<string, { file: string }> = {};
  for (const name of analysisTables) {
    const file = join(dir, `${name}.parquet`);
    if (await isFile(file)) parquet[name] = { file };
  }
  const hasTables = parquet.coefficients !== undefined && parquet.tasks !== undefined;
  // deno-lint-ignore no-explicit-any
  let c: any;
  if (hasTables) {
    const members = await readJsonMembers(contributionsPath, [...HEAD_MEMBERS, "bootstrap"]);
    c = Object.fromEntries(members);
  } else {
    c = JSON.parse(await Deno.readTextFile(contributionsPath));
  }
  const head: SqlOutput["head"] = {
    gate_ids: Array.isArray(c.gates) ? c.gates.map((g: { gate_id: string }) => g.gate_id) : [],
    baseline_run_id: c.baseline?.run_id ?? null,
    masked_run_id: c.masked?.run_id ?? null,
    n_pairs: c.n_pairs ?? null,
    n_tasks: c.n_tasks ?? null,
    cov_type: c.conventions?.cov_type ?? null,
    draws: c.bootstrap?.draws ?? null,
    seed: c.bootstrap?.seed ?? null,
  };
  if (hasTables) return { output: { dir, source: "parquet", tables: parquet, head }, note: null };
  const selectionPath = join(dir, "selection.json");
  const selection: SelectionOutput | null = await isFile(selectionPath)
    ? JSON.parse(await Deno.readTextFile(selectionPath))
    : null;
  const tables: Record<string, TidyTable> = {
    coefficients: coefficientsTable(c, selection),
    tasks: tasksTable(taskColumnsFromJson(c)),
    ...(selection === null ? {} : { selection: selectionTable(selection) }),
  };
  return {
    output: { dir, source: "json", tables, head },
    note: `${dir}: no tidy tables (an output of an older gatelab); coefficients, tasks` +
      `${selection === null ? "" : ", selection"} built from its JSON, no draws`,
  };
}

/**
 * The SQL name of an output's table from its Parquet file's stem: a
 * built-in table's name (a run or gate table, `outputs`, an analysis
 * output's table) becomes `output_<name>`.
 */
function otherTableNamer(analysisTables: readonly string[]): (stem: string) => string {
  const taken = new Set([...Object.keys(SQL_COLUMN_KINDS), "outputs", ...analysisTables]);
  return (stem) => taken.has(stem) ? `output_${stem}` : stem;
}

/**
 * The tables a non-analysis output brings: the Parquet files its
 * `.gatelab-output.json` lists (or, failing that, those in the directory).
 */
async function otherParquetFiles(dir: string): Promise<string[]> {
  let listed: string[] = [];
  try {
    const marker = JSON.parse(await Deno.readTextFile(join(dir, OUTPUT_MARKER)));
    if (Array.isArray(marker?.files)) listed = marker.files.map(String);
  } catch {
    listed = [];
  }
  if (listed.length === 0) {
    for await (const e of Deno.readDir(dir)) if (e.isFile) listed.push(e.name);
  }
  return listed.filter((f) => f.endsWith(".parquet") && !f.includes("/")).sort();
}

/** Whether `dir` holds a study's study-wide tables (`gate build`'s `<out>/tables/`). */
async function isStudyTables(dir: string): Promise<boolean> {
  try {
    return JSON.parse(await Deno.readTextFile(join(dir, "tables.json")))?.format ===
      STUDY_TABLES_FORMAT;
  } catch {
    return false;
  }
}

/** The SQL name of a table of `dir`: `study_<stem>` for a study's study-wide tables. */
async function tableNamer(
  dir: string,
  analysisTables: readonly string[],
): Promise<(stem: string) => string> {
  return await isStudyTables(dir) ? (stem) => `study_${stem}` : otherTableNamer(analysisTables);
}

/**
 * A gatelab output of another command than analyze: its Parquet tables. A
 * study's study-wide tables (`<out>/tables/`) are `study_<name>`, so they
 * stand beside its steps' own tables rather than stacked with them.
 */
async function readOtherOutput(
  dir: string,
  analysisTables: readonly string[],
): Promise<{ output: SqlOutput; note: string | null }> {
  const tables: Record<string, { file: string }> = {};
  const named = await tableNamer(dir, analysisTables);
  for (const f of await otherParquetFiles(dir)) {
    if (await isFile(join(dir, f))) {
      tables[named(f.slice(0, -".parquet".length))] = {
        file: join(dir, f),
      };
    }
  }
  const head: SqlOutput["head"] = {
    gate_ids: [],
    baseline_run_id: null,
    masked_run_id: null,
    n_pairs: null,
    n_tasks: null,
    cov_type: null,
    draws: null,
    seed: null,
  };
  const note = Object.keys(tables).length > 0 ? null : `${dir}: a gatelab output without ` +
    "tidy tables (written by an older gatelab, or a command that writes none); nothing loaded";
  return { output: { dir, source: "parquet", tables, head }, note };
}

/**
 * The names of the tables the given directories' outputs bring (analysis
 * outputs' four and every other output's own), without reading the tables.
 *
 * @param dirs Directories given to `gate sql`.
 * @param analysisTables The tables an analysis output brings, in load
 *   order (`gate sql`: the analysis bundle's `tidy`).
 * @returns Table names, analysis tables first, then the others sorted.
 *
 * @example
 * ```ts
 * import { outputTableNames } from "./output_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(await outputTableNames(["data/demo/ckpt-a/gate-a"]), ["coefficients", "tasks", "selection", "draws"]);
 * ```
 */
export async function outputTableNames(
  dirs: readonly string[],
  analysisTables: readonly string[] = OUTPUT_TABLES,
): Promise<string[]> {
  const others = new Set<string>();
  for (const dir of dirs) {
    if (await sqlSourceKind(dir) !== "output" || await isFile(join(dir, "contributions.json"))) {
      continue;
    }
    const named = await tableNamer(dir, analysisTables);
    for (const f of await otherParquetFiles(dir)) others.add(named(f.slice(0, -".parquet".length)));
  }
  return [...analysisTables, ...[...others].sort()];
}

/**
 * The `outputs` table: one row per analysis output (`output` is the
 * directory as given, the key of every output table's `output` column).
 *
 * @param outputs The outputs.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { outputsTable } from "./output_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = outputsTable([{ dir: "out/a", source: "json", tables: {}, head: { gate_ids: ["g"], baseline_run_id: "b",
 *   masked_run_id: "m", n_pairs: 4, n_tasks: 2, cov_type: "hc3", draws: null, seed: null } }]);
 * deepEqual(t.columns.map((c) => c.values[0]), ["out/a", "json", ["g"], "b", "m", 4, 2, "hc3", null, null]);
 * ```
 */
export function outputsTable(outputs: readonly SqlOutput[]): TidyTable {
  const column = (name: string, kind: TidyTable["columns"][number]["kind"], values: unknown[]) => ({
    name,
    kind,
    values,
  });
  return {
    name: "outputs",
    rows: outputs.length,
    columns: [
      column("output", "str", outputs.map((o) => o.dir)),
      column("source", "str", outputs.map((o) => o.source)),
      column("gate_ids", "str_list", outputs.map((o) => o.head.gate_ids)),
      column("baseline_run_id", "str", outputs.map((o) => o.head.baseline_run_id)),
      column("masked_run_id", "str", outputs.map((o) => o.head.masked_run_id)),
      column("n_pairs", "i32", outputs.map((o) => o.head.n_pairs)),
      column("n_tasks", "i32", outputs.map((o) => o.head.n_tasks)),
      column("cov_type", "str", outputs.map((o) => o.head.cov_type)),
      column("draws", "i32", outputs.map((o) => o.head.draws)),
      column("seed", "f64", outputs.map((o) => o.head.seed)),
    ],
  };
}
