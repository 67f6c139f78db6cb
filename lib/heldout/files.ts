/**
 * Every file `gate heldout` writes into `--out`, as bytes: heldout.json,
 * heldout.md, heldout.tex, the tidy splits table and validation.json.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { HeldoutDocument } from "./heldout.ts";
import { heldoutTidy } from "./heldout_tidy.ts";
import { heldoutTables } from "./tables.ts";

/** Options of {@linkcode heldoutFiles}. */
export interface HeldoutFilesOptions {
  /** The run's name in table labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
  /** The validation report of the gates read, written as validation.json. */
  readonly validation: ValidationDocument;
}

/**
 * The files of a held-out check, by name inside `--out`: pure (no I/O),
 * so a test checks the bytes without writing.
 *
 * @param doc The document of {@linkcode heldoutDocument}.
 * @param options The run's scope and the validation report.
 * @returns validation.json, heldout.json, heldout.md, heldout.tex, splits.csv, splits.parquet.
 *
 * @example
 * ```ts
 * import { heldoutDocument, heldoutFiles } from "./mod.ts";
 * import { datasetOrThrow, validateGates } from "../mod.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const validation = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const doc = heldoutDocument({
 *   command: "gate heldout", dataset: datasetOrThrow(validation, "Gate A"), inputs: [],
 *   plan: { format: "gatelab.heldout-plan/v1", scheme: "split_half", folds: 2, repeats: 2, seed: 1, metric: "reward" },
 *   planFile: { path: "plan.json", bytes: new Uint8Array() },
 * });
 * const files = await heldoutFiles(doc, {
 *   scope: { label: "gate-a", name: "Gate A" },
 *   validation: validationDocument([], "gate heldout"),
 * });
 * deepEqual(Object.keys(files), [
 *   "validation.json", "heldout.json", "heldout.md", "heldout.tex", "splits.csv", "splits.parquet",
 * ]);
 * ok((files["heldout.tex"] as string).includes("\\label{tab:gate-a:heldout}"));
 * ```
 */
export async function heldoutFiles(
  doc: HeldoutDocument,
  options: HeldoutFilesOptions,
): Promise<Record<string, FileValue>> {
  const tables = scopeTables(heldoutTables(doc), options.scope);
  return {
    "validation.json": toJsonText(options.validation),
    "heldout.json": toJsonText(doc),
    ...tableFiles("heldout", tables),
    ...await tidyFiles([heldoutTidy(doc.splits)]),
  };
}
