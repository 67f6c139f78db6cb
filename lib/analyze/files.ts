/**
 * Every file `gate analyze` writes into `--out`, computed from the analysis
 * without I/O: contributions.json, selection.json, diagnostics.json,
 * validation.json, the Markdown and LaTeX tables, the tidy tables
 * (CSV/Parquet) and, with `--save-draws`, the draws. The proposal ledger,
 * merged with the ledger on disk under the output lock, is
 * {@linkcode ledgerFile}.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { LegacyComparisonSchema } from "../contract/outputs/mod.ts";
import { type FileContents, type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { Timings } from "../core/timings.ts";
import { GatelabError, type Issue, type IssueCode } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import type { ValidationReport } from "../validate/document.ts";
import { jsonChunks, RawJson } from "./json_stream.ts";
import { sha256Hex } from "../core/sha256.ts";
import { TASKS_CSV_MAX_ROWS } from "../core/defaults.ts";
import type { Analysis } from "./analyze.ts";
import {
  coefficientsTable,
  drawsTable,
  selectionTable as selectionTidy,
  tasksTable,
} from "./analyze_tidy.ts";
import { analysisTables } from "./tables.ts";
import type { Table } from "../table/table.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { legacyComparison } from "../explore/legacy_intercept.ts";
import { legacyComparisonTable } from "../explore/table.ts";
import { tidyParquet } from "../tidy/tidy_parquet.ts";
import { tidyCsv, type TidyTable } from "../tidy/tidy_table.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { DRAW_ORDER } from "../infer/bootstrap/bootstrap.ts";
import { type EncodedTable, encodedTableFiles, type TidyEncoder } from "./encoder.ts";
import { type LedgerEntry, mergeLedger } from "../select/ledger.ts";

/** What {@linkcode analysisFiles} writes beside the analysis itself. */
export interface AnalysisFilesOptions {
  /** The analysed dataset (the `tasks` tidy table, the legacy refit). */
  readonly dataset: PairedDataset;
  /** validation.json of the inputs (`validationReport`). */
  readonly validation: ValidationReport;
  /** Labels and captions scoped by the run, so several analyses' tables fit in one paper. */
  readonly scope: RunScope;
  /** The pairing codes waived (`--exploratory`); empty or absent: a confirmatory analysis. */
  readonly waive?: readonly IssueCode[];
  /** The issues waived, as warnings (recorded in contributions.json and validation.json). */
  readonly waived?: readonly Issue[];
  /** The checks not made because an input does not record a field (an import). */
  readonly unverifiable?: readonly Issue[];
  /** `--save-draws`: also write every bootstrap draw as draws.csv/draws.parquet. */
  readonly saveDraws?: boolean;
  /** `--estimator legacy_intercept`: also write legacy_comparison.json/.md/.tex. */
  readonly legacy?: boolean;
  /**
   * `--tasks-csv`: also write tasks.csv above {@linkcode TASKS_CSV_MAX_ROWS}
   * rows (below it, tasks.csv is always written).
   */
  readonly tasksCsv?: boolean;
  /**
   * Encodes the tidy tables in a worker (`startTidyEncoder`); absent: on
   * this thread. The same bytes either way.
   */
  readonly encoder?: TidyEncoder;
  /**
   * The `tasks` table's encoding, started before the fit (`encoder.encode`
   * of `taskRowText(dataset, { pooled: true })`, its CSV as
   * {@linkcode tasksCsvWritten} says); absent: encoded here.
   */
  readonly tasks?: Promise<EncodedTable>;
  /** Times the encoding of each tidy table as `encode <name>` (`--timings`). */
  readonly timings?: Timings;
  /**
   * Progress of each tidy table's Parquet encoding, asked with the file's
   * name and the table's rows: told 0 as it starts, then after each batch
   * of a table encoded in batches (`tidyParquet`), and every row at the end.
   */
  readonly onEncode?: (file: string, rows: number) => ProgressCallback | undefined;
  /**
   * Progress of each tidy table's CSV over its rows, asked with the file's
   * name and the table's rows: told as the file is written (a CSV is
   * formatted piece by piece while it is written).
   */
  readonly onWrite?: (file: string, rows: number) => ProgressCallback | undefined;
}

/** How a row of tasks.parquet gives a row of contributions.json's older `tasks` field. */
export const TASKS_TABLE_COLUMNS =
  "one row per paired row, in the order of the fit; split, task_id, sample_id; round is the " +
  "gate_id (a row's gate_id only when gates are pooled); per metric <metric>_masked, " +
  "<metric>_bare, <metric>_delta; mask:<version_id> is the 0/1 design column of each version " +
  "in the order of columns";

/**
 * The bytes (or chunks) of every file `gate analyze` writes into `--out`,
 * by name. An exploratory analysis (`waive` not empty) writes no selection
 * and marks every table's caption and its validation.json and
 * diagnostics.json.
 *
 * @param analysis The analysis (`runAnalysis`).
 * @param options The inputs' validation, the run scope and the command's switches.
 * @returns The files, in the order they are listed in docs/analysis.md.
 *
 * @example
 * ```ts
 * import { analysisFiles } from "./files.ts";
 * import { runAnalysis } from "./analyze.ts";
 * import { validateGates } from "../validate/validate_gates.ts";
 * import { validationReport } from "../validate/document.ts";
 * import { runScope } from "../table/run_scope.ts";
 * import { equal } from "node:assert/strict";
 * const v = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const analysis = await runAnalysis(v.dataset!, { draws: 0 });
 * const files = await analysisFiles(analysis, {
 *   dataset: v.dataset!, validation: validationReport(v, "gate analyze"), scope: runScope("out"),
 * });
 * equal(Object.keys(files).join(" "), "validation.json contributions.json selection.json " +
 *   "coefficients.md coefficients.tex selection.md selection.tex coefficients.csv coefficients.parquet " +
 *   "tasks.csv tasks.parquet selection.csv selection.parquet diagnostics.json diagnostics.md diagnostics.tex");
 * equal(JSON.parse(files["selection.json"] as string).selected.length, 10);
 * ```
 */
export async function analysisFiles(
  analysis: Analysis,
  options: AnalysisFilesOptions,
): Promise<Record<string, FileValue>> {
  const { selection, diagnostics } = analysis;
  const { dataset, scope } = options;
  const waive = options.waive ?? [];
  const waived = options.waived ?? [];
  const exploratory = waive.length > 0;
  const saved = options.saveDraws === true && analysis.draws !== null
    ? drawsTable(analysis.draws)
    : null;
  const contributions = contributionsDocument(analysis, options, saved);
  const tables = analysisTables({ ...analysis, contributions }, { scope, waive });
  const validationDoc = options.validation;
  // Tidy tables beside the JSON, from the same numbers (docs/FORMAT.md, "Tidy tables"); the
  // `tasks` table's encoding may have started before the fit (`tasks`).
  const all = (table: TidyTable): TidyJob => ({
    name: table.name,
    rows: table.rows,
    csv: true,
    table,
  });
  const jobs: TidyJob[] = [
    all(coefficientsTable(contributions, exploratory ? null : selection)),
    {
      name: "tasks",
      rows: dataset.n,
      csv: tasksCsvWritten(dataset.n, options.tasksCsv),
      table: options.tasks === undefined ? tasksTable(dataset) : options.tasks,
    },
    ...(exploratory ? [] : [all(selectionTidy(selection))]),
    ...(saved === null ? [] : [all(saved)]),
  ];
  const tidyBytes: Record<string, FileContents> = {};
  for (const job of jobs) {
    const encode = () => tidyJobFiles(job, options);
    const bytes = options.timings
      ? await options.timings.timeAsync(`encode ${job.name}.csv+parquet`, encode)
      : await encode();
    Object.assign(tidyBytes, bytes);
  }
  // The per-task rows are the tidy `tasks` table, named in contributions.json (with its
  // sha256 and row count) instead of repeated in it; tasks.csv only below a size or when asked.
  const tasksParquet = tidyBytes["tasks.parquet"] as Uint8Array;
  const tasksRef = {
    file: "tasks.parquet",
    format: "parquet",
    rows: dataset.n,
    sha256: sha256Hex(tasksParquet),
    columns: TASKS_TABLE_COLUMNS,
  } as const;
  const files: Record<string, FileValue> = {
    "validation.json": toJsonText(
      exploratory
        ? { ...validationDoc, exploratory: true, issues: [...validationDoc.issues, ...waived] }
        : validationDoc,
    ),
    // JSON.stringify writes 0.0 as 0; the contract spells the fixed
    // metadata `intercept: 0.0`, so keep it a float for typed readers.
    // Written in chunks: one entry per paired row would overflow a string.
    "contributions.json": jsonChunks(
      withTasksTable({
        ...contributions,
        estimator: { ...contributions.estimator, intercept: new RawJson("0.0") },
      }, tasksRef),
    ),
    "selection.json": toJsonText(selection),
    ...tableFiles("coefficients", tables.coefficients),
    ...tableFiles("selection", [tables.selection]),
    ...tidyBytes,
  };
  if (diagnostics !== null) {
    files["diagnostics.json"] = jsonChunks(
      exploratory ? { ...diagnostics, exploratory: true } : diagnostics,
    );
    Object.assign(files, tableFiles("diagnostics", tables.diagnostics));
  }
  if (tables.stability !== null) {
    Object.assign(files, tableFiles("stability", [tables.stability]));
  }
  if (options.legacy === true) {
    const legacy = legacyComparison(dataset, {
      metric: selection.metric,
      budgetK: selection.budget_k,
    });
    const [table] = scopeTables([legacyComparisonTable(legacy)], scope) as [Table];
    files["legacy_comparison.json"] = toJsonText(
      {
        ...legacy,
        exploratory: true,
        generator: contributions.generator,
      } satisfies z.input<typeof LegacyComparisonSchema>,
    );
    Object.assign(files, tableFiles("legacy_comparison", [table]));
  }
  // An exploratory analysis never selects: no selection (and no ledger entry).
  if (exploratory) {
    for (const name of ["selection.json", "selection.md", "selection.tex"]) delete files[name];
  }
  return files;
}

/** A tidy table to write: the table, or its encoding started earlier; `csv`: write its CSV. */
interface TidyJob {
  readonly name: string;
  readonly rows: number;
  readonly csv: boolean;
  readonly table: TidyTable | Promise<EncodedTable>;
}

/**
 * A tidy table's `<name>.csv` (when `csv`) and `<name>.parquet`, as
 * `tidyFiles` makes them, with the progress of the encoding and the CSV's
 * writing: encoded by `options.encoder` when there is one, else here.
 */
async function tidyJobFiles(
  job: TidyJob,
  options: Pick<AnalysisFilesOptions, "onEncode" | "onWrite" | "encoder">,
): Promise<Record<string, FileContents>> {
  const { name, rows, csv, table } = job;
  if (table instanceof Promise) return await encodedTableFiles(name, rows, table, csv, options);
  if (options.encoder !== undefined) {
    const encoded = options.encoder.encode({ table }, csv);
    return await encodedTableFiles(name, rows, encoded, csv, options);
  }
  const files: Record<string, FileContents> = {};
  if (csv) {
    const onProgress = options.onWrite?.(`${name}.csv`, rows);
    files[`${name}.csv`] = tidyCsv(table, onProgress === undefined ? {} : { onProgress });
  }
  const onProgress = options.onEncode?.(`${name}.parquet`, rows);
  files[`${name}.parquet`] = await tidyParquet(
    table,
    onProgress === undefined ? {} : { onProgress },
  );
  return files;
}

/**
 * Whether `gate analyze` writes tasks.csv: up to {@linkcode TASKS_CSV_MAX_ROWS}
 * rows, and above when asked (`--tasks-csv`).
 *
 * @param rows The paired rows.
 * @param asked `--tasks-csv`.
 * @returns Whether tasks.csv is written.
 *
 * @example
 * ```ts
 * import { tasksCsvWritten } from "./files.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([tasksCsvWritten(100_000), tasksCsvWritten(100_001), tasksCsvWritten(100_001, true)], [true, false, true]);
 * ```
 */
export function tasksCsvWritten(rows: number, asked?: boolean): boolean {
  return rows <= TASKS_CSV_MAX_ROWS || asked === true;
}

/**
 * contributions.json as written: the analysis's, with the saved draws
 * described, the waived issues of an exploratory analysis and the checks
 * not made (fields an input does not record).
 */
function contributionsDocument(
  analysis: Analysis,
  options: AnalysisFilesOptions,
  saved: TidyTable | null,
) {
  const waive = options.waive ?? [];
  const unverifiable = options.unverifiable ?? [];
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
  const strictness = waive.length > 0
    ? {
      ...withDraws,
      exploratory: true,
      waived_codes: waive,
      waived_issues: options.waived ?? [],
    }
    : withDraws;
  // Checks not made because an input does not record a field (an import): said in the output too.
  return unverifiable.length > 0
    ? {
      ...strictness,
      unverifiable: unverifiable.map((w) => ({ field: w.path ?? "", message: w.message })),
    }
    : strictness;
}

/**
 * The document with its `tasks` field replaced, in place, by `tasks_table`
 * (the field order of docs/FORMAT.md is kept).
 */
function withTasksTable<T extends object>(doc: T, table: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === "tasks") out["tasks_table"] = table;
    else out[key] = value;
  }
  return out;
}

/**
 * The proposal ledger's file value: merged by key with the ledger as it is
 * under the output lock (so a concurrent run's lines are never lost and
 * re-running the same analysis replaces its lines); a corrupt ledger is
 * refused, never rewritten.
 *
 * @param entries The analysis's ledger entries (`ledgerEntries`).
 * @param path The ledger's path, named in the refusal.
 * @returns The file value.
 *
 * @example
 * ```ts
 * import { ledgerFile } from "./files.ts";
 * import { throws } from "node:assert/strict";
 * const value = ledgerFile([], "ledger.jsonl") as (previous: string | null) => string;
 * throws(() => value("not json\n"), /Cannot update the ledger/);
 * ```
 */
export function ledgerFile(entries: readonly LedgerEntry[], path: string): FileValue {
  return (previous) => {
    try {
      return mergeLedger(previous ?? "", entries);
    } catch (error) {
      throw new GatelabError("Cannot update the ledger", [{
        code: "parse_error",
        file: path,
        message: `${(error as Error).message}; the ledger is never rewritten silently`,
      }]);
    }
  };
}
