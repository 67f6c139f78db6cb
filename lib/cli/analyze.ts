/**
 * `deno task gate analyze <gate_dir>... --out <dir>`: validates, refits the
 * paired-delta no-intercept OLS for every metric, applies the selection
 * rule and writes contributions.json, selection.json, misfit diagnostics,
 * selection stability, tables and the proposal ledger (docs/analysis.md).
 *
 * Exit codes: 0 ok, 2 input issues (only validation.json is written, into
 * --out or, when --out holds an earlier result, into <out>.failed), 1 crash.
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import { parseCommand } from "./args.ts";
import { ANALYZE } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { formatIssue, GatelabError, type Issue } from "../core/issue.ts";
import type { FileValue } from "../core/atomic_write.ts";
import type { PairedDataset } from "../core/types.ts";
import type { SelectionOutput } from "../analyze/types.ts";
import { cacheOption, gateDir, outputDir, outputFile, within } from "./paths.ts";
import { type ProgressCallback, stderrProgress } from "../core/progress.ts";
import { type GateValidation, validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/document.ts";
import { runAnalysis } from "../analyze/analyze.ts";
import { outputDirIssues } from "../analyze/resume.ts";
import { analysisFiles, ledgerFile, tasksCsvWritten } from "../analyze/files.ts";
import { ENCODER_MAX_ROWS, startTidyEncoder, type TidyEncoder } from "../analyze/encoder.ts";
import { taskRowText } from "../analyze/task_rows.ts";
import { ledgerEntries } from "../select/ledger.ts";
import { releaseMemory } from "../core/release_memory.ts";
import { loadProgress } from "./load_progress.ts";
import { analysisProgress } from "./analysis_progress.ts";
import { Timings } from "../core/timings.ts";
import { printError } from "../core/terminal_text.ts";
import { type CommandResult, finish } from "./finish.ts";
import { printWarnings, unverifiableLine } from "./unverifiable.ts";
import {
  analysisDetails,
  analysisSummary,
  type AnalyzeCliOptions,
  analyzeOptions,
  checkDatasetOptions,
  checkpointLines,
  exploratorySummary,
} from "./analyze_options.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, ANALYZE, context);
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  // The sums route's modules load only when it is taken.
  if (values.sums !== undefined) return await (await import("./analyze_sums.ts")).runSums(cli);
  if (positionals.length === 0) {
    throw cli.usageError("analyze needs at least one gate directory (or --sums <parquet>)");
  }
  if (values.map !== undefined) throw cli.usageError("--map is read only with --sums");
  const options = analyzeOptions(values);
  const { out, waive } = options;
  const gates = positionals.map((path) => ({ label: "gate directory", path }));
  for (const g of gates) await gateDir(g);
  const cache = cacheOption(values.cache);
  await outputDir({ label: "--out", path: out }, [...gates, ...cache.inputs]);
  await cache.check();
  if (values.ledger !== undefined && !within(resolve(out), resolve(values.ledger))) {
    await outputFile({ label: "--ledger", path: values.ledger }, "a ledger file (JSONL)");
  }
  const progress = (label: string) => values.quiet ? {} : { onProgress: stderrProgress(label) };
  // --timings: every stage timed where it runs, printed on stderr at the end.
  const timings = values.timings ? new Timings() : undefined;
  const timed = timings === undefined ? {} : { timings };
  // Reading large files reports their bytes, and a large validation its checks (a TTY in
  // place, else a line per 10%).
  const validation = await validateGates(positionals, {
    ...timed,
    ...loadProgress(values.quiet),
    ...(waive.length > 0 ? { waive } : {}),
    ...(options.poolCheckpoints ? { poolCheckpoints: true } : {}),
    ...cache.options,
    ...(positionals.length > 1 ? progress("reading") : {}),
  });
  const unverifiable = printWarnings(validation.warnings ?? []);
  const dataset = validation.ok ? validation.dataset : null;
  const code = await finish({
    out,
    command,
    quiet: values.quiet,
    inputs: validation.inputs,
    // A failed validation is refused with its own report: its issues are
    // capped per code and its counts include those past the cap. Later
    // refusals (the output directory's baseline, the analysis, the ledger)
    // are counted from all their issues.
    refusal: dataset === null ? { ...validationReport(validation, command), ok: false } : null,
    // Check and swap are one step under the output lock: a concurrent run
    // from another baseline that finished first is seen here.
    write: {
      check: (dir) => sameBaseline(dir, dataset!),
      ...(timings === undefined
        ? {}
        : { onWritten: (name: string, ms: number) => timings.add(`write ${name}`, ms) }),
    },
    result: () =>
      analyze({
        options,
        command,
        validation,
        dataset: dataset!,
        unverifiable,
        progress,
        quiet: values.quiet,
        ...timed,
      }),
  });
  // From the process's start: module loading and the output directory's checks included.
  timings?.add("total (process)", performance.now());
  for (const line of timings?.lines() ?? []) printError(line);
  return code;
}

/** What {@linkcode analyze} needs from the command line and the validation. */
interface AnalyzeRun {
  readonly options: AnalyzeCliOptions;
  readonly command: string;
  readonly validation: GateValidation;
  readonly dataset: PairedDataset;
  readonly unverifiable: readonly Issue[];
  readonly progress: (label: string) => { onProgress?: ProgressCallback };
  /** `--quiet`: no progress. */
  readonly quiet: boolean;
  readonly timings?: Timings;
}

/** Analyses the validated dataset: the files to write and the lines to print. */
async function analyze(run: AnalyzeRun): Promise<CommandResult> {
  const { options, dataset } = run;
  checkDatasetOptions(options, dataset);
  await sameBaseline(options.out, dataset);
  // The parsed lines are no longer needed: collected now, before the analysis allocates.
  releaseMemory(dataset.n);
  // Up to ENCODER_MAX_ROWS the tidy tables are encoded in a worker, the tasks table (it needs
  // only the dataset) while the fit runs; above, here after the bootstrap, as their memory
  // would add to the fit's.
  const encoder = dataset.n <= ENCODER_MAX_ROWS ? startTidyEncoder() : null;
  try {
    return await analyzeDataset(run, encoder);
  } finally {
    encoder?.close();
  }
}

/** {@linkcode analyze} past the checks, with the encoding worker when there is one. */
async function analyzeDataset(
  run: AnalyzeRun,
  encoder: TidyEncoder | null,
): Promise<CommandResult> {
  const { options, command, validation, dataset, unverifiable, progress } = run;
  const timings = run.timings ?? new Timings();
  const { out, waive, draws } = options;
  const csv = tasksCsvWritten(dataset.n, options.tasksCsv);
  const tasks = encoder?.encode({ tasks: taskRowText(dataset, { pooled: true }) }, csv);
  // A large analysis reports its fit, diagnostics, encodings and large writes too.
  const phases = analysisProgress(run.quiet, dataset.n);
  const analysis = await runAnalysis(dataset, {
    ...phases.analysis,
    metric: options.metric,
    covType: options.cov,
    command,
    draws,
    seed: options.seed,
    interval: options.interval,
    ...(options.budgetK !== undefined ? { budgetK: options.budgetK } : {}),
    ...(draws > 0 ? progress("bootstrap") : {}),
    timings,
  });
  const waived = (validation.waived ?? []).map((i): Issue => ({ ...i, severity: "warning" }));
  // The bootstrap's WebAssembly memory and the analysis' garbage, collected before the tidy
  // tables are built and encoded.
  releaseMemory(dataset.n);
  const files = await timings.timeAsync("outputs", () =>
    analysisFiles(analysis, {
      ...options,
      dataset,
      validation: validationReport(validation, command),
      waived,
      unverifiable,
      timings,
      ...phases.files,
      ...(encoder === null ? {} : { encoder, tasks: tasks! }),
    }));
  if (waive.length > 0) {
    const summary = [
      ...waived.map(formatIssue),
      exploratorySummary(waived, waive, dataset, out),
    ];
    return { files, summary, details: checkpointLines(analysis.contributions, options.metric) };
  }
  const ledger = await ledgerOf(analysis.selection, dataset, options.ledgerPath);
  const ledgerInOut = within(resolve(out), resolve(options.ledgerPath));
  if (ledgerInOut) files[relative(resolve(out), resolve(options.ledgerPath))] = ledger;
  return {
    files,
    ...(ledgerInOut ? {} : { write: { alongside: { [options.ledgerPath]: ledger } } }),
    warnings: analysis.contributions.warnings.map((w) => `warning  ${w.kind}  ${w.message}`),
    details: analysisDetails(analysis, options.metric),
    summary: [
      ...(unverifiable.length > 0 ? [unverifiableLine(unverifiable, out)] : []),
      analysisSummary(analysis, dataset, out),
    ],
  };
}

/** Refuses (throws) when `dir` holds an analysis of another baseline (or other pooled bare runs). */
async function sameBaseline(
  dir: string,
  dataset: Pick<PairedDataset, "baseline" | "checkpoints">,
): Promise<void> {
  const bares = (dataset.checkpoints ?? []).map((c) => c.bare);
  const issues = await outputDirIssues(dir, dataset.baseline, bares);
  if (issues.length > 0) throw new GatelabError("Cannot write the output directory", issues);
}

/**
 * The proposal ledger's file: the selection's entries, merged by key under
 * the output lock, so re-running the same analysis replaces its lines.
 */
async function ledgerOf(
  selection: SelectionOutput,
  dataset: PairedDataset,
  ledgerPath: string,
): Promise<FileValue> {
  // Pooled checkpoints: the selection is made on several checkpoints' rows, so it names none.
  const checkpoint = dataset.checkpoints === undefined
    ? await baselineCheckpoint(dataset.baseline.run_dir)
    : null;
  const entries = ledgerEntries(dataset.columns, selection.decisions, {
    gateIds: selection.gate_ids,
    stage: selection.stage,
    baselineSha256: dataset.baseline.sha256,
    metric: selection.metric,
    budgetK: selection.budget_k,
    exploratory: selection.exploratory,
    proposalCheckpoint: checkpoint,
  });
  return ledgerFile(entries, ledgerPath);
}

/** checkpoint_id of the bare run (the frozen checkpoint the gate validated on), or null. */
async function baselineCheckpoint(runDir: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await Deno.readTextFile(join(runDir, "manifest.json")));
    const id = manifest?.provenance?.checkpoint_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}
