/**
 * Every file `gate history` writes into `--out`, as bytes: pure apart from
 * the figures' PNG/PDF conversion, so a test reads them without I/O.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import { figureFiles, type FigureFilesOptions } from "../figures/figure_files.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { historyFigures } from "./figures.ts";
import type { HistoryDocument } from "./history.ts";
import { historyTidy } from "./history_tidy.ts";
import { historyTables } from "./tables.ts";

/**
 * Options of {@linkcode historyFiles}: validation.json and the figure
 * options (`png`, `pdf` and `onMissingConverter` as figureFiles takes them).
 */
export type HistoryFilesOptions = Omit<FigureFilesOptions, "scope"> & {
  /** validation.json of the run, written beside its outputs. */
  readonly validation: ValidationDocument;
  /** The run's scope: table labels and captions, each figure's `.tex` float. */
  readonly scope: RunScope;
};

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
  const { validation, ...figureOptions } = options;
  const tables = scopeTables(historyTables(doc), options.scope);
  const figures = await figureFiles(historyFigures(doc), figureOptions);
  return {
    "validation.json": toJsonText(validation),
    "history.json": toJsonText(doc),
    ...tableFiles("history", tables),
    ...figures,
    ...await tidyFiles([historyTidy(doc.chunks)]),
  };
}
