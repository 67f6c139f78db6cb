/**
 * Every file `gate compare` writes into `--out`, as bytes: the bundle's
 * pure writer (no I/O), so the command only writes what this returns.
 *
 * @module
 */
import { type FileContents, toJsonText } from "../core/atomic_write.ts";
import type { ValidationJson } from "../contract/outputs/validation.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { ComparisonDocument } from "./comparison_types.ts";
import { comparisonTidy } from "./comparison_tidy.ts";
import { comparisonTables } from "./tables.ts";

/** Options of {@linkcode comparisonFiles}. */
export interface ComparisonFilesOptions {
  /**
   * The validation report of the inputs, written as validation.json
   * (`validationDocument`'s, or one read back through its schema).
   */
  readonly validation: ValidationJson;
  /** The run's name in LaTeX labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
}

/**
 * The files of a Gate B comparison: validation.json, comparison.json, its
 * tables as comparison.md and comparison.tex (labels scoped to the run),
 * and the tidy table `comparison` as CSV and Parquet.
 *
 * @param doc comparison.json (from `compareRuns`).
 * @param options The validation report and the run's label scope.
 * @returns File name (inside `--out`) to contents.
 *
 * @example
 * ```ts
 * import { comparisonFiles } from "./files.ts";
 * import { compareRunDirs } from "./compare_dirs.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const r = await compareRunDirs("data/demo/gate-b/bare-test", "data/demo/gate-b/equipped-test", { draws: 0 });
 * if (!r.ok) throw new Error("cannot compare the demo's Gate B runs");
 * const files = await comparisonFiles(r.value, {
 *   validation: validationDocument([], "gate compare", []), scope: { label: "gate-b", name: "Gate B" } });
 * deepEqual(Object.keys(files), ["validation.json", "comparison.json", "comparison.md", "comparison.tex",
 *   "comparison.csv", "comparison.parquet"]);
 * ok((files["comparison.tex"] as string).includes("\\label{tab:gate-b:gate-b-metrics}"));
 * ```
 */
export async function comparisonFiles(
  doc: ComparisonDocument,
  options: ComparisonFilesOptions,
): Promise<Record<string, FileContents>> {
  const tables = scopeTables(comparisonTables(doc), options.scope);
  return {
    "validation.json": toJsonText(options.validation),
    "comparison.json": toJsonText(doc),
    ...tableFiles("comparison", tables),
    ...await tidyFiles([comparisonTidy(doc)]),
  };
}
