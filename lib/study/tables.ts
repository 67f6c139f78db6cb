/**
 * Study tables as {@linkcode Table} models for Markdown and LaTeX, numbers
 * as lib/table/format.ts prints them: the arms, comparisons and costs of
 * study.json ({@linkcode studyTables}), the list `gate study` writes into
 * study_tables.md and .tex, the report's study section shows and the
 * notebooks show (they pass the in-memory analysis, read as study.json
 * holds it). An incomplete arm or comparison shows its bounds and the word
 * "incomplete" in place of the estimate and interval.
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
/** @ignore */
type Comparison = StudyDocument["comparisons"][number];
/** @ignore */
type Cost = StudyDocument["costs"]["total"];

/** What {@linkcode studyTables} reads of study.json. */
export interface StudyTablesInput {
  /** The bootstrap's draws and seed. */
  readonly bootstrap: Pick<StudyDocument["bootstrap"], "draws" | "seed">;
  /** Each arm's slot counts, estimate and bounds, by name in report order. */
  readonly arms: Readonly<
    Record<
      string,
      Pick<Arm, "planned" | "observed" | "successes" | "estimate" | "bounds" | "complete">
    >
  >;
  /** Each comparison's estimate, interval, bounds and resample. */
  readonly comparisons: readonly Pick<
    Comparison,
    "a" | "b" | "complete" | "estimate" | "ci" | "bounds" | "resample"
  >[];
  /** The costs per arm (by name, in report order) and in total. */
  readonly costs: {
    readonly arms: Readonly<Record<string, StudyCostInput>>;
    readonly total: StudyCostInput;
  };
}

/** What {@linkcode studyCostsTable} reads of one arm's costs in study.json. */
export type StudyCostInput = Pick<
  Cost,
  "attempts" | "failed_attempts" | "verifier_trials" | "gpu_hours" | "tokens" | "service_seconds"
>;

const DIGITS = DECIMALS.rate;

/**
 * Table of arms: planned, resolved, successes, estimate and bounds.
 *
 * @param study study.json's arms.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { studyArmsTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyArmsTable({
 *   arms: { M: { planned: 1, observed: 0, successes: 0, estimate: null, bounds: [0, 1], complete: false } } });
 * deepEqual(t.rows, [["M", "1", "0", "0", "incomplete", "[0.000, 1.000]"]]);
 * ```
 */
export function studyArmsTable(study: Pick<StudyTablesInput, "arms">): Table {
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
    rows: Object.entries(study.arms).map(([arm, a]) => [
      arm,
      formatCount(a.planned),
      formatCount(a.observed),
      formatCount(a.successes),
      a.complete ? formatRate(a.estimate) : "incomplete",
      formatInterval(a.bounds, DIGITS),
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
 * @param study study.json's bootstrap (draws, seed) and comparisons.
 * @returns The table.
 * @example
 * ```ts
 * import { studyComparisonsTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = studyComparisonsTable({ bootstrap: { draws: 10, seed: 1 }, comparisons: [
 *   { a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0, 0.2], resample: "tasks" }] });
 * deepEqual(t.rows, [["M − B", "0.100 [0.000, 0.200]", "[0.100, 0.100]", "tasks", "complete"]]);
 * ```
 */
export function studyComparisonsTable(
  study: Pick<StudyTablesInput, "bootstrap" | "comparisons">,
): Table {
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
    rows: study.comparisons.map((c) => [
      `${c.a} − ${c.b}`,
      c.complete ? formatWithInterval(c.estimate, c.ci, DIGITS) : "incomplete",
      formatInterval(c.bounds, DIGITS),
      c.resample,
      c.complete ? "complete" : "incomplete",
    ]),
    notes: [
      `Percentile intervals from ${study.bootstrap.draws} bootstrap draws, seed ${study.bootstrap.seed}; ` +
      "ends are sorted draws at zero-based index floor(q(B-1)), q = 0.025, 0.975.",
      "Each draw resamples training seeds and tasks with replacement, the same indices for both " +
      "arms, all reps of a sampled cell; arms with one seed resample tasks only.",
      "Bounds subtract opposite ends of the arms' bounds. Incomplete: an unresolved slot on " +
      "either side, so no estimate and no interval.",
    ],
  };
}

/**
 * Table of costs per arm and in total; the service-time columns only when
 * some attempt has a service time.
 *
 * @param study study.json's costs.
 * @returns The table.
 * @example
 * ```ts
 * import { studyCostsTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const cost = { attempts: 3, failed_attempts: 1, verifier_trials: 2, gpu_hours: 0.5, tokens: 40,
 *   service_seconds: null };
 * const table = studyCostsTable({ costs: { arms: { M: cost }, total: cost } });
 * deepEqual(table.rows, [["M", "3", "1", "2", "0.50", "40"], ["total", "3", "1", "2", "0.50", "40"]]);
 * ```
 */
export function studyCostsTable(study: Pick<StudyTablesInput, "costs">): Table {
  const { arms, total } = study.costs;
  const hasService = [...Object.values(arms), total].some((c) => c.service_seconds !== null);
  const row = (name: string, c: StudyCostInput) => [
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
    rows: [...Object.entries(arms).map(([arm, c]) => row(arm, c)), row("total", total)],
    notes: [
      "Every attempt as made, including retry-policy violations. Failed: infrastructure " +
      "failures (verifier_infra, generation_infra). Verifier trials: report and verifier_infra " +
      "attempts." +
      (hasService ? " p95: sorted element floor(0.95(N-1)), zero-based." : ""),
    ],
  };
}

/**
 * The in-memory analysis as study.json holds what the tables read: arms
 * and costs keyed by arm in the analysis's order, the bootstrap's draws
 * and seed (the same fields `studyDocument` writes).
 *
 * @param analysis Result of `analyzeStudy`.
 * @returns The tables' input.
 *
 * @example
 * ```ts
 * import { studyTablesInput } from "./tables.ts";
 * import { analyzeStudy } from "./analyze.ts";
 * import { deepEqual } from "node:assert/strict";
 * const slot = { arm: "M", train_seed: 1, task_id: "t", rep: 0 };
 * const r = analyzeStudy({ plan: { format: "gatelab.studyplan/v1", comparisons: [], bootstrap: { draws: 10, seed: 1 } },
 *   slots: [{ value: slot, line: 1 }], attempts: [{ value: { ...slot, attempt: 0, kind: "ambiguous" }, line: 1 }] });
 * const input = r.ok ? studyTablesInput(r.value) : null;
 * deepEqual([input?.bootstrap, input?.arms.M?.bounds, input?.costs.total.attempts], [{ draws: 10, seed: 1 }, [0, 1], 1]);
 * ```
 */
export function studyTablesInput(analysis: StudyAnalysis): StudyTablesInput {
  return {
    bootstrap: { draws: analysis.draws, seed: analysis.seed },
    arms: Object.fromEntries(analysis.arms.map((a) => [a.arm, a])),
    comparisons: analysis.comparisons,
    costs: {
      arms: Object.fromEntries(analysis.costs.arms.map((c) => [c.arm, c])),
      total: analysis.costs.total,
    },
  };
}

/** The analysis lists its arms; study.json keys them by name. */
function isAnalysis(study: StudyTablesInput | StudyAnalysis): study is StudyAnalysis {
  return Array.isArray(study.arms);
}

/**
 * The tables of a study: arms, comparisons and costs, in that order. The
 * list `gate study` writes (study_tables.md, .tex), the report's study
 * section shows (its figures behind their tables) and the notebooks show;
 * a notebook passes the analysis itself (`analyzeStudy`), read as
 * study.json holds it ({@linkcode studyTablesInput}), so the same tables.
 *
 * @param study study.json, or the result of `analyzeStudy`.
 * @returns The three tables.
 * @example The demo study: from the analysis and from its study.json
 * ```ts
 * import { analyzeStudy, loadStudyDir, studyTables, valueOrThrow } from "../mod.ts";
 * import { studyDocument } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * const plan = { ...input.plan, bootstrap: { draws: 200, seed: 1 } };
 * const analysis = valueOrThrow(analyzeStudy({ ...input, plan }), "analysis");
 * const tables = studyTables(analysis);
 * deepEqual(tables.map((t) => t.label), ["tab:study-arms", "tab:study-comparisons", "tab:study-costs"]);
 * deepEqual(tables[1]!.rows, [
 *   ["M − B", "0.112 [0.027, 0.200]", "[0.112, 0.112]", "seeds+tasks", "complete"],
 *   ["M − O", "incomplete", "[0.081, 0.087]", "seeds+tasks", "incomplete"],
 * ]);
 * deepEqual(tables[2]!.rows.at(-1), ["total", "1453", "13", "1441", "331.13", "71868299"]);
 * const doc = studyDocument(analysis, { command: "gate study", inputs: [] });
 * deepEqual(studyTables(JSON.parse(JSON.stringify(doc))), tables);
 * ```
 */
export function studyTables(study: StudyTablesInput | StudyAnalysis): Table[] {
  const input = isAnalysis(study) ? studyTablesInput(study) : study;
  return [studyArmsTable(input), studyComparisonsTable(input), studyCostsTable(input)];
}
