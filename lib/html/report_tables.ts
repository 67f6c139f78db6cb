/**
 * The tables of the HTML report, built on the shared {@linkcode Table}
 * model so they can also be rendered as Markdown or LaTeX.
 *
 * @module
 */
import type { Table } from "../report/table.ts";
import {
  formatCount,
  formatInterval,
  formatRate,
  formatWithInterval,
  intervalHeader,
} from "../report/format.ts";
import type { StudyJson } from "../contract/outputs/mod.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Arm = StudyJson["arms"][string];

/**
 * Study arms: planned, observed and resolved slots, estimate and bounds.
 *
 * @param study Parsed study.json.
 * @returns One row per arm.
 *
 * @example
 * ```ts
 * import { studyArmsFileTable } from "./report_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyArmsFileTable({
 *   arms: { M: { planned: 4, observed: 3, successes: 1, estimate: null, bounds: [0.25, 0.5], complete: false } } });
 * deepEqual(t.rows, [["M", "4", "3", "1", "incomplete", "[0.250, 0.500]", "no"]]);
 * ```
 */
export function studyArmsFileTable(study: {
  readonly arms: Readonly<
    Record<
      string,
      Pick<Arm, "planned" | "observed" | "successes" | "estimate" | "bounds" | "complete">
    >
  >;
}): Table {
  return {
    caption: "Study arms",
    label: "tab:study-arms",
    columns: [
      { label: "arm" },
      { label: "planned", align: "right" },
      { label: "observed", align: "right" },
      { label: "successes", align: "right" },
      { label: "estimate", align: "right" },
      { label: "bounds", align: "right" },
      { label: "complete" },
    ],
    rows: Object.entries(study.arms).map(([arm, a]) => [
      arm,
      formatCount(a.planned),
      formatCount(a.observed),
      formatCount(a.successes),
      a.estimate === null ? "incomplete" : formatRate(a.estimate),
      formatInterval(a.bounds),
      a.complete ? "yes" : "no",
    ]),
    notes: [
      "Bounds: the nested mean with unresolved slots as failures, then as successes; " +
      "[S/H, (S+H-J)/H] (S successes, J observed, H planned slots) when reps are balanced.",
    ],
  };
}

/**
 * Study comparisons a − b: estimate, percentile interval and bounds;
 * incomplete comparisons say so and show bounds only.
 *
 * @param study Parsed study.json.
 * @returns One row per comparison.
 *
 * @example
 * ```ts
 * import { studyComparisonsFileTable } from "./report_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyComparisonsFileTable({ bootstrap: { draws: 10, seed: 1, resample: "tasks" },
 *   comparisons: [{ a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0, 0.2] }] });
 * deepEqual(t.rows, [["M − B", "0.100 [0.000, 0.200]", "[0.100, 0.100]", "yes"]]);
 * ```
 */
export function studyComparisonsFileTable(study: {
  readonly bootstrap: Pick<StudyJson["bootstrap"], "draws" | "seed" | "resample">;
  readonly comparisons: readonly Pick<
    StudyJson["comparisons"][number],
    "a" | "b" | "complete" | "estimate" | "ci" | "bounds"
  >[];
}): Table {
  return {
    caption: "Study comparisons",
    label: "tab:study-comparisons",
    columns: [
      { label: "comparison" },
      { label: intervalHeader("difference", "bootstrap, percentile"), align: "right" },
      { label: "bounds", align: "right" },
      { label: "complete" },
    ],
    rows: study.comparisons.map((c) => [
      `${c.a} − ${c.b}`,
      c.complete && c.estimate !== null ? formatWithInterval(c.estimate, c.ci) : "incomplete",
      formatInterval(c.bounds),
      c.complete ? "yes" : "no",
    ]),
    notes: [
      `Percentile bootstrap (${study.bootstrap.draws} draws, seed ${study.bootstrap.seed}, resampling ${study.bootstrap.resample}); ends are sorted draws at index floor(q(B-1)).`,
    ],
  };
}
