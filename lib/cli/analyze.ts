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
import type { z } from "npm:zod@4.6.7";
import type { LegacyComparisonSchema } from "../contract/outputs/mod.ts";
import { join, relative, resolve } from "node:path";
import { bootstrapOptions, conventionOption, intOption, parseCommand, UsageError } from "./args.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { formatIssue, GatelabError, type Issue } from "../core/issue.ts";
import { type FileValue, toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { jsonChunks, RawJson } from "../analyze/json_stream.ts";
import {
  spliceTaskRows,
  startTaskRowsAside,
  TASK_ROWS_MARKER,
} from "../analyze/task_rows_aside.ts";
import { refuse as refuseDocument } from "./refuse.ts";
import { validationDocument } from "../core/validation_document.ts";
import { cacheOption, gateDir, outputDir, outputFile, within } from "./paths.ts";
import { stderrProgress } from "../core/progress.ts";
import { validateGates } from "../validate/validate_gates.ts";
import { validationReport } from "../validate/report.ts";
import { choiceList, COV_TYPES, INTERVAL_NAMES } from "../core/conventions.ts";
import { runAnalysis } from "../analyze/analyze.ts";
import { outputDirIssues } from "../analyze/resume.ts";
import { ledgerEntries, mergeLedger } from "../select/ledger.ts";
import { coefficientTables, selectionTable } from "../report/gate_tables.ts";
import { diagnosticsTables, stabilityTable } from "../report/infer_tables.ts";
import { type Table, toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { legacyComparison } from "../explore/legacy_intercept.ts";
import { legacyComparisonTable } from "../explore/table.ts";
import { WAIVABLE_CODES } from "../explore/waivable.ts";
import type { IssueCode } from "../core/issue.ts";
import { releaseMemory } from "../core/release_memory.ts";
import {
  coefficientsTable,
  drawsTable,
  MAX_SAVED_DRAWS,
  selectionTable as selectionTidy,
  tasksTable,
} from "../analyze/analysis_tables.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { TidyTable } from "../tidy/tidy_table.ts";
import { DRAW_ORDER } from "../infer/bootstrap/bootstrap.ts";

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

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "analyze",
    help: HELP,
    options: {
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
    },
    positionals: { min: 1, what: "gate directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const { draws, seed } = bootstrapOptions(values);
  const interval = conventionOption("interval", values.interval, INTERVAL_NAMES, DEFAULTS.interval);
  const budgetK = intOption("budget-k", values["budget-k"], undefined, { min: 1 });
  const cov = conventionOption("cov", values.cov, COV_TYPES, DEFAULTS.covType);
  const metric = values.metric ?? DEFAULTS.metric;
  const waive = exploratoryCodes(values.exploratory);
  const estimator = values.estimator ?? "paired_delta_ols_no_intercept";
  if (estimator !== "paired_delta_ols_no_intercept" && estimator !== "legacy_intercept") {
    throw new UsageError(
      `--estimator must be legacy_intercept (the paired-delta fit always runs), got "${estimator}"`,
    );
  }
  const gates = positionals.map((path) => ({ label: "gate directory", path }));
  for (const g of gates) await gateDir(g);
  const cache = cacheOption(values.cache);
  await outputDir({ label: "--out", path: out }, [...gates, ...cache.inputs]);
  await cache.check();
  const ledgerPath = values.ledger ?? join(out, "ledger.jsonl");
  if (values.ledger !== undefined && !within(resolve(out), resolve(values.ledger))) {
    await outputFile({ label: "--ledger", path: values.ledger }, "a ledger file (JSONL)");
  }
  const progress = (label: string) => values.quiet ? {} : { onProgress: stderrProgress(label) };

  const validation = await validateGates(positionals, {
    ...(waive.length > 0 ? { waive } : {}),
    ...cache.options,
    ...(positionals.length > 1 ? progress("reading") : {}),
  });
  // Unrecorded fields (an import) are summarised in one line below; other warnings one per line.
  const unverifiable = (validation.warnings ?? []).filter((w) =>
    w.code === "provenance_unrecorded"
  );
  for (const w of validation.warnings ?? []) {
    if (w.code !== "provenance_unrecorded") console.error(formatIssue(w));
  }
  // A failed validation is refused with its own report: its issues are
  // capped per code and its counts include those past the cap, so they are
  // never re-counted from the capped list. Later refusals (the output
  // directory's baseline, the analysis itself) are counted from all their issues.
  const refuse = (issues: readonly Issue[]): Promise<number> =>
    refuseDocument(out, { ...validationDocument(issues, command, validation.inputs), ok: false }, {
      quiet: values.quiet,
    });
  if (!validation.ok || validation.dataset === null) {
    return await refuseDocument(out, { ...validationReport(validation, command), ok: false }, {
      quiet: values.quiet,
    });
  }
  const dataset = validation.dataset;
  const saveDraws = values["save-draws"] === true;
  if (saveDraws) {
    if (draws <= 0) {
      throw new UsageError("--save-draws needs a bootstrap (--bootstrap B with B > 0)");
    }
    const estimates = draws * dataset.metrics.length * dataset.k;
    if (estimates > MAX_SAVED_DRAWS) {
      throw new UsageError(
        `--save-draws would write ${
          estimates.toLocaleString("en-US")
        } draw estimates (${draws} draws x ${dataset.metrics.length} metrics x ${dataset.k} versions), above the limit of ${
          MAX_SAVED_DRAWS.toLocaleString("en-US")
        }; lower --bootstrap`,
      );
    }
  }
  if (!dataset.metrics.includes(metric)) {
    throw new UsageError(
      `--metric ${metric} is not a metric of this gate (${dataset.metrics.join(", ")})`,
    );
  }
  const resumeIssues = await outputDirIssues(out, dataset.baseline);
  if (resumeIssues.length > 0) return await refuse(resumeIssues);
  // The parsed lines are no longer needed: collected now, before the analysis allocates.
  releaseMemory(dataset.n);
  // contributions.json's rows (a top-level member, so indented once) are
  // formatted on another thread while the analysis runs.
  await using rowsAside = startTaskRowsAside(dataset, "  ");

  let analysis;
  try {
    analysis = await runAnalysis(dataset, {
      metric,
      covType: cov,
      command,
      draws,
      seed,
      interval,
      ...(budgetK !== undefined ? { budgetK } : {}),
      ...(draws > 0 ? progress("bootstrap") : {}),
    });
  } catch (error) {
    if (error instanceof GatelabError) return await refuse(error.issues);
    throw error;
  }
  const { selection, diagnostics, stability } = analysis;
  const waived = (validation.waived ?? []).map((i): Issue => ({ ...i, severity: "warning" }));
  const exploratory = waive.length > 0;
  const saved = saveDraws && analysis.draws !== null ? drawsTable(analysis.draws) : null;
  const withDraws = saved === null || analysis.contributions.bootstrap === undefined
    ? analysis.contributions
    : {
      ...analysis.contributions,
      bootstrap: {
        ...analysis.contributions.bootstrap,
        saved_draws: {
          files: ["draws.csv", "draws.parquet"],
          rows: saved.rows,
          order: "draw 0..B-1, then metric in the order of metrics, then version in column order",
          missing: "estimate is empty (CSV) or null (Parquet) where the draw left the " +
            "coefficient undefined (see degenerate)",
          regenerate: `draw d is the d-th count vector of ${DRAW_ORDER}, whatever ` +
            "stream_layout's split over workers; its estimates are the no-intercept OLS of " +
            "every metric with each row weighted by its task's count",
        },
      },
    };
  const strictness = exploratory
    ? { ...withDraws, exploratory: true, waived_codes: waive, waived_issues: waived }
    : withDraws;
  // Checks not made because an input does not record a field (an import): said in the output too.
  const contributions = unverifiable.length > 0
    ? {
      ...strictness,
      unverifiable: unverifiable.map((w) => ({ field: w.path ?? "", message: w.message })),
    }
    : strictness;

  // Proposal ledger: merged by key, so re-running the same analysis replaces its lines.
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
  // Merged under the output lock with the ledger as it is then, so a
  // concurrent run's lines are never lost; a corrupt ledger is refused.
  const ledger: FileValue = (previous) => {
    try {
      return mergeLedger(previous ?? "", entries);
    } catch (error) {
      throw new GatelabError("Cannot update the ledger", [{
        code: "parse_error",
        file: ledgerPath,
        message: `${(error as Error).message}; the ledger is never rewritten silently`,
      }]);
    }
  };
  const ledgerInOut = within(resolve(out), resolve(ledgerPath));
  // Check and swap are one step under the output lock: a concurrent run
  // from another baseline that finished first is seen here.
  const baselineGuard = async (dir: string): Promise<void> => {
    const issues = await outputDirIssues(dir, dataset.baseline);
    if (issues.length > 0) throw new GatelabError("Cannot write the output directory", issues);
  };

  const contributionsText = <T extends object>(value: T) =>
    rowsAside
      ? spliceTaskRows(jsonChunks({ ...value, tasks: new RawJson(TASK_ROWS_MARKER) }), rowsAside)
      : jsonChunks(value);
  const mark = (t: Table): Table =>
    exploratory ? { ...t, caption: `EXPLORATORY (waived: ${waive.join(", ")}) ${t.caption}` } : t;
  // Labels and captions scoped by the run, so the tables of several analyses fit in one paper.
  const coefTables = scopeTables(coefficientTables(contributions), scope).map(mark);
  const selTable = scopeTables([selectionTable(selection)], scope)[0]!;
  const validationDoc = validationReport(validation, command);
  // Tidy tables beside the JSON, from the same numbers (docs/FORMAT.md, "Tidy tables").
  const tidy: TidyTable[] = [
    coefficientsTable(contributions, exploratory ? null : selection),
    tasksTable(dataset),
    ...(exploratory ? [] : [selectionTidy(selection)]),
    ...(saved === null ? [] : [saved]),
  ];
  const files: Record<string, FileValue> = {
    "validation.json": toJsonText(
      exploratory
        ? { ...validationDoc, exploratory: true, issues: [...validationDoc.issues, ...waived] }
        : validationDoc,
    ),
    // JSON.stringify writes 0.0 as 0; the contract spells the fixed
    // metadata `intercept: 0.0`, so keep it a float for typed readers.
    // Written in chunks: one entry per paired row would overflow a string.
    "contributions.json": contributionsText({
      ...contributions,
      estimator: { ...contributions.estimator, intercept: new RawJson("0.0") },
    }),
    "selection.json": toJsonText(selection),
    "coefficients.md": coefTables.map(toMarkdown).join("\n"),
    "coefficients.tex": coefTables.map(toLatex).join("\n"),
    "selection.md": toMarkdown(selTable),
    "selection.tex": toLatex(selTable),
    ...await tidyFiles(tidy),
  };
  if (diagnostics !== null) {
    const tables = scopeTables(diagnosticsTables(diagnostics, contributions.columns), scope)
      .map(mark);
    files["diagnostics.json"] = jsonChunks(diagnostics);
    files["diagnostics.md"] = tables.map(toMarkdown).join("\n");
    files["diagnostics.tex"] = tables.map(toLatex).join("\n");
  }
  if (stability !== null) {
    const table = mark(
      scopeTables([stabilityTable(stability, contributions.columns)], scope)[0]!,
    );
    files["stability.md"] = toMarkdown(table);
    files["stability.tex"] = toLatex(table);
  }
  if (estimator === "legacy_intercept") {
    const legacy = legacyComparison(dataset, { metric, budgetK: selection.budget_k });
    const [table] = scopeTables([legacyComparisonTable(legacy)], scope) as [Table];
    files["legacy_comparison.json"] = toJsonText(
      {
        ...legacy,
        exploratory: true,
        generator: contributions.generator,
      } satisfies z.input<typeof LegacyComparisonSchema>,
    );
    files["legacy_comparison.md"] = toMarkdown(table);
    files["legacy_comparison.tex"] = toLatex(table);
  }
  if (exploratory) {
    // An exploratory analysis never selects: no selection and no ledger entry.
    for (const name of ["selection.json", "selection.md", "selection.tex"]) delete files[name];
    if (diagnostics !== null) {
      files["diagnostics.json"] = jsonChunks({ ...diagnostics, exploratory: true });
    }
    try {
      await writeFilesAtomic(out, files, { check: baselineGuard });
    } catch (error) {
      if (error instanceof GatelabError) return await refuse(error.issues);
      throw error;
    }
    for (const issue of waived) console.log(formatIssue(issue));
    console.log(
      `ok (exploratory, waived ${waived.length} issue(s): ${
        waive.join(", ")
      }): ${dataset.n} pairs, ${dataset.k} columns; no selection, no ledger entry; wrote ${out}/`,
    );
    return 0;
  }
  if (ledgerInOut) files[relative(resolve(out), resolve(ledgerPath))] = ledger;
  try {
    await writeFilesAtomic(out, files, {
      check: baselineGuard,
      ...(ledgerInOut ? {} : { alongside: { [ledgerPath]: ledger } }),
    });
  } catch (error) {
    if (error instanceof GatelabError) return await refuse(error.issues);
    throw error;
  }

  for (const w of contributions.warnings) console.error(`warning  ${w.kind}  ${w.message}`);
  if (!values.quiet) {
    const m = contributions.metrics[metric]!;
    console.log(
      `${metric}: masked ${m.masked_mean.toFixed(4)}, bare ${m.bare_mean.toFixed(4)}, delta ${
        m.delta_mean.toFixed(4)
      }`,
    );
    if (diagnostics !== null) {
      const screen = diagnostics.interactions;
      const joint = screen.joint;
      console.log(
        `  interactions (${screen.covariance} Wald F, Holm over ${
          screen.pairs.filter((p) => p.testable).length
        } pairs): flagged ${screen.flagged.join(", ") || "none"}${
          joint ? `; joint F(${joint.df1}, ${joint.df2}) p ${joint.p_value.toFixed(4)}` : ""
        }`,
      );
    }
    for (const d of [...selection.decisions].sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))) {
      console.log(
        `  ${String(d.rank ?? "-").padStart(3)}  ${d.version_id.padEnd(28)} ${
          d.alpha.toFixed(4).padStart(8)
        }  ${d.status}${d.retired ? " (retired)" : ""}`,
      );
    }
  }
  if (unverifiable.length > 0) console.log(unverifiableLine(unverifiable, out));
  console.log(
    `ok: ${dataset.gates.length} gate(s), ${dataset.n} pairs, ${dataset.k} columns; selected ${selection.selected.length}/${selection.budget_k}` +
      `${selection.exploratory ? " (exploratory budget)" : ""}: ${
        selection.selected.join(", ") || "none"
      }; wrote ${out}/`,
  );
  return 0;
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

/** Parses `--exploratory a,b`: only the waivable pairing codes. */
function exploratoryCodes(value: string | undefined): IssueCode[] {
  if (value === undefined) return [];
  const codes = value.split(",").map((c) => c.trim()).filter((c) => c !== "");
  const bad = codes.filter((c) => !(WAIVABLE_CODES as readonly string[]).includes(c));
  if (codes.length === 0 || bad.length > 0) {
    throw new UsageError(
      `--exploratory waives only ${
        WAIVABLE_CODES.join(", ")
      } (differences of conditions), got "${value}"; coverage, duplicates, injections, rewards and identifiability are never waived`,
    );
  }
  return [...new Set(codes)] as IssueCode[];
}

/**
 * The one line about checks that could not be made (fields an import did
 * not record): how many, which fields, where the list is.
 */
export function unverifiableLine(warnings: readonly Issue[], out: string): string {
  const fields = warnings.map((w) => w.path ?? "?");
  const shown = fields.slice(0, 4).join(", ") + (fields.length > 4 ? ", ..." : "");
  return `unverifiable: ${warnings.length} check(s) not made, fields not recorded (${shown}); ` +
    `listed as provenance_unrecorded warnings in ${out}/validation.json`;
}
