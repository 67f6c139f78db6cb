/**
 * Every file `gate history` writes into `--out`, as bytes: pure apart from
 * the figures' PNG/PDF conversion, so a test reads them without I/O.
 * The bundle's `files` (lib/history/bundle.ts) makes them with
 * `bundleFiles` (lib/figures/bundle_files.ts), the default files of a
 * bundle; this is the command's name for it.
 *
 * @module
 */
import type { FileValue } from "../core/atomic_write.ts";
import type { HistoryDocument } from "./document.ts";
import { historyBundle, type HistoryFilesOptions } from "./bundle.ts";

export type { HistoryFilesOptions } from "./bundle.ts";

/**
 * The files of a history: validation.json (with the lineage warnings when
 * gaps were allowed), history.json, history.md/.tex (lifecycles, exposure,
 * internalization, scoped), the figures `history_lifecycle` and
 * `history_trajectories` (svg, png, pdf, tex) and the tidy
 * `lifecycles.csv`/`.parquet`.
 *
 * @param doc history.json.
 * @param options validation.json, scope and figure options.
 * @returns File name (inside `--out`) to contents, ready for `writeFilesAtomic`.
 *
 * @example
 * ```ts
 * import { historyFiles } from "./files.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const entry = { step: 1, version_id: "a.v1", role: "add" as const, estimate: 0.1, se: 0.05, ci_lower: 0, ci_upper: 0.2,
 *   interval: "hc3_normal" as const, status: "selected" as const, rank: 1, transition: "added" as const, others: [] };
 * const files = await historyFiles({ format: "gatelab.history/v1", metric: "reward",
 *   conventions: { interval: "", lineage: "", status: "",
 *     internalization: { window: "", trend: "", flagged: "", note: "" } },
 *   steps: [{ step: 1, gate_ids: ["g"], checkpoint_id: "c1", stage: "cold_start", budget_k: 1, baseline_sha256: "0",
 *     source: { kind: "analysis", dirs: ["a"] }, bootstrap: null, selected: ["a.v1"] }],
 *   lineage: { ok: true, gaps_allowed: false, issues: [] }, chunks: { a: [entry] },
 *   exposure: { a: { steps_in_skill: 0, steps_selected: 1 } }, internalization: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate history a --out o" } }, {
 *   validation: validationDocument([], "gate history a --out o"), scope: { label: "hist", name: "Hist" },
 *   png: false, pdf: false });
 * deepEqual(Object.keys(files), ["validation.json", "history.json", "history.md", "history.tex",
 *   "history_lifecycle.svg", "history_lifecycle.tex", "history_trajectories.svg", "history_trajectories.tex",
 *   "lifecycles.csv", "lifecycles.parquet"]);
 * ok([...(files["lifecycles.csv"] as Iterable<string>)].join("").startsWith("chunk_id,step,version_id,"));
 * ```
 */
export async function historyFiles(
  doc: HistoryDocument,
  options: HistoryFilesOptions,
): Promise<Record<string, FileValue>> {
  return await historyBundle.files(doc, options);
}
