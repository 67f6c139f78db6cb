/**
 * The tables of a `gate firewall` audit in the report: its validation.json's
 * findings.
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { Table } from "../table/table.ts";
import { findingsTables } from "../validate/tables.ts";

/**
 * The result with a count per code, then every finding (code, file:line
 * and field, message) of the firewall's validation.json.
 *
 * @param validation validation.json of `gate firewall`.
 * @returns One table when nothing was found, else two.
 *
 * @example
 * ```ts
 * import { firewallTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const tables = firewallTables({ issues: [{ code: "title_leak", message: "holds a title", file: "c.jsonl", line: 2 }] });
 * deepEqual(tables.map((t) => t.rows.length), [2, 1]);
 * ```
 */
export function firewallTables(validation: Pick<ValidationJson, "issues">): Table[] {
  return findingsTables(validation);
}
