/**
 * The report section of a command whose findings are its validation.json:
 * the audits (`gate firewall`, `gate ledger-audit`).
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { ReportSection } from "../table/section.ts";
import type { Table } from "../table/table.ts";
import { findingsTables } from "./tables.ts";

/**
 * The report section of a command whose findings are its validation.json
 * (the audits): {@linkcode findingsTables} under `heading`.
 *
 * @param heading The section's heading, e.g. "Audit: gold firewall".
 * @param validation The parsed validation.json.
 * @param dir The output directory it was read from.
 * @returns An `audit` section showing validation.json.
 *
 * @example
 * ```ts
 * import { findingsSection } from "./findings_section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const s = findingsSection("Audit: x", { issues: [] }, "out");
 * deepEqual([s.kind, s.heading, s.files, s.items.length], ["audit", "Audit: x", ["validation.json"], 1]);
 * ```
 */
export function findingsSection(
  heading: string,
  validation: Pick<ValidationJson, "issues">,
  dir: string,
  tables: (validation: Pick<ValidationJson, "issues">) => Table[] = findingsTables,
): ReportSection {
  return { kind: "audit", heading, items: tables(validation), dir, files: ["validation.json"] };
}
