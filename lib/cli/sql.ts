/**
 * `deno task gate sql <dir>... --query "<SQL>" [--out file.csv]`: loads
 * the given gates (with their masked and bare runs), runs and analysis
 * outputs into an in-memory DuckDB and runs one query. Prints the result as
 * a table, or writes it as CSV (atomically). Tables: runs, attempts,
 * rewards, injected, gates, versions, assignments (docs/validation.md) and,
 * from outputs, outputs, coefficients, tasks, selection, draws
 * (docs/FORMAT.md, "Tidy tables"). Only the tables the query names are
 * built.
 *
 * @module
 */
import { parseCommand, UsageError } from "./args.ts";
import { SQL } from "./commands.ts";
import type { CommandContext, Values } from "./option_decl.ts";
import { isStudyFile, studyOutputDirs } from "../build/study_dirs.ts";
import { formatIssue } from "../core/issue.ts";
import { writeFileAtomic } from "../core/atomic_write.ts";
import { cacheOption, inputDir, outputFile } from "./paths.ts";
import { type DuckDb, openDuckDb } from "../sql/engine.ts";
import { loadIntoDuckDb } from "../sql/load_tables.ts";
import { readSqlSources } from "../sql/read_sources.ts";
import { expandImportDirs } from "../load/import_dirs.ts";
import { toCsv, toTextTable } from "../sql/format.ts";
import { readOnlyRefusal } from "../sql/read_only.ts";
import { outputTableNames, sqlSourceKind } from "../sql/output_tables.ts";
import { tablesNamedIn } from "../sql/named_tables.ts";
import { SQL_COLUMN_KINDS } from "../sql/sql_schema.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, SQL, context);
  if (cli === null) return 0;
  const { values } = cli;
  // A study file (gate build) stands for its built outputs, and an import's --out
  // for its gates, as in validate and analyze (lib/load/import_dirs.ts).
  const positionals = await expandImportDirs(expandStudyFiles(cli.positionals));
  const maxRows = values["max-rows"];
  const refusal = readOnlyRefusal(values.query);
  if (refusal !== null) {
    console.error(`sql: ${refusal}`);
    return 2;
  }
  for (const path of positionals) {
    await inputDir({ label: "directory", path }, "a gate, run or output directory");
    if (await sqlSourceKind(path) === null) {
      console.error(
        `usage_error  ${path} is not a gate (gate.json), a run (manifest.json) or a gatelab ` +
          "output (contributions.json or .gatelab-output.json): gate sql reads those directories",
      );
      return 2;
    }
  }
  if (values.out !== undefined) {
    await outputFile({ label: "--out", path: values.out }, "a CSV file");
  }
  const cache = cacheOption(values.cache);
  await cache.check();

  const only = tablesNamedIn(values.query, await outputTableNames(positionals));
  // DuckDB starts while the sources are read: its 18 MB wasm compiles on
  // V8's background threads meanwhile. Every return below closes it.
  const starting = openDuckDb();
  try {
    return await runQuery(starting, positionals, { only, ...cache.options }, values, maxRows);
  } finally {
    await (await starting).close();
  }
}

/** Each study file (gatelab.yaml) replaced by its built output directories. */
function expandStudyFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    if (!isStudyFile(path)) {
      out.push(path);
      continue;
    }
    const study = studyOutputDirs(path, Deno.cwd());
    if ("issues" in study) throw new UsageError(`${path}: ${formatIssue(study.issues[0]!)}`);
    if (study.dirs.length === 0) {
      throw new UsageError(`${path}: no output of this study is built yet; run gate build ${path}`);
    }
    out.push(...study.dirs);
  }
  return out;
}

/** Reads the sources, loads them into the starting DuckDB and runs the query; returns the exit code. */
async function runQuery(
  starting: Promise<DuckDb>,
  positionals: readonly string[],
  read: { readonly only: ReadonlySet<string>; readonly cacheDir?: string },
  values: Pick<Values<typeof SQL>, "query" | "out" | "quiet">,
  maxRows: number,
): Promise<number> {
  const { only } = read;
  const sources = await readSqlSources(positionals, read);
  if (!values.quiet) { for (const note of sources.notes) console.error(`note: ${note}`); }
  const shown = values.quiet ? [] : sources.issues.slice(0, 20);
  for (const issue of shown) console.error(`warning: ${formatIssue(issue)}`);
  if (!values.quiet && sources.issues.length > 20) {
    console.error(`warning: ... and ${sources.issues.length - 20} more issues`);
  }
  if (sources.runs.length === 0 && sources.outputs.length === 0) {
    if (![...only].some((t) => t in SQL_COLUMN_KINDS)) {
      console.error(
        `sql: the query names only tables of analysis outputs (${
          [...only].join(", ")
        }), and no directory given is an analysis output`,
      );
      return 2;
    }
    console.error("sql: nothing could be loaded from the given directories");
    return 2;
  }
  const db = await starting;
  await loadIntoDuckDb(db, sources, { only });
  let result;
  try {
    result = await db.query(values.query);
  } catch (error) {
    console.error(`sql: the query failed: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  if (values.out !== undefined) {
    await writeFileAtomic(values.out, toCsv(result));
    console.log(`wrote ${result.numRows} rows to ${values.out}`);
  } else {
    console.log(toTextTable(result, maxRows).trimEnd());
  }
  return 0;
}
