/**
 * The bundle of `gate validate`: validation.json, its findings tables and
 * its files. The report shows no section of its own (an audit's findings
 * are the audits' sections).
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { type ValidationJson, ValidationSchema } from "../contract/outputs/mod.ts";
import type { ValidationReport } from "./document.ts";
import { validateFiles } from "./files.ts";
import { findingsTables } from "./tables.ts";

/**
 * `gate validate`'s output as a bundle; `files` writes the report it made.
 *
 * @example
 * ```ts
 * import { validateBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([validateBundle.file, validateBundle.kind, validateBundle.section],
 *   ["validation.json", [], undefined]);
 * ```
 */
export const validateBundle: Bundle<ValidationJson, ValidationReport> = {
  stage: "validate",
  file: "validation.json",
  schema: ValidationSchema,
  kind: [],
  commands: ["validate"],
  tidy: [],
  read: (dir) => readBundleFile(dir, "validation.json", ValidationSchema),
  tables: findingsTables,
  files: (_doc, report) => validateFiles(report),
};
