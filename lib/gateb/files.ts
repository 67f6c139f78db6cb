/**
 * Every file `gate compare` writes into `--out`, as bytes: the bundle's
 * pure writer (no I/O), so the command only writes what this returns.
 * The bundle's `files` (lib/gateb/bundle.ts) makes them with
 * `bundleFiles` (lib/figures/bundle_files.ts), the default files of a
 * bundle; this is the command's name for it.
 *
 * @module
 */
import type { FileValue } from "../core/atomic_write.ts";
import type { ComparisonDocument } from "./comparison_types.ts";
import { comparisonBundle, type ComparisonFilesOptions } from "./bundle.ts";

export type { ComparisonFilesOptions } from "./bundle.ts";

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
): Promise<Record<string, FileValue>> {
  return await comparisonBundle.files(doc, options);
}
