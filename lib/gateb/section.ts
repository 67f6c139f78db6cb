/**
 * The report's section of a Gate B comparison (comparison.json).
 *
 * @module
 */
import type { ReportSection } from "../table/section.ts";
import type { ComparisonDocument } from "./comparison_types.ts";
import { comparisonTables } from "./tables.ts";

/**
 * The section "Gate B: equipped vs bare": the metrics and behaviour tables.
 *
 * @param doc comparison.json.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { comparisonSection } from "./section.ts";
 * import { compareRunDirs } from "./compare_dirs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await compareRunDirs("data/demo/gate-b/bare-test", "data/demo/gate-b/equipped-test", { draws: 0 });
 * if (!r.ok) throw new Error("cannot compare the demo's Gate B runs");
 * const s = comparisonSection(r.value, "out");
 * deepEqual([s.kind, s.heading, s.items.length, s.files], ["gate_b", "Gate B: equipped vs bare", 2, ["comparison.json"]]);
 * ```
 */
export function comparisonSection(doc: ComparisonDocument, dir: string): ReportSection {
  return {
    kind: "gate_b",
    heading: "Gate B: equipped vs bare",
    items: comparisonTables(doc),
    dir,
    files: ["comparison.json"],
  };
}
