/**
 * The report's section of a `gate firewall` audit.
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { ReportSection } from "../table/section.ts";
import { findingsSection } from "../validate/findings_section.ts";
import { firewallTables } from "./tables.ts";

/**
 * The "Audit: gold firewall" section: the findings of the audit's
 * validation.json, the one file it reads.
 *
 * @param validation validation.json of `gate firewall`.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { firewallSection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const s = firewallSection({ issues: [] }, "out/firewall");
 * deepEqual([s.kind, s.heading, s.files, s.items.length], ["audit", "Audit: gold firewall", ["validation.json"], 1]);
 * ```
 */
export function firewallSection(
  validation: Pick<ValidationJson, "issues">,
  dir: string,
): ReportSection {
  return findingsSection("Audit: gold firewall", validation, dir, firewallTables);
}
