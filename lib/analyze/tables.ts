/**
 * The report tables of a gate analysis (contributions.json and
 * selection.json) as {@linkcode Table} models rendered by `toMarkdown`,
 * `toLatex` or the HTML report: coefficients per metric, the selection's
 * decisions, the overview, the means per metric and the checks not made.
 * (The tidy CSV/Parquet tables are analyze_tidy.ts.)
 *
 * @module
 */
import {
  COEFFICIENT,
  columnNames,
  formatCount,
  formatEstimate,
  formatP,
  formatRate,
  formatWithInterval,
  intervalHeader,
  statusLabel,
} from "../table/format.ts";
import { escapeLatex, type Table, type TableColumn, type TableNote } from "../table/table.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { conventionLabel } from "../core/conventions.ts";
import type { ContributionsJson, SelectionJson, View } from "../contract/outputs/mod.ts";
import { type RunScope, scopeTables } from "../table/run_scope.ts";
import { stabilityTable } from "./bootstrap_tables.ts";
import { diagnosticsTables } from "./diagnostics_tables.ts";
import type { MisfitDiagnostics } from "../infer/diagnostics/diagnostics.ts";
import type { SelectionStability } from "../infer/bootstrap/bootstrap.ts";
import { bootstrapStability } from "./stability_block.ts";
import { checkpointTables, type CheckpointTablesInput } from "./checkpoint_tables.ts";

// Parts of the zod-inferred document types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Column = ContributionsJson["columns"][number];
/** @ignore */
type Coefficient = Metric["coefficients"][string];
/** @ignore */
type Bootstrap = NonNullable<ContributionsJson["bootstrap"]>;
/** @ignore */
type Decision = SelectionJson["decisions"][number];

/** The parts of contributions.json the coefficient tables read (a view of its schema's type). */
export interface CoefficientTableInput {
  /** Design columns (version, slot, chunk, role), in column order. */
  readonly columns: readonly View<Column, "version_id" | "slot_id" | "role", "chunk_id">[];
  /** The covariance type of `se_robust` (`cov_type`), when recorded. */
  readonly conventions?: Readonly<Record<string, string>> | undefined;
  /** Paired rows in the fit. */
  readonly n_pairs: number;
  /** Distinct tasks, when recorded. */
  readonly n_tasks?: number | undefined;
  /** The bare run, named in the notes. */
  readonly baseline: View<ContributionsJson["baseline"], "run_id" | "sha256">;
  /** Draws, seed and interval of the task bootstrap, when it ran. */
  readonly bootstrap?: View<Bootstrap, never, "draws" | "seed" | "interval"> | null | undefined;
  /** Means, fit statistics and coefficients per metric. */
  readonly metrics: Readonly<
    Record<
      string,
      & View<
        Metric,
        "masked_mean" | "bare_mean" | "delta_mean",
        "df_resid" | "resid_se" | "r2_uncentered"
      >
      & {
        readonly coefficients: Readonly<
          Record<
            string,
            View<
              Coefficient,
              "estimate",
              "se_hc3" | "se_robust" | "p" | "se_cluster" | "p_cluster" | "se_bootstrap" | "ci"
            >
          >
        >;
      }
    >
  >;
}

/** The paired-delta model as a note: plain text and LaTeX (math mode). */
export const MODEL_NOTE = {
  text: "R_i − B_i = C_i′β + e_i, no intercept",
  latex: "$R_i - B_i = C_i^{\\top}\\beta + e_i$, no intercept",
} as const;

/**
 * Metrics whose coefficients equal an earlier metric's in every column
 * (e.g. `r_strict` when it is the reward itself): metric to the metric it
 * repeats.
 *
 * @example
 * ```ts
 * import { identicalMetrics } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const m = (e: number) => ({ coefficients: { a: { estimate: e, ci: [0, 1] } } });
 * deepEqual(identicalMetrics({ reward: m(1), r_strict: m(1), r_x: m(2) }), new Map([["r_strict", "reward"]]));
 * ```
 */
export function identicalMetrics(
  metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<
        Record<string, {
          readonly estimate: number | null;
          readonly ci?: readonly number[] | null | undefined;
        }>
      >;
    }>
  >,
): Map<string, string> {
  const key = (m: (typeof metrics)[string]) =>
    JSON.stringify(
      Object.entries(m.coefficients).map(([id, c]) => [id, c.estimate, c.ci ?? null]),
    );
  const seen = new Map<string, string>();
  const repeats = new Map<string, string>();
  for (const [metric, m] of Object.entries(metrics)) {
    const k = key(m);
    const first = seen.get(k);
    if (first !== undefined) repeats.set(metric, first);
    else seen.set(k, metric);
  }
  return repeats;
}

/** Whether tasks repeat across rows (pooled rounds), so the cluster SE is the one to use. */
function clustered(contributions: CoefficientTableInput): boolean {
  return contributions.n_tasks !== undefined && contributions.n_tasks < contributions.n_pairs;
}

/**
 * One coefficient table per distinct metric: the readable chunk name, the
 * coefficient with its 95% task-bootstrap percentile interval in one
 * column, and one standard error with its two-sided normal p-value: CR1
 * clustered by task when tasks repeat across rows (pooled rounds), else
 * the `--cov` choice (HC3 by default); the other standard errors stay in
 * contributions.json. Slot and role columns appear only when they carry
 * information (a slot only when a REWRITE family's version ids do not start
 * with their slot id; roles only when they differ). A metric whose
 * coefficients repeat an earlier metric's gets no table of its own, only a
 * note under that metric's table.
 *
 * @param contributions contributions.json (or the analysis object).
 * @returns Tables, in the document's metric order.
 *
 * @example
 * ```ts
 * import { coefficientTables } from "./tables.ts";
 * import { toMarkdown } from "../table/table.ts";
 * import { ok } from "node:assert/strict";
 * const t = coefficientTables({
 *   columns: [{ version_id: "a.v1", slot_id: "a", chunk_id: "a", role: "add" }], n_pairs: 3,
 *   baseline: { run_id: "bare", sha256: "ab" },
 *   metrics: { reward: { masked_mean: 0.5, bare_mean: 0.3, delta_mean: 0.2,
 *     coefficients: { "a.v1": { estimate: 0.3, se_hc3: 0.1, p: 0.0027, se_cluster: 0.09, p_cluster: 0.0009 } } } },
 * });
 * ok(toMarkdown(t[0]!).includes("| a | 0.300 | 0.100 | 0.003 |"));
 * ```
 */
export function coefficientTables(contributions: CoefficientTableInput): Table[] {
  // A view without conventions holds the library's default fit.
  const cov = contributions.conventions?.cov_type ?? DEFAULTS.covType;
  const useCluster = clustered(contributions);
  const seName = conventionLabel(useCluster ? "cr1" : cov);
  const names = columnNames(contributions.columns);
  const multiVersion = new Set(contributions.columns.map((c) => c.slot_id)).size <
    contributions.columns.length;
  const showSlot = multiVersion &&
    contributions.columns.some((c) => !names.get(c.version_id)!.startsWith(c.slot_id));
  const roles = new Set(contributions.columns.map((c) => c.role));
  const repeats = identicalMetrics(contributions.metrics);
  return Object.entries(contributions.metrics).filter(([metric]) => !repeats.has(metric)).map(
    ([metric, m]) => {
      const coefs = Object.values(m.coefficients);
      const hasCi = coefs.some((c) => c.ci !== undefined && c.ci !== null);
      const boot = contributions.bootstrap;
      const columns: TableColumn[] = [
        { label: multiVersion ? "version" : "chunk" },
        ...(showSlot ? [{ label: "slot" }] : []),
        ...(roles.size > 1 ? [{ label: "role" }] : []),
        {
          label: hasCi
            ? intervalHeader(
              COEFFICIENT,
              `task bootstrap, ${conventionLabel(boot?.interval ?? DEFAULTS.interval)}`,
            )
            : COEFFICIENT,
          align: "right",
        },
        { label: `SE (${seName})`, align: "right" },
        { label: `p (${seName})`, align: "right" },
      ];
      const rows = contributions.columns.map((c) => {
        const x = m.coefficients[c.version_id];
        return [
          names.get(c.version_id)!,
          ...(showSlot ? [c.slot_id] : []),
          ...(roles.size > 1 ? [c.role] : []),
          hasCi ? formatWithInterval(x?.estimate, x?.ci ?? null) : formatEstimate(x?.estimate),
          formatEstimate(useCluster ? x?.se_cluster : (x?.se_robust ?? x?.se_hc3)),
          formatP(useCluster ? x?.p_cluster : x?.p),
        ];
      });
      const n = `n = ${formatCount(contributions.n_pairs)} pairs` +
        (contributions.n_tasks !== undefined
          ? ` over ${formatCount(contributions.n_tasks)} tasks`
          : "") +
        (m.df_resid !== undefined ? `, residual df ${formatCount(m.df_resid)}` : "") +
        (m.resid_se !== undefined && m.resid_se !== null
          ? `, residual SE ${formatEstimate(m.resid_se)}`
          : "");
      const r2 = m.r2_uncentered !== undefined && m.r2_uncentered !== null
        ? formatRate(m.r2_uncentered)
        : null;
      const same = [...repeats].filter(([, first]) => first === metric).map(([r]) => r);
      const notes: TableNote[] = [
        {
          text: `${MODEL_NOTE.text}; ${n}` + (r2 !== null ? `; uncentred R² ${r2}` : "") + ".",
          latex: `${MODEL_NOTE.latex}; ${escapeLatex(n)}` +
            (r2 !== null ? `; uncentred $R^2$ ${r2}` : "") + ".",
        },
        `Means: masked ${formatEstimate(m.masked_mean)}, bare ${
          formatEstimate(m.bare_mean)
        }, delta ${formatEstimate(m.delta_mean)}.`,
        (useCluster
          ? `SE and p: ${seName} clustered by task (tasks repeat across pooled rounds)`
          : `SE and p: ${seName} heteroskedasticity-robust`) +
        "; p two-sided, normal; p below 0.001 shown as <0.001" +
        (hasCi && boot?.draws !== undefined
          ? `; intervals from ${formatCount(boot.draws)} task-bootstrap draws, seed ${boot.seed}`
          : "") +
        ". Other standard errors: contributions.json.",
        `Baseline ${contributions.baseline.run_id}, sha256 ${
          contributions.baseline.sha256.slice(0, 12)
        }.`,
        ...(same.length > 0
          ? [`${same.join(", ")}: identical to ${metric} in every coefficient, not repeated.`]
          : []),
      ];
      return {
        caption: `Paired-delta coefficients, ${metric}` +
          (same.length > 0 ? ` (= ${same.join(", ")})` : ""),
        label: `tab:coefficients-${metric.replaceAll("_", "-")}`,
        columns,
        rows,
        notes,
      };
    },
  );
}

/** The parts of selection.json the decision table reads (a view of its schema's type). */
export interface SelectionTableInput {
  /** Metric the selection ranks by. */
  readonly metric: string;
  /** Budget K. */
  readonly budget_k: number;
  /** True when the budget was overridden (named in the caption). */
  readonly exploratory?: boolean | undefined;
  /** Selected version ids, in rank order. */
  readonly selected: readonly string[];
  /** The decision on every version. */
  readonly decisions: readonly View<
    Decision,
    "slot_id" | "version_id" | "role" | "alpha" | "rank" | "status" | "retired"
  >[];
}

/**
 * The decision table: survivors by rank, then rewrite losers (in column
 * order), with the coefficient and status; slot, role and retired columns
 * only when they carry information.
 *
 * @param selection selection.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { selectionTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = selectionTable({ metric: "reward", budget_k: 1, selected: ["b"], decisions: [
 *   { slot_id: "a", version_id: "a", role: "current", alpha: -0.1, rank: 2, status: "non_positive", retired: true },
 *   { slot_id: "b", version_id: "b", role: "add", alpha: 0.2, rank: 1, status: "selected", retired: false },
 * ] });
 * deepEqual(t.rows, [["1", "b", "add", "0.200", "selected", ""], ["2", "a", "current", "-0.100", "non-positive", "yes"]]);
 * ```
 */
export function selectionTable(selection: SelectionTableInput): Table {
  const sorted = [...selection.decisions].sort((a, b) =>
    (a.rank ?? Infinity) - (b.rank ?? Infinity)
  );
  const names = columnNames(selection.decisions);
  const multiVersion = new Set(selection.decisions.map((d) => d.slot_id)).size <
    selection.decisions.length;
  const showSlot = multiVersion &&
    selection.decisions.some((d) => !names.get(d.version_id)!.startsWith(d.slot_id));
  const showRole = new Set(selection.decisions.map((d) => d.role)).size > 1;
  const showRetired = selection.decisions.some((d) => d.retired);
  return {
    caption: `Selection by ${selection.metric}: positive top-${selection.budget_k}` +
      (selection.exploratory ? " (exploratory budget)" : ""),
    label: "tab:selection",
    columns: [
      { label: "rank", align: "right" },
      { label: multiVersion ? "version" : "chunk" },
      ...(showSlot ? [{ label: "slot" }] : []),
      ...(showRole ? [{ label: "role" }] : []),
      { label: COEFFICIENT, align: "right" },
      { label: "status" },
      ...(showRetired ? [{ label: "retired" }] : []),
    ],
    rows: sorted.map((d) => [
      d.rank === null ? "—" : formatCount(d.rank),
      names.get(d.version_id)!,
      ...(showSlot ? [d.slot_id] : []),
      ...(showRole ? [d.role] : []),
      formatEstimate(d.alpha),
      statusLabel(d.status),
      ...(showRetired ? [d.retired ? "yes" : ""] : []),
    ]),
    notes: [
      `${formatCount(selection.selected.length)} selected. REWRITE families pick their winner ` +
      "first (a tie keeps old); losers have no rank. Then the strictly positive top-" +
      `${selection.budget_k} of the survivors by ${COEFFICIENT} (${selection.metric}).`,
    ],
  };
}

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Metric = ContributionsJson["metrics"][string];

/** What {@linkcode overviewTable} reads of contributions.json. */
export type OverviewInput = View<
  ContributionsJson,
  "estimator" | "baseline" | "n_pairs" | "columns",
  "masked" | "gates"
>;

/**
 * Overview of a gate analysis: estimator, runs and their hashes, pairs.
 *
 * @param contributions Parsed contributions.json.
 * @returns A two-column table.
 *
 * @example
 * ```ts
 * import { overviewTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = overviewTable({ estimator: { name: "paired_delta_ols_no_intercept", formula: "R_i - B_i = C_i' beta + e_i", intercept: 0 },
 *   baseline: { run_id: "bare", run_dir: "../bare", sha256: "ab" }, n_pairs: 400, columns: [] });
 * deepEqual(t.rows[0], ["estimator", "paired_delta_ols_no_intercept"]);
 * ```
 */
export function overviewTable(contributions: OverviewInput): Table {
  const rows: string[][] = [
    ["estimator", contributions.estimator.name],
    ["formula", MODEL_NOTE.text],
    ["baseline run", contributions.baseline.run_id],
    ["baseline sha256", contributions.baseline.sha256],
  ];
  if (contributions.masked) {
    rows.push(["masked run", contributions.masked.run_id], [
      "masked sha256",
      contributions.masked.sha256,
    ]);
  }
  if (contributions.gates) rows.push(["gates pooled", formatCount(contributions.gates.length)]);
  rows.push(["pairs", formatCount(contributions.n_pairs)], [
    "design columns",
    formatCount(contributions.columns.length),
  ]);
  return { caption: "Analysis", columns: [{ label: "item" }, { label: "value" }], rows };
}

/**
 * Mean masked, bare and delta value per metric.
 *
 * @param contributions Parsed contributions.json.
 * @returns One row per metric.
 *
 * @example
 * ```ts
 * import { metricMeansTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = metricMeansTable({ metrics: { reward: { masked_mean: 0.5, bare_mean: 0.25, delta_mean: 0.25 } } });
 * deepEqual(t.rows, [["reward", "0.500", "0.250", "0.250"]]);
 * ```
 */
export function metricMeansTable(contributions: {
  readonly metrics: Readonly<
    Record<string, Pick<Metric, "masked_mean" | "bare_mean" | "delta_mean">>
  >;
}): Table {
  return {
    caption: "Mean per metric",
    columns: [
      { label: "metric" },
      { label: "masked", align: "right" },
      { label: "bare", align: "right" },
      { label: "delta", align: "right" },
    ],
    rows: Object.entries(contributions.metrics).map(([metric, m]) => [
      metric,
      formatEstimate(m.masked_mean),
      formatEstimate(m.bare_mean),
      formatEstimate(m.delta_mean),
    ]),
  };
}

/**
 * The checks an analysis could not make because its inputs do not record a
 * field (an import's unrecorded provenance): one row per field, or nothing.
 */
export function unverifiableTable(
  entries: readonly { readonly field: string; readonly message: string }[] | undefined,
): Table[] {
  if (!entries || entries.length === 0) return [];
  return [{
    caption: `Checks not made: ${entries.length} field(s) not recorded by the inputs`,
    columns: [{ label: "field" }, { label: "what a recorded value would have caught" }],
    rows: entries.map((e) => [e.field, e.message.replace(/^[^:]*: /, "")]),
    notes: ["Listed as provenance_unrecorded warnings in validation.json (docs/import.md)."],
  }];
}

/**
 * The coefficient table of one metric, as the report's analysis section
 * shows it: the table of `metric` (the selection's), or the first when that
 * metric repeats an earlier one's coefficients or is not given.
 *
 * @param contributions contributions.json (or the analysis object).
 * @param metric The metric whose table to pick (the selection metric).
 * @returns The table, or null when the analysis has no metric.
 *
 * @example
 * ```ts
 * import { primaryCoefficientTable } from "./tables.ts";
 * import { equal } from "node:assert/strict";
 * const m = (e: number) => ({ masked_mean: 0.5, bare_mean: 0.3, delta_mean: 0.2, coefficients: { a: { estimate: e } } });
 * const contributions = { columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const }], n_pairs: 3,
 *   baseline: { run_id: "bare", sha256: "ab" }, metrics: { reward: m(0.3), r_x: m(0.1) } };
 * equal(primaryCoefficientTable(contributions, "r_x")?.caption, "Paired-delta coefficients, r_x");
 * equal(primaryCoefficientTable(contributions)?.caption, "Paired-delta coefficients, reward");
 * ```
 */
export function primaryCoefficientTable(
  contributions: CoefficientTableInput,
  metric?: string,
): Table | null {
  const tables = coefficientTables(contributions);
  return tables.find((t) => t.label === `tab:coefficients-${metric?.replaceAll("_", "-")}`) ??
    tables[0] ?? null;
}

/** What {@linkcode analysisPaperTables} reads: the analysis, or its parsed files. */
export interface AnalysisPaperTablesInput {
  /** contributions.json (its bootstrap block gives the stability table). */
  readonly contributions: CoefficientTableInput & { readonly bootstrap?: unknown };
  /** selection.json. */
  readonly selection: SelectionTableInput;
}

/**
 * The tables of an analysis that a paper (notebook 03's appendix) and the
 * report's analysis section show: the selection metric's coefficients
 * ({@linkcode primaryCoefficientTable}), the selection and, when the
 * bootstrap ran, the selection's stability. Labels are unscoped (the
 * appendix scopes them by its section). Every metric's coefficients are
 * {@linkcode analysisTables}, as `gate analyze` writes them.
 *
 * @param analysis The analysis (`runAnalysis`) or its parsed files.
 * @returns Two or three tables, in that order.
 *
 * @example
 * ```ts
 * import { analysisPaperTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = analysisPaperTables({
 *   contributions: { columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" }], n_pairs: 3,
 *     baseline: { run_id: "bare", sha256: "ab" },
 *     metrics: { reward: { masked_mean: 0.5, bare_mean: 0.3, delta_mean: 0.2, coefficients: { a: { estimate: 0.3 } } } } },
 *   selection: { metric: "reward", budget_k: 1, selected: ["a"], decisions: [
 *     { slot_id: "a", version_id: "a", role: "add", alpha: 0.3, rank: 1, status: "selected", retired: false }] },
 * });
 * deepEqual(t.map((x) => x.label), ["tab:coefficients-reward", "tab:selection"]);
 * ```
 */
export function analysisPaperTables(analysis: AnalysisPaperTablesInput): Table[] {
  const { contributions, selection } = analysis;
  const primary = primaryCoefficientTable(contributions, selection.metric);
  const stability = bootstrapStability(contributions);
  return [
    ...(primary ? [primary] : []),
    selectionTable(selection),
    ...(stability && stability.metric === selection.metric
      ? [stabilityTable(stability, contributions.columns)]
      : []),
  ];
}

/** What {@linkcode analysisTablesShown} reads: contributions.json and selection.json as read back, either may be missing. */
export interface AnalysisShownInput {
  /** contributions.json, or null when the directory has none. */
  readonly contributions: ContributionsJson | null;
  /** selection.json, or null when the directory has none (an exploratory analysis). */
  readonly selection: SelectionJson | null;
}

/** One table {@linkcode analysisTablesShown} lists, with the id the section places its figures by. */
export interface AnalysisTableShown {
  /** The table's id in the list (`"overview"`, `"selection"`, ...): not shown, never a label. */
  readonly id: string;
  /** The table. */
  readonly table: Table;
}

/**
 * The tables of an analysis as the report's analysis section (and a
 * notebook's `displaySection`) shows them, in order: the overview
 * (`overview`), the checks not made (`unverifiable`, when any), the means
 * per metric (`metric_means`), the selection metric's coefficients
 * (`coefficients`), the selection (`selection`) and its stability
 * (`stability`, when the bootstrap ran). The analysis bundle's `tables` is
 * this list; `analysisSection` places its figures and subheadings around
 * the tables by id, so a table added here is shown with no edit there.
 * {@linkcode analysisPaperTables} is the paper's part of it.
 *
 * @param doc The parsed contributions.json and selection.json.
 * @returns The tables with their ids; empty when both files are missing.
 *
 * @example
 * ```ts
 * import { analysisTablesShown } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const selection = { format: "gatelab.selection/v1", metric: "reward", budget_k: 1, selected: ["a"], decisions: [
 *   { slot_id: "a", version_id: "a", role: "add", alpha: 0.3, rank: 1, status: "selected", retired: false }] };
 * // deno-lint-ignore no-explicit-any
 * const shown = analysisTablesShown({ contributions: null, selection: selection as any });
 * deepEqual(shown.map((t) => [t.id, t.table.label]), [["selection", "tab:selection"]]);
 * deepEqual(analysisTablesShown({ contributions: null, selection: null }), []);
 * ```
 */
export function analysisTablesShown(doc: AnalysisShownInput): AnalysisTableShown[] {
  const { contributions, selection } = doc;
  const shown: AnalysisTableShown[] = [];
  const add = (id: string, table: Table | null | undefined) => {
    if (table) shown.push({ id, table });
  };
  if (contributions) {
    const metric = selection?.metric ??
      (contributions.metrics["reward"] ? "reward" : Object.keys(contributions.metrics)[0]);
    add("overview", overviewTable(contributions));
    add("unverifiable", unverifiableTable(contributions.unverifiable)[0]);
    add("metric_means", metricMeansTable(contributions));
    add("coefficients", primaryCoefficientTable(contributions, metric));
  }
  if (selection) {
    add("selection", selectionTable(selection));
    const stability = contributions ? bootstrapStability(contributions) : null;
    if (stability && stability.metric === selection.metric && contributions) {
      add("stability", stabilityTable(stability, contributions.columns));
    }
  }
  return shown;
}

/** The tables `gate analyze` writes, by file: coefficients.md, selection.md, ... */
export interface AnalysisTables {
  /** coefficients.md/.tex: one table per distinct metric. */
  readonly coefficients: Table[];
  /** selection.md/.tex. */
  readonly selection: Table;
  /** diagnostics.md/.tex; empty when the diagnostics could not be computed. */
  readonly diagnostics: Table[];
  /** stability.md/.tex; null without a bootstrap. */
  readonly stability: Table | null;
}

/** What {@linkcode analysisTables} reads: the analysis's documents. */
export interface AnalysisTablesInput {
  /** contributions.json: the coefficient tables (and the checkpoints'), and the column names of the others. */
  readonly contributions: CoefficientTableInput & Pick<CheckpointTablesInput, "checkpoints">;
  /** selection.json: the selection table. */
  readonly selection: SelectionTableInput;
  /** diagnostics.json of the selection metric; null: no diagnostics tables. */
  readonly diagnostics: MisfitDiagnostics | null;
  /** Selection stability across bootstrap draws; null: no stability table. */
  readonly stability: SelectionStability | null;
}

/**
 * The tables of an analysis as `gate analyze` writes them: labels and
 * captions scoped by the run (so the tables of several analyses fit in one
 * paper) and, for an exploratory analysis, every caption but the
 * selection's marked with the waived codes.
 *
 * @param analysis The analysis (`runAnalysis`) or its parsed files.
 * @param options The run's scope and the waived pairing codes.
 * @returns The tables, by file.
 *
 * @example
 * ```ts
 * import { analysisTables } from "./tables.ts";
 * import { equal } from "node:assert/strict";
 * const t = analysisTables({
 *   contributions: { columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" }], n_pairs: 3,
 *     baseline: { run_id: "bare", sha256: "ab" },
 *     metrics: { reward: { masked_mean: 0.5, bare_mean: 0.3, delta_mean: 0.2, coefficients: { a: { estimate: 0.3 } } } } },
 *   selection: { metric: "reward", budget_k: 1, selected: ["a"], decisions: [
 *     { slot_id: "a", version_id: "a", role: "add", alpha: 0.3, rank: 1, status: "selected", retired: false }] },
 *   diagnostics: null, stability: null,
 * }, { waive: ["seed_mismatch"] });
 * equal(t.coefficients[0]!.caption, "EXPLORATORY (waived: seed_mismatch) Paired-delta coefficients, reward");
 * equal(t.selection.caption, "Selection by reward: positive top-1");
 * ```
 */
export function analysisTables(
  analysis: AnalysisTablesInput,
  options: { readonly scope?: RunScope; readonly waive?: readonly string[] } = {},
): AnalysisTables {
  const { contributions, selection, diagnostics, stability } = analysis;
  const waive = options.waive ?? [];
  const scoped = (tables: readonly Table[]) =>
    options.scope === undefined ? [...tables] : scopeTables(tables, options.scope);
  const mark = (t: Table): Table =>
    waive.length > 0
      ? { ...t, caption: `EXPLORATORY (waived: ${waive.join(", ")}) ${t.caption}` }
      : t;
  return {
    coefficients: scoped([
      ...coefficientTables(contributions),
      ...checkpointTables(contributions, new Set(identicalMetrics(contributions.metrics).keys())),
    ]).map(mark),
    selection: scoped([selectionTable(selection)])[0]!,
    diagnostics: diagnostics === null
      ? []
      : scoped(diagnosticsTables(diagnostics, contributions.columns)).map(mark),
    stability: stability === null
      ? null
      : mark(scoped([stabilityTable(stability, contributions.columns)])[0]!),
  };
}
