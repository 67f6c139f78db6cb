/**
 * Every file `gate plan-power` writes into `--out`, as bytes: power.json,
 * power.md, power.tex and the tidy MDE table.
 * The bundle's `files` (lib/power/bundle.ts) makes them with
 * `bundleFiles` (lib/figures/bundle_files.ts), the default files of a
 * bundle; this is the command's name for it.
 *
 * @module
 */
import type { FileValue } from "../core/atomic_write.ts";
import type { PowerDocument } from "./power.ts";
import { powerBundle, type PowerFilesOptions } from "./bundle.ts";

export type { PowerFilesOptions } from "./bundle.ts";

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
  return await powerBundle.files(doc, options);
}
