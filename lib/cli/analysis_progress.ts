/**
 * The progress `gate analyze` prints after the validation, for an analysis
 * large enough that a phase takes about a second: the fit, the diagnostics
 * and interaction screen, each large tidy table's Parquet encoding and each
 * large CSV's writing (in place on a terminal, else a line per 10%; silent
 * with `--quiet` or GATELAB_NO_PROGRESS=1; every phase whatever its size
 * with GATELAB_PROGRESS_ALWAYS=1, see `progressAlways`).
 *
 * @module
 */
import { stderrProgress } from "../core/progress.ts";
import type { RunAnalysisOptions } from "../analyze/analyze.ts";
import type { AnalysisFilesOptions } from "../analyze/files.ts";
import { progressAlways } from "./load_progress.ts";

/**
 * Analyses of this many paired rows up report their fit and their
 * diagnostics and screen: each took 0.7 to 2 s at 200,000 rows and 16
 * columns, 4 to 5 s at 1,000,000 (docs/performance.md).
 */
export const ANALYSIS_PROGRESS_ROWS = 200_000;

/**
 * Tidy tables of this many rows up report their Parquet encoding and their
 * CSV's writing: tasks.parquet took 1 to 2.4 s at 200,000 rows, tasks.csv's
 * writing 0.18 s at 40,000 (docs/performance.md).
 */
export const TABLE_PROGRESS_ROWS = 200_000;

/** The progress options of the analysis and of its files. */
export interface AnalysisProgress {
  /** For `runAnalysis`. */
  readonly analysis: Pick<RunAnalysisOptions, "onFit" | "onDiagnostics">;
  /** For `analysisFiles`. */
  readonly files: Pick<AnalysisFilesOptions, "onEncode" | "onWrite">;
}

/**
 * The progress callbacks of an analysis of `rows` paired rows: none when
 * quiet, none for a phase below its threshold.
 *
 * @param quiet Whether the command was given `--quiet`.
 * @param rows The dataset's paired rows.
 * @returns The options to spread into `runAnalysis` and `analysisFiles`.
 *
 * @example
 * ```ts
 * import { analysisProgress } from "./analysis_progress.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(analysisProgress(true, 10 ** 6), { analysis: {}, files: {} });
 * const large = analysisProgress(false, 10 ** 6);
 * deepEqual(Object.keys(large.analysis), ["onFit", "onDiagnostics"]);
 * deepEqual(large.files.onEncode!("coefficients.parquet", 112), undefined);
 * ```
 */
export function analysisProgress(quiet: boolean, rows: number): AnalysisProgress {
  if (quiet) return { analysis: {}, files: {} };
  const always = progressAlways();
  const table = (label: string) => (file: string, tableRows: number) =>
    always || tableRows >= TABLE_PROGRESS_ROWS
      ? stderrProgress(`${label} ${file} (rows)`)
      : undefined;
  const files = { onEncode: table("encoding"), onWrite: table("writing") };
  if (!always && rows < ANALYSIS_PROGRESS_ROWS) return { analysis: {}, files };
  const analysis: Pick<RunAnalysisOptions, "onFit" | "onDiagnostics"> = {
    onFit: stderrProgress("fitting (steps)"),
    onDiagnostics: stderrProgress("diagnostics and interaction screen (steps)"),
  };
  return { analysis, files };
}
