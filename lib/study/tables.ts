/**
 * Study tables as {@linkcode Table} models for Markdown and LaTeX, numbers
 * as lib/table/format.ts prints them: from the in-memory analysis the
 * arms, comparisons and costs that `gate study` writes into
 * study_tables.md and .tex ({@linkcode studyTables}); from study.json the
 * arms and comparisons the report shows. An incomplete arm or comparison
 * shows its bounds and the word "incomplete" in place of the estimate and
 * interval.
 *
 * @module
 */
import type { StudyAnalysis } from "./analyze.ts";
import type { StudyDocument } from "./document.ts";
import {
  DECIMALS,
  formatCount,
  formatInterval,
  formatNumber,
  formatRate,
  formatWithInterval,
  intervalHeader,
} from "../table/format.ts";
import type { Table } from "../table/table.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Arm = StudyDocument["arms"][string];

const DIGITS = DECIMALS.rate;

/**
 * Table of arms: planned, resolved, successes, estimate and bounds.
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { studyArmsTable } from "./tables.ts";
 * import { analyzeStudy } from "./analyze.ts";
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
 * import { analyzeStudy, loadStudyDir, valueOrThrow } from "../mod.ts";
 * import { studyComparisonsTable } from "./tables.ts";
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
 * import { analyzeStudy, loadStudyDir, valueOrThrow } from "../mod.ts";
 * import { studyCostsTable } from "./tables.ts";
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

/**
 * Study arms: planned, observed and resolved slots, estimate and bounds.
 *
 * @param study Parsed study.json.
 * @returns One row per arm.
 *
 * @example
 * ```ts
 * import { studyArmsFileTable } from "./tables.ts";
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
 * import { studyComparisonsFileTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyComparisonsFileTable({ bootstrap: { draws: 10, seed: 1, resample: "tasks" },
 *   comparisons: [{ a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0, 0.2] }] });
 * deepEqual(t.rows, [["M − B", "0.100 [0.000, 0.200]", "[0.100, 0.100]", "yes"]]);
 * ```
 */
export function studyComparisonsFileTable(study: {
  readonly bootstrap: Pick<StudyDocument["bootstrap"], "draws" | "seed" | "resample">;
  readonly comparisons: readonly Pick<
    StudyDocument["comparisons"][number],
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

/**
 * The tables `gate study` writes: arms, comparisons and costs, in that order.
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The three tables.
 * @example The demo study
 * ```ts
 * import { analyzeStudy, loadStudyDir, studyTables, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * const plan = { ...input.plan, bootstrap: { draws: 20, seed: 1 } };
 * const tables = studyTables(valueOrThrow(analyzeStudy({ ...input, plan }), "analysis"));
 * deepEqual(tables.map((t) => t.label), ["tab:study-arms", "tab:study-comparisons", "tab:study-costs"]);
 * ```
 */
export function studyTables(analysis: StudyAnalysis): Table[] {
  return [studyArmsTable(analysis), studyComparisonsTable(analysis), studyCostsTable(analysis)];
}
