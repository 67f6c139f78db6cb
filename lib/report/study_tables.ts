/**
 * Study tables (arms, comparisons, costs) as {@linkcode Table} models for
 * Markdown and LaTeX, numbers as lib/report/format.ts prints them; an
 * incomplete arm or comparison shows its bounds and the word "incomplete"
 * in place of the estimate and interval.
 *
 * @module
 */
import type { StudyAnalysis } from "../study/analyze.ts";
import {
  DECIMALS,
  formatCount,
  formatInterval,
  formatNumber,
  formatRate,
  formatWithInterval,
  intervalHeader,
} from "./format.ts";
import type { Table } from "./table.ts";

const DIGITS = DECIMALS.rate;

/**
 * Table of arms: planned, resolved, successes, estimate and bounds.
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { studyArmsTable } from "./study_tables.ts";
 * import { analyzeStudy } from "../study/analyze.ts";
 * import { deepEqual } from "node:assert/strict";
 * const slot = { arm: "M", train_seed: 1, task_id: "t", rep: 0 };
 * const r = analyzeStudy({ plan: { format: "gatelab.studyplan/v1", comparisons: [], bootstrap: { draws: 10, seed: 1 } },
 *   slots: [{ value: slot, line: 1 }], attempts: [{ value: { ...slot, attempt: 0, kind: "ambiguous" }, line: 1 }] });
 * deepEqual(r.ok && studyArmsTable(r.value).rows, [["M", "1", "0", "0", "incomplete", "[0.000, 1.000]"]]);
 * ```
 */
export function studyArmsTable(analysis: StudyAnalysis): Table {
  return {
    caption: "Resolved rate per arm",
    label: "tab:study-arms",
    columns: [
      { label: "Arm" },
      { label: "Planned H", align: "right" },
      { label: "Resolved J", align: "right" },
      { label: "Successes S", align: "right" },
      { label: "Estimate", align: "right" },
      { label: "Bounds (nested)", align: "right" },
    ],
    rows: analysis.arms.map((arm) => [
      arm.arm,
      formatCount(arm.planned),
      formatCount(arm.observed),
      formatCount(arm.successes),
      arm.complete ? formatRate(arm.estimate) : "incomplete",
      formatInterval(arm.bounds, DIGITS),
    ]),
    notes: [
      "Estimate: mean over training seeds of the mean over tasks of the mean over reps; " +
      "none when a slot is unresolved (incomplete).",
    ],
  };
}

/**
 * Table of comparisons a - b: estimate, 95% percentile interval, bounds
 * and status; incomplete comparisons show only their bounds.
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The table.
 * @example The demo study, 200 bootstrap draws
 * ```ts
 * import { analyzeStudy, loadStudyDir, studyComparisonsTable, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * const plan = { ...input.plan, bootstrap: { draws: 200, seed: 1 } };
 * const table = studyComparisonsTable(valueOrThrow(analyzeStudy({ ...input, plan }), "analysis"));
 * deepEqual(table.rows, [
 *   ["M − B", "0.112 [0.027, 0.200]", "[0.112, 0.112]", "seeds+tasks", "complete"],
 *   ["M − O", "incomplete", "[0.081, 0.087]", "seeds+tasks", "incomplete"],
 * ]);
 * ```
 */
export function studyComparisonsTable(analysis: StudyAnalysis): Table {
  return {
    caption: "Paired differences between arms",
    label: "tab:study-comparisons",
    columns: [
      { label: "Comparison" },
      {
        label: intervalHeader("Difference", "bootstrap, percentile"),
        align: "right",
      },
      { label: "Bounds", align: "right" },
      { label: "Resample" },
      { label: "Status" },
    ],
    rows: analysis.comparisons.map((c) => [
      `${c.a} − ${c.b}`,
      c.complete ? formatWithInterval(c.estimate, c.ci, DIGITS) : "incomplete",
      formatInterval(c.bounds, DIGITS),
      c.resample,
      c.complete ? "complete" : "incomplete",
    ]),
    notes: [
      `Percentile intervals from ${analysis.draws} bootstrap draws, seed ${analysis.seed}; ` +
      "ends are sorted draws at zero-based index floor(q(B-1)), q = 0.025, 0.975.",
      "Each draw resamples training seeds and tasks with replacement, the same indices for both " +
      "arms, all reps of a sampled cell; arms with one seed resample tasks only.",
      "Bounds subtract opposite ends of the arms' bounds. Incomplete: an unresolved slot on " +
      "either side, so no estimate and no interval.",
    ],
  };
}

/**
 * Table of costs per arm and in total.
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The table.
 * @example The demo study
 * ```ts
 * import { analyzeStudy, loadStudyDir, studyCostsTable, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * const plan = { ...input.plan, bootstrap: { draws: 20, seed: 1 } };
 * const table = studyCostsTable(valueOrThrow(analyzeStudy({ ...input, plan }), "analysis"));
 * deepEqual(table.rows.at(-1), ["total", "1453", "13", "1441", "331.13", "71868299"]);
 * ```
 */
export function studyCostsTable(analysis: StudyAnalysis): Table {
  const { arms, total } = analysis.costs;
  const hasService = [...arms, total].some((c) => c.service_seconds !== null);
  const row = (name: string, c: typeof total) => [
    name,
    formatCount(c.attempts),
    formatCount(c.failed_attempts),
    formatCount(c.verifier_trials),
    formatNumber(c.gpu_hours, DECIMALS.cost),
    formatCount(c.tokens),
    ...(hasService
      ? [formatNumber(c.service_seconds?.mean, 1), formatNumber(c.service_seconds?.p95, 1)]
      : []),
  ];
  return {
    caption: "Cost of the study",
    label: "tab:study-costs",
    columns: [
      { label: "Arm" },
      { label: "Attempts", align: "right" },
      { label: "Failed", align: "right" },
      { label: "Verifier trials", align: "right" },
      { label: "GPU-hours", align: "right" },
      { label: "Tokens", align: "right" },
      ...(hasService
        ? [
          { label: "Mean service (s)", align: "right" as const },
          { label: "p95 service (s)", align: "right" as const },
        ]
        : []),
    ],
    rows: [...arms.map((c) => row(c.arm, c)), row("total", total)],
    notes: [
      "Every attempt as made, including retry-policy violations. Failed: infrastructure " +
      "failures (verifier_infra, generation_infra). Verifier trials: report and verifier_infra " +
      "attempts." +
      (hasService ? " p95: sorted element floor(0.95(N-1)), zero-based." : ""),
    ],
  };
}
