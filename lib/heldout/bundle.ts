/**
 * The bundle of heldout.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { HeldoutSchema } from "../contract/outputs/mod.ts";
import type { HeldoutDocument } from "./heldout.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import type { RunScope } from "../table/run_scope.ts";
import { bundleFiles } from "../figures/bundle_files.ts";
import { heldoutTidy } from "./heldout_tidy.ts";
import { heldoutTables } from "./tables.ts";
import { heldoutFigures } from "./figures.ts";
import { heldoutSection } from "./section.ts";

/** Options of `heldoutFiles` (lib/heldout/files.ts), the bundle's `files`. */
export interface HeldoutFilesOptions {
  /** The run's name in table labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
  /** The validation report of the gates read, written as validation.json. */
  readonly validation: ValidationDocument;
}

/**
 * heldout.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { heldoutBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([heldoutBundle.file, heldoutBundle.kind], ["heldout.json", ["heldout"]]);
 * deepEqual((await heldoutBundle.read("lib")).doc, null);
 * ```
 */
export const heldoutBundle: Bundle<HeldoutDocument, HeldoutFilesOptions> = {
  stage: "heldout",
  file: "heldout.json",
  schema: HeldoutSchema,
  kind: ["heldout"],
  commands: ["heldout"],
  tidy: ["splits"],
  read: (dir) => readBundleFile(dir, "heldout.json", HeldoutSchema),
  tables: heldoutTables,
  figures: heldoutFigures,
  files: (doc, options) =>
    bundleFiles(heldoutBundle, doc, { ...options, tidy: [heldoutTidy(doc.splits)] }),
  section: heldoutSection,
};
