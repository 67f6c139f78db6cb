/**
 * `gate analyze --sums <parquet> --out <dir>`: the analysis of a sums table
 * (lib/analyze/sums_analysis.ts). A sums file or mapping that cannot be
 * analysed is one line naming the file and field, exit 2, and nothing is
 * written.
 *
 * @module
 */
import type { ANALYZE } from "./commands.ts";
import type { ParsedCommand } from "./args.ts";
import { inputFile, outputDir } from "./paths.ts";
import { stderrProgress } from "../core/progress.ts";
import { printError } from "../core/terminal_text.ts";
import { finish } from "./finish.ts";
import { readSumsTable, SumsTableError } from "../analyze/sums_read.ts";
import { analyzeSums, type SumsGateDeclaration } from "../analyze/sums_analysis.ts";
import { sumsAnalysisFiles, sumsAnalysisLines } from "../analyze/sums_files.ts";
import { parseMapping } from "../import/mapping.ts";

/** Options of `gate analyze` that need rows or gate directories, refused with --sums. */
const ROW_OPTIONS = [
  "exploratory",
  "estimator",
  "pool-checkpoints",
  "cache",
  "ledger",
  "save-draws",
  "tasks-csv",
  "label-prefix",
  "timings",
] as const;

/**
 * Runs `gate analyze --sums`; returns the exit code.
 *
 * @param cli The parsed command line (with `--sums`).
 */
export async function runSums(cli: ParsedCommand<typeof ANALYZE>): Promise<number> {
  const { values, positionals, command } = cli;
  const sums = values.sums!;
  if (positionals.length > 0) {
    throw cli.usageError(`--sums ${sums} takes no gate directory (got ${positionals[0]})`);
  }
  for (const name of ROW_OPTIONS) {
    const v = values[name];
    if (v !== undefined && v !== false) {
      throw cli.usageError(`--${name} needs rows: it cannot be used with --sums`);
    }
  }
  const input = { label: "--sums", path: sums };
  await inputFile(input, "a sums table (Parquet)");
  const map = values.map === undefined ? [] : [{ label: "--map", path: values.map }];
  for (const m of map) await inputFile(m, "a mapping file (JSON)");
  await outputDir({ label: "--out", path: values.out }, [input, ...map]);
  let declared: SumsGateDeclaration | null = null;
  try {
    declared = values.map === undefined ? null : await readDeclaration(values.map);
    const table = await readSumsTable(sums);
    const doc = await analyzeSums(table, {
      metric: values.metric,
      draws: values.bootstrap,
      seed: values.seed,
      interval: values.interval,
      command,
      declared,
      ...(values["budget-k"] === undefined ? {} : { budgetK: values["budget-k"] }),
      ...(values.quiet || values.bootstrap === 0
        ? {}
        : { onProgress: stderrProgress("bootstrap") }),
    });
    const files = await sumsAnalysisFiles(doc);
    const lines = sumsAnalysisLines(doc, values.out);
    return await finish({
      out: values.out,
      command,
      quiet: values.quiet,
      issues: [],
      result: () => ({ files, details: lines.details, summary: lines.summary }),
    });
  } catch (error) {
    if (!(error instanceof SumsTableError)) throw error;
    printError(`${error.code}  ${error.message}`);
    return 2;
  }
}

/** The versions, budget_k and stage of a mapping file. */
async function readDeclaration(file: string): Promise<SumsGateDeclaration> {
  let value: unknown;
  try {
    value = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    throw new SumsTableError(
      file,
      "",
      `cannot read as JSON: ${error instanceof Error ? error.message : String(error)}`,
      error instanceof SyntaxError ? "parse_error" : "io_error",
    );
  }
  const parsed = parseMapping(value, file);
  if (!parsed.ok) {
    const issue = parsed.issues[0]!;
    throw new SumsTableError(file, issue.path ?? "", issue.message);
  }
  const { versions, budget_k, stage } = parsed.value;
  return {
    file,
    ...(versions === undefined ? {} : { versions }),
    ...(budget_k === undefined ? {} : { budget_k }),
    ...(stage === undefined ? {} : { stage }),
  };
}
