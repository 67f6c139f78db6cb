/**
 * Every file `gate study` writes into `--out`, as bytes: the bundle's pure
 * writer (no I/O), so the command only writes what this returns.
 *
 * @module
 */
import { type FileContents, toJsonText } from "../core/atomic_write.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { StudyDocument } from "./document.ts";
import { studyTidy } from "./study_tidy.ts";
import { studyTables } from "./tables.ts";

/** Options of {@linkcode studyFiles}. */
export interface StudyFilesOptions {
  /** The run's name in LaTeX labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
}

/**
 * The files of a study, all made from study.json: the document, its
 * tables (arms, comparisons and costs, `studyTables`) as study_tables.md
 * and study_tables.tex (labels scoped to the run), and the tidy table
 * `comparisons` as CSV and Parquet.
 *
 * @param doc study.json (from `studyDocument`).
 * @param options The run's label scope.
 * @returns File name (inside `--out`) to contents.
 *
 * @example The demo study, 20 draws
 * ```ts
 * import { analyzeStudy, loadStudyDir, valueOrThrow } from "../mod.ts";
 * import { studyDocument } from "./document.ts";
 * import { studyFiles } from "./files.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const { input, inputs } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * const analysis = valueOrThrow(analyzeStudy({ ...input, plan: { ...input.plan, bootstrap: { draws: 20, seed: 1 } } }), "analysis");
 * const doc = studyDocument(analysis, { command: "gate study", inputs });
 * const files = await studyFiles(doc, { scope: { label: "study", name: "Study" } });
 * deepEqual(Object.keys(files), ["study.json", "study_tables.md", "study_tables.tex",
 *   "comparisons.csv", "comparisons.parquet"]);
 * ok((files["study_tables.tex"] as string).includes("\\label{tab:study:study-costs}"));
 * ```
 */
export async function studyFiles(
  doc: StudyDocument,
  options: StudyFilesOptions,
): Promise<Record<string, FileContents>> {
  const tables = scopeTables(studyTables(doc), options.scope);
  return {
    "study.json": toJsonText(doc),
    ...tableFiles("study_tables", tables),
    ...await tidyFiles([studyTidy(doc.comparisons)]),
  };
}
