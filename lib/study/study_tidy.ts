/**
 * The tidy table of `gate study`: `comparisons`, one row per comparison
 * of study.json (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";

/** The fields of one comparison of study.json that the table reads. */
export interface StudyComparisonRow {
  readonly a: string;
  readonly b: string;
  readonly complete: boolean;
  readonly estimate: number | null;
  readonly bounds: readonly [number, number];
  readonly ci: readonly [number, number] | null;
  readonly label: string;
  readonly resample: string;
}

/**
 * `comparisons`: study.json's `comparisons` (a - b), the bounds and the
 * interval as two columns each.
 *
 * @param comparisons study.json's `comparisons`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { studyTidy } from "./study_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyTidy([{ a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0.02, 0.2],
 *   label: "M - B", resample: "tasks" }]);
 * deepEqual(t.columns.map((c) => c.values[0]), ["M", "B", "M - B", true, 0.1, 0.1, 0.1, 0.02, 0.2, "tasks"]);
 * ```
 */
export function studyTidy(comparisons: readonly StudyComparisonRow[]): TidyTable {
  return tidyFromRows(
    "comparisons",
    {
      a: "str",
      b: "str",
      label: "str",
      complete: "bool",
      estimate: "f64",
      bounds_low: "f64",
      bounds_high: "f64",
      ci_low: "f64",
      ci_high: "f64",
      resample: "str",
    },
    comparisons.map((c) => ({
      a: c.a,
      b: c.b,
      label: c.label,
      complete: c.complete,
      estimate: c.estimate,
      bounds_low: c.bounds[0],
      bounds_high: c.bounds[1],
      ci_low: c.ci?.[0],
      ci_high: c.ci?.[1],
      resample: c.resample,
    })),
  );
}
