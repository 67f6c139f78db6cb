/**
 * The tidy table of `gate ladder`: `blocks`, one row per block of
 * ladder_result.json (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { LadderBlock } from "./run_ladder.ts";

/**
 * `blocks`: ladder_result.json's `blocks`, the same names and values
 * (cumulative counts and the two e-processes after each block).
 *
 * @param blocks ladder_result.json's `blocks`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { ladderTidy } from "./ladder_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = ladderTidy([{ block: 1, W: 3, L: 1, E: 0, INFRA: 0, units: 4, e_accept: 1.5, e_reject: 0.4 }]);
 * deepEqual(t.columns.map((c) => c.values[0]), [1, 3, 1, 0, 0, 4, 1.5, 0.4]);
 * ```
 */
export function ladderTidy(blocks: readonly LadderBlock[]): TidyTable {
  return tidyFromRows("blocks", {
    block: "i32",
    W: "i32",
    L: "i32",
    E: "i32",
    INFRA: "i32",
    units: "i32",
    e_accept: "f64",
    e_reject: "f64",
  }, blocks);
}
