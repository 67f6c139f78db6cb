/**
 * The tidy table of `gate heldout`: `splits`, one row per split of
 * heldout.json (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { HeldoutSplit } from "./heldout.ts";

/**
 * `splits`: heldout.json's `splits`, one row each, same names and values
 * (the selections as lists).
 *
 * @param splits heldout.json's `splits`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { heldoutTidy } from "./heldout_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = heldoutTidy([{ repeat: 0, fold: 1, fit_tasks: 8, heldout_tasks: 2, ok: true, spearman: 0.5,
 *   kendall_tau_b: 0.4, selected_fit: ["a"], selected_heldout: ["b"], topk_overlap: 0, topk_jaccard: 0,
 *   gain_predicted: 0.1, gain_realised: 0.05 }]);
 * deepEqual([t.rows, t.columns.map((c) => c.name).slice(0, 3), t.columns[7]!.values[0]], [1, ["repeat", "fold", "fit_tasks"], ["a"]]);
 * ```
 */
export function heldoutTidy(splits: readonly HeldoutSplit[]): TidyTable {
  return tidyFromRows("splits", {
    repeat: "i32",
    fold: "i32",
    fit_tasks: "i32",
    heldout_tasks: "i32",
    ok: "bool",
    spearman: "f64",
    kendall_tau_b: "f64",
    selected_fit: "str_list",
    selected_heldout: "str_list",
    topk_overlap: "f64",
    topk_jaccard: "f64",
    gain_predicted: "f64",
    gain_realised: "f64",
  }, splits);
}
