/**
 * The report's section of a study (study.json).
 *
 * @module
 */
import type { Figure } from "../table/figure.ts";
import type { ReportSection } from "../table/section.ts";
import type { Table } from "../table/table.ts";
import { studyFigures } from "./figures.ts";
import type { StudyDocument } from "./document.ts";
import { studyArmsFileTable, studyComparisonsFileTable } from "./tables.ts";

/**
 * The section "Study": the arms table and figure, then the comparisons
 * table and figure (a figure without rows is left out).
 *
 * @param doc study.json.
 * @param dir The output directory it was read from.
 * @returns The section.
 *
 * @example
 * ```ts
 * import { studySection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const s = studySection({ format: "gatelab.study/v1",
 *   bootstrap: { draws: 10, seed: 1, resample: "tasks", resample_note: "", interval: "percentile",
 *     quantile_rule: "sorted[floor(q*(B-1))]", draw_order: "", prng: "xoshiro128**" },
 *   estimator: {}, comparisons: [], costs: {}, attempts: { attempts: 1, used: 1, violations: 0 }, issues: [],
 *   arms: { M: { planned: 1, observed: 1, successes: 1, estimate: 1, bounds: [1, 1], complete: true, label: "complete",
 *     train_seeds: [1], task_count: 1, slots: {}, attempts: { attempts: 1, used: 1, violations: 0, by_kind: {}, reasons: {} } } },
 *   generator: { tool: "gatelab", version: "0", command: "gate study s --out o" }, inputs: [] }, "out");
 * deepEqual([s.heading, s.items.length, s.files], ["Study", 3, ["study.json"]]);
 * ```
 */
export function studySection(doc: StudyDocument, dir: string): ReportSection {
  const figures = new Map(studyFigures(doc).map((f) => [f.name, f]));
  const figure = (name: string): Figure[] => (figures.has(name) ? [figures.get(name)!] : []);
  const items: (Table | Figure)[] = [
    studyArmsFileTable(doc),
    ...figure("study_arms"),
    studyComparisonsFileTable(doc),
    ...figure("study_comparisons"),
  ];
  return { kind: "study", heading: "Study", items, dir, files: ["study.json"] };
}
