/**
 * The bundle of comparison.json: its document read back, tables, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { ComparisonSchema } from "../contract/outputs/mod.ts";
import type { ComparisonDocument } from "./comparison_types.ts";
import { comparisonFiles, type ComparisonFilesOptions } from "./files.ts";
import { comparisonTables } from "./tables.ts";

import { comparisonSection } from "./section.ts";

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

  files: comparisonFiles,
  section: comparisonSection,
};
