/**
 * Every file `gate plan-power` writes into `--out`, as bytes: power.json,
 * power.md, power.tex and the tidy MDE table.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { PowerDocument } from "./power.ts";
import { powerTidy } from "./power_tidy.ts";
import { powerTables } from "./tables.ts";

/** Options of {@linkcode powerFiles}. */
export interface PowerFilesOptions {
  /** The run's name in table labels and captions (`--label-prefix`, else the `--out` name). */
  readonly scope: RunScope;
}

/**
 * The files of a power plan, by name inside `--out`: pure (no I/O), so a
 * test checks the bytes without writing.
 *
 * @param doc The document of {@linkcode powerDocument}.
 * @param options The run's scope.
 * @returns power.json, power.md, power.tex, mde.csv, mde.parquet.
 *
 * @example
 * ```ts
 * import { planPower, powerDocument, powerFiles } from "./mod.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const plan = planPower({ tasks: 200, columns: 3, pPresent: 0.5, residSd: 0.1 }, { sims: 20, seed: 1 });
 * const doc = powerDocument({ command: "gate plan-power", from: null, inputs: [], effects: null, plan });
 * const files = await powerFiles(doc, { scope: { label: "plan", name: "Plan" } });
 * deepEqual(Object.keys(files), ["power.json", "power.md", "power.tex", "mde.csv", "mde.parquet"]);
 * ok((files["power.md"] as string).startsWith("**Plan: power plan**"));
 * ```
 */
export async function powerFiles(
  doc: PowerDocument,
  options: PowerFilesOptions,
): Promise<Record<string, FileValue>> {
  const tables = scopeTables(powerTables(doc), options.scope);
  return {
    "power.json": toJsonText(doc),
    ...tableFiles("power", tables),
    ...await tidyFiles([powerTidy(doc)]),
  };
}
