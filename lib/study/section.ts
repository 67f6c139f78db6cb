/**
 * The report's section of a study (study.json).
 *
 * @module
 */
import { type ReportSection, sectionItems } from "../table/section.ts";
import { studyFigures } from "./figures.ts";
import type { StudyDocument } from "./document.ts";
import { studyTables } from "./tables.ts";

/**
 * The section "Study": the tables `gate study` writes (`studyTables`:
 * arms, comparisons, costs), each followed by its figure (a figure without
 * rows is left out).
 *
 * @param doc study.json.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { studySection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const cost = { attempts: 1, failed_attempts: 0, verifier_trials: 1, gpu_hours: 0, gpu_hours_reported: 0,
 *   tokens: 0, tokens_reported: 0, service_seconds: null };
 * const s = studySection({ format: "gatelab.study/v1",
 *   bootstrap: { draws: 10, seed: 1, resample: "tasks", resample_note: "", interval: "percentile",
 *     quantile_rule: "sorted[floor(q*(B-1))]", draw_order: "", prng: "xoshiro128**" },
 *   estimator: {}, comparisons: [], costs: { definitions: {}, arms: { M: cost }, total: cost },
 *   attempts: { attempts: 1, used: 1, violations: 0 }, issues: [],
 *   arms: { M: { planned: 1, observed: 1, successes: 1, estimate: 1, bounds: [1, 1], complete: true, label: "complete",
 *     train_seeds: [1], task_count: 1, slots: {}, attempts: { attempts: 1, used: 1, violations: 0, by_kind: {}, reasons: {} } } },
 *   generator: { tool: "gatelab", version: "0", command: "gate study s --out o" }, inputs: [] }, "out");
 * deepEqual([s.heading, s.files], ["Study", ["study.json"]]);
 * deepEqual(s.items.map((i) => "svg" in i ? i.name : "subheading" in i ? i.subheading : i.label),
 *   ["tab:study-arms", "study_arms", "tab:study-comparisons", "tab:study-costs"]);
 * ```
 */
export function studySection(doc: StudyDocument, dir: string): ReportSection {
  const items = sectionItems(studyTables(doc), studyFigures(doc), {
    "tab:study-arms": ["study_arms"],
    "tab:study-comparisons": ["study_comparisons"],
  });
  return { kind: "study", heading: "Study", items, dir, files: ["study.json"] };
}
