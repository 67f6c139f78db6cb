/**
 * Every file `gate sequential` writes into `--out`, as bytes: pure apart
 * from the figures' PNG/PDF conversion, so a test reads them without I/O.
 * The bundle's `files` (lib/sequential/bundle.ts) makes them with
 * `bundleFiles` (lib/figures/bundle_files.ts), the default files of a
 * bundle; this is the command's name for it.
 *
 * @module
 */
import type { FileValue } from "../core/atomic_write.ts";
import type { SequentialDocument } from "./sequential.ts";
import { sequentialBundle, type SequentialFilesOptions } from "./bundle.ts";

export type { SequentialFilesOptions } from "./bundle.ts";

/**
 * The files of a sequential re-analysis: validation.json, sequential.json,
 * sequential.md/.tex (one table per metric, scoped), the funnel and
 * selection figures of every metric (svg, png, pdf, tex) and the tidy
 * `prefixes.csv`/`.parquet`.
 *
 * @param doc sequential.json.
 * @param options validation.json, scope and figure options.
 * @returns File name (inside `--out`) to contents, ready for `writeFilesAtomic`.
 *
 * @example
 * ```ts
 * import { sequentialFiles } from "./files.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const v = { estimate: [0.2], se: [0.05], cs_lower: [0.01], cs_upper: [0.39], e_value: [30], running_lower: [0.01],
 *   running_upper: [0.39], running_max_e: [30], sign_certified_at: 40, sign: 1 as const, rollouts_saved: 0,
 *   fixed_n_interval: [0.1, 0.3] as [number, number] };
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const files = await sequentialFiles({ format: "gatelab.sequential/v1", order: "run", seed: null, alpha: 0.05, phi: 1,
 *   every: 1, estimator: { name: "e", formula: "f", intercept: 0 }, conventions: {}, rows: 40, columns: 1, budget_k: 1,
 *   rollouts_total: 80, row_order: [], baseline: run, gates: [{ gate_id: "g", gate_dir: "g", masked: run }],
 *   generator: { tool: "gatelab", version: "0", command: "gate sequential g --out o" },
 *   metrics: { reward: { n: [40], selection: [["a"]], selection_stable_from: 40, selection_rollouts_saved: 0,
 *     versions: { a: v } } } }, {
 *   validation: validationDocument([], "gate sequential g --out o"), scope: { label: "seq", name: "Seq" },
 *   png: false, pdf: false });
 * deepEqual(Object.keys(files), ["validation.json", "sequential.json", "sequential.md", "sequential.tex",
 *   "sequential_funnel_reward.svg", "sequential_funnel_reward.tex", "sequential_selection_reward.svg",
 *   "sequential_selection_reward.tex", "prefixes.csv", "prefixes.parquet"]);
 * ok(String(files["sequential.tex"]).includes("tab:seq:sequential-reward"));
 * ```
 */
export async function sequentialFiles(
  doc: SequentialDocument,
  options: SequentialFilesOptions,
): Promise<Record<string, FileValue>> {
  return await sequentialBundle.files(doc, options);
}
