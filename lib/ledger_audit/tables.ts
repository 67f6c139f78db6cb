/**
 * The tables of a `gate ledger-audit` audit in the report: its validation.json's
 * findings.
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { Table } from "../table/table.ts";
import { findingsTables } from "../validate/tables.ts";

/**
 * The result with a count per code, then every finding (code, file:line
 * and field, message) of the ledger audit's validation.json.
 *
 * @param validation validation.json of `gate ledger-audit`.
 * @returns One table when nothing was found, else two.
 *
 * @example
 * ```ts
 * import { ledgerAuditTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const tables = ledgerAuditTables({ issues: [{ code: "reproposed_rejected", message: "re-proposes a.v1", file: "ledger.jsonl", line: 4 }] });
 * deepEqual(tables.map((t) => t.rows.length), [2, 1]);
 * ```
 */
export function ledgerAuditTables(validation: Pick<ValidationJson, "issues">): Table[] {
  return findingsTables(validation);
}
