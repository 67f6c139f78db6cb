/**
 * The bundle of heldout.json: its document read back, tables, figures, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { HeldoutSchema } from "../contract/outputs/mod.ts";
import type { HeldoutDocument } from "./heldout.ts";
import { heldoutFiles, type HeldoutFilesOptions } from "./files.ts";
import { heldoutTables } from "./tables.ts";
import { heldoutFigures } from "./figures.ts";
import { heldoutSection } from "./section.ts";

/**
 * heldout.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { heldoutBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([heldoutBundle.file, heldoutBundle.kind], ["heldout.json", ["heldout"]]);
 * deepEqual((await heldoutBundle.read("lib")).doc, null);
 * ```
 */
export const heldoutBundle: Bundle<HeldoutDocument, HeldoutFilesOptions> = {
  stage: "heldout",
  file: "heldout.json",
  schema: HeldoutSchema,
  kind: ["heldout"],
  commands: ["heldout"],
  tidy: ["splits"],
  read: (dir) => readBundleFile(dir, "heldout.json", HeldoutSchema),
  tables: heldoutTables,
  figures: heldoutFigures,
  files: heldoutFiles,
  section: heldoutSection,
};
