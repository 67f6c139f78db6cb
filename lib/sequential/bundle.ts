/**
 * The bundle of sequential.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { SequentialSchema } from "../contract/outputs/mod.ts";
import type { SequentialDocument } from "./sequential.ts";
import { sequentialFiles, type SequentialFilesOptions } from "./files.ts";
import { sequentialTables } from "./tables.ts";
import { sequentialFigures } from "./figures.ts";
import { sequentialSection } from "./section.ts";

/**
 * sequential.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { sequentialBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([sequentialBundle.file, sequentialBundle.kind], ["sequential.json", ["sequential"]]);
 * deepEqual((await sequentialBundle.read("lib")).doc, null);
 * ```
 */
export const sequentialBundle: Bundle<SequentialDocument, SequentialFilesOptions> = {
  stage: "sequential",
  file: "sequential.json",
  schema: SequentialSchema,
  kind: ["sequential"],
  commands: ["sequential"],
  tidy: ["prefixes"],
  read: (dir) => readBundleFile(dir, "sequential.json", SequentialSchema),
  tables: sequentialTables,
  figures: sequentialFigures,
  files: sequentialFiles,
  section: sequentialSection,
};
