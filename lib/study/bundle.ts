/**
 * The bundle of a study: study.json read back, its tables and figures, the
 * files of `gate study` and the report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { StudySchema } from "../contract/outputs/mod.ts";
import type { StudyDocument } from "./document.ts";
import { studyFiles, type StudyFilesOptions } from "./files.ts";
import { studyTables } from "./tables.ts";
import { studyFigures } from "./figures.ts";
import { studySection } from "./section.ts";

/**
 * A study as a bundle. `tables` is `studyTables` of study.json (arms,
 * comparisons, costs): the tables `files` writes for `gate study`, the
 * report's section shows and the notebooks show.
 *
 * @example
 * ```ts
 * import { studyBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([studyBundle.file, studyBundle.kind], ["study.json", ["study"]]);
 * ```
 */
export const studyBundle: Bundle<StudyDocument, StudyFilesOptions> = {
  stage: "study",
  file: "study.json",
  schema: StudySchema,
  kind: ["study"],
  commands: ["study"],
  tidy: ["comparisons"],
  read: (dir) => readBundleFile(dir, "study.json", StudySchema),
  tables: studyTables,
  figures: studyFigures,
  files: studyFiles,
  section: studySection,
};
