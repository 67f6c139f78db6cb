/**
 * The bundle of a study: study.json read back, its tables and figures, the
 * files of `gate study` and the report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { StudySchema } from "../contract/outputs/mod.ts";
import type { StudyDocument } from "./document.ts";
import type { StudyAnalysis } from "./analyze.ts";
import { studyFiles, type StudyFilesOptions } from "./files.ts";
import { studyArmsFileTable, studyComparisonsFileTable } from "./tables.ts";
import { studyFigures } from "./figures.ts";
import { studySection } from "./section.ts";

/**
 * A study as a bundle. `tables` is the tables of study.json the report
 * shows (arms, comparisons); `files` writes what `gate study` writes, whose
 * tables (`studyTables`) read the analysis rather than the document.
 *
 * @example
 * ```ts
 * import { studyBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([studyBundle.file, studyBundle.kind], ["study.json", ["study"]]);
 * ```
 */
export const studyBundle: Bundle<
  StudyDocument,
  StudyFilesOptions & { readonly analysis: StudyAnalysis }
> = {
  stage: "study",
  file: "study.json",
  schema: StudySchema,
  kind: ["study"],
  commands: ["study"],
  tidy: ["comparisons"],
  read: (dir) => readBundleFile(dir, "study.json", StudySchema),
  tables: (doc) => [studyArmsFileTable(doc), studyComparisonsFileTable(doc)],
  figures: studyFigures,
  files: (doc, { analysis, ...options }) => studyFiles(doc, analysis, options),
  section: studySection,
};
