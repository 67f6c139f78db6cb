/**
 * The report's section of a `gate ledger-audit` audit.
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { ReportSection } from "../table/section.ts";
import { findingsSection } from "../validate/findings_section.ts";
import { ledgerAuditTables } from "./tables.ts";

/**
 * The "Audit: proposal ledger" section: the findings of the audit's
 * validation.json, the one file it reads.
 *
 * @param validation validation.json of `gate ledger-audit`.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { ledgerAuditSection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const s = ledgerAuditSection({ issues: [] }, "out/ledger");
 * deepEqual([s.kind, s.heading, s.files, s.items.length], ["audit", "Audit: proposal ledger", ["validation.json"], 1]);
 * ```
 */
export function ledgerAuditSection(
  validation: Pick<ValidationJson, "issues">,
  dir: string,
): ReportSection {
  return findingsSection("Audit: proposal ledger", validation, dir, ledgerAuditTables);
}
