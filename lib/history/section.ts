/**
 * The report's section of a history across checkpoints (history.json):
 * lifecycles, exposure and the lifecycle chart, then the internalization
 * screen and the coefficient trajectories.
 *
 * @module
 */
import { type ReportSection, sectionItems } from "../table/section.ts";
import { historyTables } from "./tables.ts";
import { historyFigures } from "./figures.ts";
import type { HistoryDocument } from "./document.ts";

/**
 * The section of a history: the tables and figures `gate history` writes,
 * each figure after the table it draws.
 *
 * @param doc history.json.
 * @param dir The output directory it was read from.
 * @returns The section "History across checkpoints".
 *
 * @example
 * ```ts
 * import { historySection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const entry = { step: 1, version_id: "a.v1", role: "add" as const, estimate: 0.1, se: 0.05, ci_lower: 0, ci_upper: 0.2,
 *   interval: "hc3_normal" as const, status: "selected" as const, rank: 1, transition: "added" as const, others: [] };
 * const section = historySection({ format: "gatelab.history/v1", metric: "reward",
 *   conventions: { interval: "i", lineage: "l", status: "s",
 *     internalization: { window: "w", trend: "t", flagged: "f", note: "n" } },
 *   steps: [{ step: 1, gate_ids: ["g"], checkpoint_id: "c1", stage: "cold_start", budget_k: 1, baseline_sha256: "0",
 *     source: { kind: "analysis", dirs: ["a"] }, bootstrap: null, selected: ["a.v1"] }],
 *   lineage: { ok: true, gaps_allowed: false, issues: [] }, chunks: { a: [entry] },
 *   exposure: { a: { steps_in_skill: 0, steps_selected: 1 } }, internalization: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate history a --out o" } }, "out");
 * deepEqual(section.items.map((i) => "svg" in i ? i.name : "caption" in i ? i.label : i.subheading), [
 *   "tab:history-lifecycles", "tab:history-exposure", "history_lifecycle", "tab:history-internalization",
 *   "history_trajectories"]);
 * ```
 */
export function historySection(doc: HistoryDocument, dir: string): ReportSection {
  return {
    kind: "history",
    heading: "History across checkpoints",
    // historyTables and historyFigures, the lifecycle figure behind the exposure table.
    items: sectionItems(historyTables(doc), historyFigures(doc), {
      "tab:history-exposure": ["history_lifecycle"],
    }),
    dir,
    files: ["history.json"],
  };
}
