/**
 * The bundle of ladder_result.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { LadderResultSchema } from "../contract/outputs/mod.ts";
import type { LadderResultDocument } from "./document.ts";
import { ladderFiles, type LadderFilesOptions } from "./files.ts";
import { ladderTables } from "./tables.ts";
import { ladderFigures } from "./figures.ts";
import { ladderSection } from "./section.ts";

/**
 * ladder_result.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { ladderBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([ladderBundle.file, ladderBundle.kind], ["ladder_result.json", ["ladder"]]);
 * deepEqual((await ladderBundle.read("lib")).doc, null);
 * ```
 */
export const ladderBundle: Bundle<LadderResultDocument, LadderFilesOptions> = {
  stage: "ladder",
  file: "ladder_result.json",
  schema: LadderResultSchema,
  kind: ["ladder"],
  commands: ["ladder"],
  tidy: ["blocks"],
  read: (dir) => readBundleFile(dir, "ladder_result.json", LadderResultSchema),
  tables: ladderTables,
  figures: ladderFigures,
  files: ladderFiles,
  section: ladderSection,
};
