/**
 * The bundle of history.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { HistorySchema } from "../contract/outputs/mod.ts";
import type { HistoryDocument } from "./document.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import type { FigureFilesOptions } from "../figures/figure_files.ts";
import type { RunScope } from "../table/run_scope.ts";
import { bundleFiles } from "../figures/bundle_files.ts";
import { historyTidy } from "./history_tidy.ts";
import { historyTables } from "./tables.ts";
import { historyFigures } from "./figures.ts";
import { historySection } from "./section.ts";

/**
 * Options of `historyFiles` (lib/history/files.ts), the bundle's `files`:
 * validation.json, the run's scope and the figure options (`png`, `pdf`
 * and `onMissingConverter` as figureFiles takes them).
 */
export type HistoryFilesOptions = Omit<FigureFilesOptions, "scope"> & {
  /** validation.json of the run, written beside its outputs. */
  readonly validation: ValidationDocument;
  /** The run's scope: table labels and captions, each figure's `.tex` float. */
  readonly scope: RunScope;
};

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
  files: (doc, { validation, scope, ...figures }) =>
    bundleFiles(historyBundle, doc, {
      validation,
      scope,
      figures,
      tidy: [historyTidy(doc.chunks)],
    }),
  section: historySection,
};
