/**
 * The report's card of a ladder gate (ladder_result.json): its decision,
 * counts and cache savings in one table, then the block table and the
 * e-value figure the command writes.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { formatCount, formatNumber } from "../table/format.ts";
import { type ReportSection, sectionItems } from "../table/section.ts";
import { ladderTables } from "./tables.ts";
import { ladderFigures } from "./figures.ts";
import type { LadderResultDocument } from "./document.ts";

/** The first 16 hex digits of a sha256 (a full hash would widen the table past a narrow page). */
const shortHash = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 16)}…` : hash);

/**
 * The decision of a ladder gate in one table: exit and block, cumulative
 * W/L/E/INFRA at the exit, the rule, the arms and the baseline-cache
 * savings.
 *
 * @param doc Parsed ladder_result.json.
 * @returns A two-column table.
 *
 * @example
 * ```ts
 * import { ladderDecisionTable } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = ladderDecisionTable({ format: "gatelab.ladder-result/v1", task_type: "counting", alpha: 0.05,
 *   threshold: 20, n_max: 64, block_size: 8, infra_max_rate: 0.25, prompts_version: "p", base_skill_sha256: "b",
 *   cand_skill_sha256: "c", exit: "accept", exit_block: 1, counts: { W: 7, L: 0, E: 8, INFRA: 1, units: 16 },
 *   blocks: [], blocks_after_exit: 0, recorded_decision: "accept", prefill: null, conventions: {}, inputs: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate ladder l --out o" } });
 * deepEqual(t.rows.slice(0, 2), [["exit", "accept after block 1"], ["W / L / E / INFRA (units)", "7 / 0 / 8 / 1 (16)"]]);
 * deepEqual(t.rows.at(-1), ["prefilled baseline cache", "no baseline given"]);
 * ```
 */
export function ladderDecisionTable(doc: LadderResultDocument): Table {
  const c = doc.counts;
  const p = doc.prefill;
  // Short cells (table cells do not wrap in the report); one fact per row.
  return {
    caption: `Ladder gate ${doc.task_type}: decision`,
    columns: [{ label: "item" }, { label: "value" }],
    rows: [
      ["exit", doc.exit === null ? "none" : `${doc.exit} after block ${doc.exit_block}`],
      [
        "W / L / E / INFRA (units)",
        `${formatCount(c.W)} / ${formatCount(c.L)} / ${formatCount(c.E)} / ${
          formatCount(c.INFRA)
        } (${formatCount(c.units)})`,
      ],
      ["recorded decision", doc.recorded_decision ?? "none"],
      ["alpha (threshold)", `${formatNumber(doc.alpha, 2)} (${formatNumber(doc.threshold, 2)})`],
      ["block size", formatCount(doc.block_size)],
      ["unit budget", formatCount(doc.n_max)],
      ["INFRA rate limit", formatNumber(doc.infra_max_rate, 2)],
      ["blocks after the exit (ignored)", formatCount(doc.blocks_after_exit)],
      ["prompts version", doc.prompts_version],
      ["base skill sha256", shortHash(doc.base_skill_sha256)],
      ["candidate skill sha256", shortHash(doc.cand_skill_sha256)],
      ...(p === null ? [["prefilled baseline cache", "no baseline given"]] : [
        [
          "base-arm units served from cache",
          `${formatCount(p.served)} of ${formatCount(p.base_units)}`,
        ],
        ["base-arm inferences saved", formatCount(p.saved)],
        ["cache entries", formatCount(p.cache_entries)],
        ["INFRA baseline units left out", formatCount(p.baseline_infra)],
      ]),
    ],
    notes: [
      "Counts are cumulative up to the exit. Exits are checked after each block in the order " +
      "infra_abort, accept, reject, budget_exhausted. Cache savings: what a cache prefilled " +
      "from the baseline run (key task_type, base skill, prompts version, unit) would have served " +
      "of the base arm up to the exit. Skill hashes: the first 16 hex digits (all 64 in " +
      "ladder_result.json).",
    ],
  };
}

/**
 * The card of a ladder gate: decision, block table, e-process figure.
 *
 * @param doc ladder_result.json.
 * @param dir The output directory it was read from.
 * @returns The section, headed by the task type and its exit.
 *
 * @example
 * ```ts
 * import { ladderSection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const section = ladderSection({ format: "gatelab.ladder-result/v1", task_type: "counting", alpha: 0.05,
 *   threshold: 20, n_max: 64, block_size: 8, infra_max_rate: 0.25, prompts_version: "p", base_skill_sha256: "b",
 *   cand_skill_sha256: "c", exit: "accept", exit_block: 0, counts: { W: 5, L: 0, E: 2, INFRA: 1, units: 8 },
 *   blocks: [{ block: 0, W: 5, L: 0, E: 2, INFRA: 1, units: 8, e_accept: 21, e_reject: 0.1 }],
 *   blocks_after_exit: 0, recorded_decision: "accept", prefill: null, conventions: {}, inputs: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate ladder l --out o" } }, "out");
 * deepEqual(section.heading, "Ladder gate counting: accept after block 0");
 * deepEqual(section.items.map((i) => "svg" in i ? i.name : "caption" in i ? i.label ?? i.caption : i.subheading),
 *   ["Ladder gate counting: decision", "tab:ladder-counting", "ladder_counting"]);
 * ```
 */
export function ladderSection(doc: LadderResultDocument, dir: string): ReportSection {
  return {
    kind: "ladder",
    heading: `Ladder gate ${doc.task_type}: ${doc.exit ?? "no exit"}${
      doc.exit_block === null ? "" : ` after block ${doc.exit_block}`
    }`,
    // The decision (the report's alone), then ladderTables and ladderFigures.
    items: [ladderDecisionTable(doc), ...sectionItems(ladderTables(doc), ladderFigures(doc))],
    dir,
    files: ["ladder_result.json"],
  };
}
