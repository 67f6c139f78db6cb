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
import { DEFAULTS } from "../core/defaults.ts";
import { formatIssue, GatelabError, type Issue } from "../core/issue.ts";
import type { FileValue } from "../core/atomic_write.ts";
import type { PairedDataset } from "../core/types.ts";
import type { SelectionOutput } from "../analyze/types.ts";
import { startTaskRowsAside } from "../analyze/task_rows_aside.ts";
import { cacheOption, gateDir, outputDir, outputFile, within } from "./paths.ts";
import { type ProgressCallback, stderrProgress } from "../core/progress.ts";
import { type GateValidation, validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/report.ts";
import { choiceList, COV_TYPES, INTERVAL_NAMES } from "../core/conventions.ts";
import { runAnalysis } from "../analyze/analyze.ts";
import { outputDirIssues } from "../analyze/resume.ts";
import { analysisFiles, ledgerFile } from "../analyze/files.ts";
import { ledgerEntries } from "../select/ledger.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION } from "./label_prefix.ts";
import { releaseMemory } from "../core/release_memory.ts";
import { MAX_SAVED_DRAWS } from "../analyze/analysis_tables.ts";
import { type CommandResult, finish } from "./finish.ts";
import { printWarnings, unverifiableLine } from "./unverifiable.ts";
import {
  analysisDetails,
  analysisSummary,
  type AnalyzeCliOptions,
  analyzeOptions,
  checkDatasetOptions,
  exploratorySummary,
} from "./analyze_options.ts";

const HELP = `usage: deno task gate analyze <gate_dir>... --out <dir> [options]

Validates the gate(s), fits R_i - B_i = C_i' beta + e_i (no intercept) for
reward and every reward component, and applies the selection rule
(docs/analysis.md). Several gate directories sharing one bare run are pooled
(rows = gate x episode, errors clustered by task). Also writes the AMCE beside
every coefficient, diagnostics.json/.md/.tex (interaction screen, residuals by
number of chunks present) and, with the bootstrap, stability.md/.tex.

  --out <dir>        output directory (required)
  --metric <name>    metric the selection ranks by (default ${DEFAULTS.metric})
  --bootstrap <B>    task-bootstrap draws; 0 skips (default ${DEFAULTS.draws})
  --seed <S>         bootstrap seed (default ${DEFAULTS.seed})
  --interval <rule>  ${
  choiceList(INTERVAL_NAMES)
} for the bootstrap ci (default ${DEFAULTS.interval})
  --budget-k <K>     override the gate's budget_k (exploratory only)
  --cov <type>       ${choiceList(COV_TYPES)} for se_robust, t, p (default ${DEFAULTS.covType})
  --ledger <file>    proposal ledger JSONL (default <out>/ledger.jsonl; its directory must exist)
  --cache <dir>      read runs through the run cache in <dir> (written on a miss);
                     validation.json records hit/miss per run (default: off)
  --exploratory <codes>  waive these pairing codes (only provenance_mismatch,
                     seed_mismatch; comma-separated): the outputs say
                     "exploratory": true and list every waived issue; no
                     selection.json and no ledger entry are written
  --estimator legacy_intercept  also refit R_i - mean(B) = a + C_i' b + e_i and
                     write legacy_comparison.json/.md/.tex beside the paired fit
  --save-draws       with --bootstrap B: also write every draw's estimates as
                     draws.csv/draws.parquet (draw, metric, version_id, estimate;
                     refused above ${MAX_SAVED_DRAWS.toExponential()} estimates)
${LABEL_PREFIX_HELP}
  --quiet            print only the summary

Beside the JSON: tidy tables coefficients, tasks and selection as .csv and
.parquet (docs/FORMAT.md, "Tidy tables").`;

const OPTIONS = {
  out: { type: "string" },
  metric: { type: "string" },
  bootstrap: { type: "string" },
  seed: { type: "string" },
  interval: { type: "string" },
  "budget-k": { type: "string" },
  cov: { type: "string" },
  ledger: { type: "string" },
  cache: { type: "string" },
  exploratory: { type: "string" },
  estimator: { type: "string" },
  "save-draws": { type: "boolean" },
  quiet: { type: "boolean" },
  ...LABEL_PREFIX_OPTION,
} as const;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "analyze",
    help: HELP,
    options: OPTIONS,
    positionals: { min: 1, what: "gate directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
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
  const validation = await validateGates(positionals, {
    ...(waive.length > 0 ? { waive } : {}),
    ...cache.options,
    ...(positionals.length > 1 ? progress("reading") : {}),
  });
  const unverifiable = printWarnings(validation.warnings ?? []);
  const dataset = validation.ok ? validation.dataset : null;
  // contributions.json's task rows are formatted on another thread while the
  // analysis runs; the worker lives until the files are written.
  await using aside = new AsyncDisposableStack();
  return await finish({
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
    write: { check: (dir) => sameBaseline(dir, dataset!.baseline) },
    result: () =>
      analyze({ options, command, validation, dataset: dataset!, unverifiable, aside, progress }),
  });
}

/** What {@linkcode analyze} needs from the command line and the validation. */
interface AnalyzeRun {
  readonly options: AnalyzeCliOptions;
  readonly command: string;
  readonly validation: GateValidation;
  readonly dataset: PairedDataset;
  readonly unverifiable: readonly Issue[];
  /** Owns the task-rows worker until the files are written. */
  readonly aside: AsyncDisposableStack;
  readonly progress: (label: string) => { onProgress?: ProgressCallback };
}

/** Analyses the validated dataset: the files to write and the lines to print. */
async function analyze(run: AnalyzeRun): Promise<CommandResult> {
  const { options, command, validation, dataset, unverifiable, aside, progress } = run;
  const { out, waive, draws } = options;
  checkDatasetOptions(options, dataset);
  await sameBaseline(out, dataset.baseline);
  // The parsed lines are no longer needed: collected now, before the analysis allocates.
  releaseMemory(dataset.n);
  const taskRows = aside.use(startTaskRowsAside(dataset, "  "));
  const analysis = await runAnalysis(dataset, {
    metric: options.metric,
    covType: options.cov,
    command,
    draws,
    seed: options.seed,
    interval: options.interval,
    ...(options.budgetK !== undefined ? { budgetK: options.budgetK } : {}),
    ...(draws > 0 ? progress("bootstrap") : {}),
  });
  const waived = (validation.waived ?? []).map((i): Issue => ({ ...i, severity: "warning" }));
  const files = await analysisFiles(analysis, {
    ...options,
    dataset,
    validation: validationReport(validation, command),
    waived,
    unverifiable,
    taskRows,
  });
  if (waive.length > 0) {
    const summary = [
      ...waived.map(formatIssue),
      exploratorySummary(waived, waive, dataset, out),
    ];
    return { files, summary };
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

/** Refuses (throws) when `dir` holds an analysis of another baseline. */
async function sameBaseline(
  dir: string,
  baseline: PairedDataset["baseline"],
): Promise<void> {
  const issues = await outputDirIssues(dir, baseline);
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
  const checkpoint = await baselineCheckpoint(dataset.baseline.run_dir);
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
