/**
 * The report section of a held-out check (heldout.json): the summary over
 * splits and the gain figure, then, with a later gate, the across-gate
 * table and the rank-agreement figure.
 *
 * @module
 */
import { type ReportSection, sectionItems } from "../table/section.ts";
import type { HeldoutDocument } from "./heldout.ts";
import { heldoutTables } from "./tables.ts";
import { heldoutFigures } from "./figures.ts";

/**
 * The "Held-out checks" section of the report for one heldout.json.
 *
 * @param doc A parsed heldout.json.
 * @param dir The output directory it was read from (named in the provenance).
 * @returns The section: tables and figures in report order.
 *
 * @example
 * ```ts
 * import { heldoutDocument, heldoutSection } from "./mod.ts";
 * import { HeldoutSchema } from "../contract/outputs/mod.ts";
 * import { datasetOrThrow, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const written = heldoutDocument({
 *   command: "gate heldout", dataset: gateA, inputs: [],
 *   plan: { format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward" },
 *   planFile: { path: "plan.json", bytes: new Uint8Array() },
 * });
 * // As the report reads it: heldout.json parsed by its schema.
 * const section = heldoutSection(HeldoutSchema.parse(JSON.parse(JSON.stringify(written))), "out/heldout");
 * deepEqual([section.kind, section.heading, section.files], ["heldout", "Held-out checks", ["heldout.json"]]);
 * deepEqual(section.items.map((i) => "svg" in i ? i.name : "table"), ["table", "heldout_gain"]);
 * ```
 */
export function heldoutSection(doc: HeldoutDocument, dir: string): ReportSection {
  // heldoutTables and heldoutFigures, the gain figure behind the summary.
  const items = sectionItems(heldoutTables(doc), heldoutFigures(doc), {
    "tab:heldout": ["heldout_gain"],
  });
  return { kind: "heldout", heading: "Held-out checks", items, dir, files: ["heldout.json"] };
}
