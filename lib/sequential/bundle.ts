/**
 * The bundle of sequential.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { SequentialSchema } from "../contract/outputs/mod.ts";
import type { SequentialDocument } from "./sequential.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import type { FigureFilesOptions } from "../figures/figure_files.ts";
import type { RunScope } from "../table/run_scope.ts";
import { bundleFiles } from "../figures/bundle_files.ts";
import { sequentialTidy } from "./sequential_tidy.ts";
import { sequentialTables } from "./tables.ts";
import { sequentialFigures } from "./figures.ts";
import { sequentialSection } from "./section.ts";

/**
 * Options of `sequentialFiles` (lib/sequential/files.ts), the bundle's `files`:
 * validation.json, the run's scope and the figure options (`png`, `pdf`
 * and `onMissingConverter` as figureFiles takes them).
 */
export type SequentialFilesOptions = Omit<FigureFilesOptions, "scope"> & {
  /** validation.json of the run, written beside its outputs. */
  readonly validation: ValidationDocument;
  /** The run's scope: table labels and captions, each figure's `.tex` float. */
  readonly scope: RunScope;
};

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
  files: (doc, { validation, scope, ...figures }) =>
    bundleFiles(sequentialBundle, doc, { validation, scope, figures, tidy: [sequentialTidy(doc)] }),
  section: sequentialSection,
};
