/**
 * The report section of a power plan (power.json): its three tables.
 *
 * @module
 */
import type { ReportSection } from "../table/section.ts";
import type { PowerPlan } from "./power.ts";
import { powerTables } from "./tables.ts";

/**
 * The "Power plan" section of the report for one power.json.
 *
 * @param doc A parsed power.json (or a plan of {@linkcode planPower}).
 * @param dir The output directory it was read from (named in the provenance).
 * @returns The section: the plan, MDE by tasks, MDE by columns.
 *
 * @example
 * ```ts
 * import { powerSection } from "./section.ts";
 * import { planPower } from "./power.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = planPower({ tasks: 200, columns: 3, pPresent: 0.5, residSd: 0.1 }, { sims: 20, seed: 1 });
 * const section = powerSection(plan, "out/power");
 * deepEqual([section.heading, section.items.length, section.files], ["Power plan", 3, ["power.json"]]);
 * ```
 */
export function powerSection(doc: PowerPlan, dir: string): ReportSection {
  return {
    kind: "power",
    heading: "Power plan",
    items: powerTables(doc),
    dir,
    files: ["power.json"],
  };
}
