/**
 * The bundle of comparison.json: its document read back, tables, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { ComparisonSchema } from "../contract/outputs/mod.ts";
import type { ComparisonDocument } from "./comparison_types.ts";
import type { ValidationJson } from "../contract/outputs/validation.ts";
import type { RunScope } from "../table/run_scope.ts";
import { bundleFiles } from "../figures/bundle_files.ts";
import { comparisonTidy } from "./gateb_tidy.ts";
import { comparisonTables } from "./tables.ts";

import { comparisonSection } from "./section.ts";

/** Options of `comparisonFiles` (lib/gateb/files.ts), the bundle's `files`. */
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
 * comparison.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { comparisonBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([comparisonBundle.file, comparisonBundle.kind], ["comparison.json", ["gate_b"]]);
 * deepEqual((await comparisonBundle.read("lib")).doc, null);
 * ```
 */
export const comparisonBundle: Bundle<ComparisonDocument, ComparisonFilesOptions> = {
  stage: "gateb",
  file: "comparison.json",
  schema: ComparisonSchema,
  kind: ["gate_b"],
  commands: ["compare"],
  tidy: ["comparison"],
  read: (dir) => readBundleFile(dir, "comparison.json", ComparisonSchema),
  tables: comparisonTables,

  files: (doc, options) =>
    bundleFiles(comparisonBundle, doc, { ...options, tidy: [comparisonTidy(doc)] }),
  section: comparisonSection,
};
