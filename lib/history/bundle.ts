/**
 * The bundle of history.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { HistorySchema } from "../contract/outputs/mod.ts";
import type { HistoryDocument } from "./history.ts";
import { historyFiles, type HistoryFilesOptions } from "./files.ts";
import { historyTables } from "./tables.ts";
import { historyFigures } from "./figures.ts";
import { historySection } from "./section.ts";

/**
 * history.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { historyBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([historyBundle.file, historyBundle.kind], ["history.json", ["history"]]);
 * deepEqual((await historyBundle.read("lib")).doc, null);
 * ```
 */
export const historyBundle: Bundle<HistoryDocument, HistoryFilesOptions> = {
  stage: "history",
  file: "history.json",
  schema: HistorySchema,
  kind: ["history"],
  commands: ["history"],
  tidy: ["lifecycles"],
  read: (dir) => readBundleFile(dir, "history.json", HistorySchema),
  tables: historyTables,
  figures: historyFigures,
  files: historyFiles,
  section: historySection,
};
