/**
 * Every file `gate heldout` writes into `--out`, as bytes: heldout.json,
 * heldout.md, heldout.tex, the tidy splits table and validation.json, the
 * bundle's default files (`bundleFiles`, lib/figures/bundle_files.ts).
 *
 * @module
 */
import type { FileValue } from "../core/atomic_write.ts";
import type { HeldoutDocument } from "./heldout.ts";
import { heldoutBundle, type HeldoutFilesOptions } from "./bundle.ts";

export type { HeldoutFilesOptions } from "./bundle.ts";

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
  return await heldoutBundle.files(doc, options);
}
