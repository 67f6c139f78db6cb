/**
 * The tidy table of `gate ledger-audit`: `ledger`, one row per audited
 * ledger line (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { LedgerLine } from "./schema.ts";

/**
 * `ledger`: the audited ledger (clean, else nothing is written), one row
 * per line in file order: `line` (1-based) and the contract's fields
 * (docs/FORMAT.md, proposal ledger); a field the line lacks is missing,
 * fields outside the contract stay in the ledger.
 *
 * @param entries The parsed lines.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { ledgerTidy } from "./ledger_audit_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = ledgerTidy([{ line: 1, candidate_id: "a.v1", operation: "ADD", target_chunk_id: null,
 *   proposal_checkpoint: "c", stage: "online", replacement_family_id: null, validation_result: "selected",
 *   estimated_effect: 0.1, contribution_rank: 1 }]);
 * deepEqual(t.columns.slice(0, 3).map((c) => c.values[0]), [1, "a.v1", "ADD"]);
 * ```
 */
export function ledgerTidy(entries: readonly LedgerLine[]): TidyTable {
  return tidyFromRows("ledger", {
    line: "i32",
    candidate_id: "str",
    operation: "str",
    role: "str",
    target_chunk_id: "str",
    replacement_family_id: "str",
    source_card_ids: "str_list",
    failure_mechanism: "str",
    proposal_checkpoint: "str",
    stage: "str",
    consolidation_cluster_id: "str",
    validation_result: "str",
    estimated_effect: "f64",
    contribution_rank: "i32",
    notes: "str",
  }, entries);
}
