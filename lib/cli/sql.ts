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
import type { CommandContext } from "./option_decl.ts";
import { isStudyFile, studyOutputDirs } from "../build/study_dirs.ts";
import { formatIssue } from "../core/issue.ts";
import { writeFileAtomic } from "../core/atomic_write.ts";
import { exitOnSignals } from "../core/interrupt.ts";
import { printError, printLine } from "../core/terminal_text.ts";
import { cacheOption, type GivenPath, inputDir, outputFile, outputFileOutside } from "./paths.ts";
import { type DuckDb, openDuckDb, SqlError, sqlErrorLine } from "../sql/engine.ts";
import { loadIntoDuckDb } from "../sql/load_tables.ts";
import { readSqlSources } from "../sql/read_sources.ts";
import { expandImportDirs } from "../load/import_dirs.ts";
import { csvPieces, type TextTableOptions, toTextTable } from "../sql/format.ts";
import { outputTableNames, sqlSourceKind } from "../sql/output_tables.ts";
import { tablesNamedIn } from "../sql/named_tables.ts";
import { SQL_COLUMN_KINDS } from "../sql/sql_schema.ts";

/**
 * The tables an analysis output (contributions.json) brings: its bundle's
 * `tidy` in `BUNDLES` (lib/report/bundles.ts), handed down to the sql
 * stage, which holds no list of stages; every other output brings the
 * Parquet files its `.gatelab-output.json` lists. `BUNDLES` loads every
 * stage, so it is imported only when an output is among the directories:
 * without one no output table is loaded (and the stage's table names
 * already hold the analysis tables' for a query that names them).
 */
async function analysisTables(kinds: readonly (string | null)[]): Promise<readonly string[]> {
  if (!kinds.includes("output")) return [];
  const { BUNDLES } = await import("../report/bundles.ts");
  return BUNDLES.find((b) => b.bundle.file === "contributions.json")!.bundle.tidy;
}

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, SQL, context);
  if (cli === null) return 0;
  const { values } = cli;
  // A study file (gate build) stands for its built outputs, and an import's --out
  // for its gates, as in validate and analyze (lib/load/import_dirs.ts).
  const positionals = await expandImportDirs(expandStudyFiles(cli.positionals));
  const maxRows = values["max-rows"];
  const timeout = values.timeout;
  const kinds: (string | null)[] = [];
  for (const path of positionals) {
    await inputDir({ label: "directory", path }, "a gate, run or output directory");
    kinds.push(await sqlSourceKind(path));
    if (kinds.at(-1) === null) {
      printError(
        `usage_error  ${path} is not a gate (gate.json), a run (manifest.json) or a gatelab ` +
          "output (contributions.json or .gatelab-output.json): gate sql reads those directories",
      );
      return 2;
    }
  }
  const out: GivenPath | undefined = values.out === undefined
    ? undefined
    : { label: "--out", path: values.out };
  if (out !== undefined) await outputFile(out, "a CSV file");
  const cache = cacheOption(values.cache);
  await cache.check();

  // DuckDB starts while the bundles load and the sources are read: its wasm
  // compiles meanwhile. Every return below closes it.
  const starting = openDuckDb({ timeoutSeconds: timeout === 0 ? Infinity : timeout });
  try {
    const outputTables = await analysisTables(kinds);
    const only = tablesNamedIn(values.query, await outputTableNames(positionals, outputTables));
    // Ctrl-C or SIGTERM while the query runs or the CSV is written: the
    // earlier CSV stays whole and no temporary is left (exit 130 or 143).
    return await exitOnSignals(
      () =>
        runQuery(
          starting,
          positionals,
          {
            only,
            analysisTables: outputTables,
            ...cache.options,
          },
          { ...values, out },
          {
            maxRows,
            fullPrecision: values["full-precision"],
          },
          cache.inputs,
        ),
      () =>
        printError(
          `sql: interrupted; ${
            out === undefined ? "nothing written" : `${out.path} left as it was`
          }`,
        ),
    );
  } finally {
    await starting.then((db) => db.close(), () => {});
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
  read: {
    readonly only: ReadonlySet<string>;
    readonly analysisTables: readonly string[];
    readonly cacheDir?: string;
  },
  values: {
    readonly query: string;
    readonly out?: GivenPath | undefined;
    readonly quiet?: boolean;
  },
  print: TextTableOptions,
  others: readonly GivenPath[],
): Promise<number> {
  const { only, analysisTables } = read;
  const sources = await readSqlSources(positionals, read);
  if (values.out !== undefined) {
    // Never write over what the query reads: the gates, their runs (a bare
    // run outside the gate directory too), the outputs, the cache.
    const dirs = [
      ...positionals,
      ...sources.runs.map((r) => r.dir),
      ...sources.gates.map((g) => g.dir),
      ...sources.outputs.map((o) => o.dir),
    ];
    await outputFileOutside(values.out, [
      ...dirs.map((path) => ({ label: "input", path })),
      ...others,
    ]);
  }
  if (!values.quiet) { for (const note of sources.notes) printError(`note: ${note}`); }
  const shown = values.quiet ? [] : sources.issues.slice(0, 20);
  for (const issue of shown) printError(`warning: ${formatIssue(issue)}`);
  if (!values.quiet && sources.issues.length > 20) {
    printError(`warning: ... and ${sources.issues.length - 20} more issues`);
  }
  if (sources.runs.length === 0 && sources.outputs.length === 0) {
    if (![...only].some((t) => t in SQL_COLUMN_KINDS)) {
      printError(
        `sql: the query names only tables of analysis outputs (${
          [...only].join(", ")
        }), and no directory given is an analysis output`,
      );
      return 2;
    }
    printError("sql: nothing could be loaded from the given directories");
    return 2;
  }
  let result;
  try {
    const db = await starting;
    await loadIntoDuckDb(db, sources, { only, analysisTables });
    result = await db.query(values.query);
  } catch (error) {
    if (!(error instanceof SqlError)) throw error;
    // A failed query writes nothing: the earlier --out file stays as it was.
    printError(
      sqlErrorLine(
        error.query === "" ? new SqlError(error.code, error.message, values.query) : error,
      ),
    );
    return 2;
  }
  if (values.out !== undefined) {
    await writeFileAtomic(values.out.path, csvPieces(result));
    printLine(`wrote ${result.numRows} rows to ${values.out.path}`);
  } else {
    printLine(toTextTable(result, print).trimEnd());
  }
  return 0;
}
