/**
 * The block table of a ladder gate: cumulative counts and both e-values
 * after each block, the exit in the caption.
 *
 * @module
 */
import { formatNumber, type Table } from "../table/table.ts";
import type { LadderResultDocument } from "./document.ts";

/**
 * @param doc ladder_result.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { ladderTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { task_type: "count", exit: "accept", exit_block: 0, alpha: 0.05, threshold: 20, prefill: null,
 *   blocks: [{ block: 0, W: 10, L: 0, E: 2, INFRA: 1, units: 13, e_accept: 360.7932993602132, e_reject: 0.0582631397867793 }] };
 * // deno-lint-ignore no-explicit-any
 * deepEqual(ladderTable(doc as any).rows[0], ["0", "10", "0", "2", "1", "13", "360.79", "0.06"]);
 * ```
 */
export function ladderTable(doc: LadderResultDocument): Table {
  return {
    caption: `Ladder gate ${doc.task_type}: exit ${doc.exit ?? "none"}${
      doc.exit_block === null ? "" : ` after block ${doc.exit_block}`
    } (alpha ${doc.alpha}, threshold ${formatNumber(doc.threshold, 2)})`,
    label: `tab:ladder-${doc.task_type}`,
    columns: [
      { label: "block", align: "right" },
      { label: "W", align: "right" },
      { label: "L", align: "right" },
      { label: "E", align: "right" },
      { label: "INFRA", align: "right" },
      { label: "units", align: "right" },
      { label: "E accept", align: "right" },
      { label: "E reject", align: "right" },
    ],
    rows: doc.blocks.map((b) => [
      String(b.block),
      String(b.W),
      String(b.L),
      String(b.E),
      String(b.INFRA),
      String(b.units),
      formatNumber(b.e_accept, 2),
      formatNumber(b.e_reject, 2),
    ]),
    notes: [
      "Counts are cumulative. E accept: KT mixture over theta >= 1/2 against P(W | discordant) <= 1/2; " +
      "E reject: its mirror.",
      ...(doc.prefill === null ? [] : [
        `Baseline prefill: ${doc.prefill.served} of ${doc.prefill.base_units} base-arm units served, ` +
        `${doc.prefill.saved} base-arm inferences saved.`,
      ]),
    ],
  };
}

/**
 * Every table `gate ladder` writes (ladder.md/.tex): the block table.
 *
 * @param doc ladder_result.json.
 * @returns One table.
 *
 * @example
 * ```ts
 * import { ladderTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { task_type: "count", exit: null, exit_block: null, alpha: 0.05, threshold: 20, prefill: null, blocks: [] };
 * // deno-lint-ignore no-explicit-any
 * deepEqual(ladderTables(doc as any).map((t) => t.label), ["tab:ladder-count"]);
 * ```
 */
export function ladderTables(doc: LadderResultDocument): Table[] {
  return [ladderTable(doc)];
}
