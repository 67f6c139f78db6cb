/**
 * The bundle of power.json: its document read back, tables, files and report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { PowerSchema } from "../contract/outputs/mod.ts";
import type { PowerDocument } from "./power.ts";
import type { RunScope } from "../table/run_scope.ts";
import { bundleFiles } from "../figures/bundle_files.ts";
import { powerTidy } from "./power_tidy.ts";
import { powerTables } from "./tables.ts";

import { powerSection } from "./section.ts";

/** Options of `powerFiles` (lib/power/files.ts), the bundle's `files`. */
export interface PowerFilesOptions {
  /** The run's name in table labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
}

/**
 * power.json as a bundle: what `gate report` reads and shows, what the command writes.
 *
 * @example
 * ```ts
 * import { powerBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([powerBundle.file, powerBundle.kind], ["power.json", ["power"]]);
 * deepEqual((await powerBundle.read("lib")).doc, null);
 * ```
 */
export const powerBundle: Bundle<PowerDocument, PowerFilesOptions> = {
  stage: "power",
  file: "power.json",
  schema: PowerSchema,
  kind: ["power"],
  commands: ["plan-power"],
  tidy: ["mde"],
  read: (dir) => readBundleFile(dir, "power.json", PowerSchema),
  tables: powerTables,

  files: (doc, options) => bundleFiles(powerBundle, doc, { ...options, tidy: [powerTidy(doc)] }),
  section: powerSection,
};
