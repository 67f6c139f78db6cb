/**
 * The bundle of `gate import`: import.json and the contract directories it
 * writes. It has no tables, figures or report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { type ImportDocument, ImportDocumentSchema } from "./document.ts";
import type { ImportBuild } from "./build.ts";
import { importFiles } from "./files.ts";

/**
 * `gate import`'s output as a bundle; `files` writes the built directories and import.json.
 *
 * @example
 * ```ts
 * import { importBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([importBundle.file, importBundle.kind, importBundle.section], ["import.json", [], undefined]);
 * ```
 */
export const importBundle: Bundle<ImportDocument, { readonly build: Pick<ImportBuild, "files"> }> =
  {
    stage: "import",
    file: "import.json",
    schema: ImportDocumentSchema,
    kind: [],
    commands: ["import table", "import inspect"],
    tidy: [],
    read: (dir) => readBundleFile(dir, "import.json", ImportDocumentSchema),
    tables: () => [],
    files: (document, { build }) => importFiles({ build, document }),
  };
