/**
 * Tables of the inference stage (lib/infer): bootstrap intervals, selection
 * stability, held-out checks, misfit diagnostics and power planning, as
 * {@linkcode Table} models for {@linkcode toMarkdown} and {@linkcode toLatex}.
 *
 * @module
 */
import type { AcrossGateCheck, HeldoutResult } from "../infer/heldout/heldout.ts";
import type { MisfitDiagnostics } from "../infer/diagnostics/diagnostics.ts";
import type { PowerPlan } from "../infer/power/power.ts";
import type { SelectionStability } from "../infer/bootstrap/bootstrap.ts";
import {
  COEFFICIENT,
  columnNames,
  formatCount,
  formatEstimate,
  formatP,
  formatPercent,
  formatRate,
  formatStatistic,
  formatWithInterval,
  intervalHeader,
  type NamedColumn,
} from "./format.ts";
import type { Table } from "./table.ts";

import { ANALYTIC_SE_APPROXIMATION } from "../infer/power/power.ts";

// The analytic standard error's approximation in mathematics, for the LaTeX notes.
const ANALYTIC_SE_LATEX = "$M$ independent Bernoulli($p$) columns, no intercept, homoskedastic " +
  "residuals with SD $s$: $X^{\\top}X/N \\to \\Sigma = p(1-p)\\,I + p^2 J$, so " +
  "$\\mathrm{Var}(\\beta_j) \\approx (s^2/N)\\,[\\Sigma^{-1}]_{jj} = " +
  "s^2 / (N p (1-p)) \\cdot (1 - p / (1 - p + M p))$. Ignores REWRITE families (mutually " +
  "exclusive columns), heteroskedasticity and finite-$N$ variation of $X^{\\top}X$ (checked by " +
  "simulation).";

/** The JSON fields of a bootstrap result the tables need. */
export interface BootstrapTableInput {
  readonly draws: number;
  readonly seed: number;
  readonly interval: string;
  readonly quantile_rule: string;
  readonly degenerate: {
    readonly singular_draws: number;
    readonly draws_with_absent_column: number;
  };
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<
        Record<string, {
          readonly estimate: number;
          readonly se_bootstrap: number | null;
          readonly ci: readonly [number, number] | null;
          readonly draws_used: number;
        }>
      >;
    }>
  >;
}

/**
 * Coefficients of one metric with bootstrap standard errors and intervals.
 *
 * @example
 * ```ts
 * import { bootstrapTable } from "./infer_tables.ts";
 * import { toMarkdown } from "./table.ts";
 * import { ok } from "node:assert/strict";
 * const t = bootstrapTable({ draws: 10, seed: 1, interval: "percentile", quantile_rule: "r",
 *   degenerate: { singular_draws: 0, draws_with_absent_column: 0 },
 *   metrics: { reward: { coefficients: { a: { estimate: 0.1, se_bootstrap: 0.02, ci: [0.06, 0.14], draws_used: 10 } } } } }, "reward");
 * ok(toMarkdown(t).includes("| a | 0.100 [0.060, 0.140] | 0.020 | 10 |"));
 * ```
 */
export function bootstrapTable(result: BootstrapTableInput, metric: string): Table {
  const m = result.metrics[metric];
  if (!m) throw new RangeError(`Cannot tabulate bootstrap: no metric "${metric}"`);
  return {
    caption: `Task bootstrap of ${metric}`,
    label: `tab:bootstrap-${metric}`,
    columns: [
      { label: "version" },
      {
        label: intervalHeader(COEFFICIENT, `task bootstrap, ${result.interval}`),
        align: "right",
      },
      { label: "SE (bootstrap)", align: "right" },
      { label: "draws used", align: "right" },
    ],
    rows: Object.entries(m.coefficients).map(([id, c]) => [
      id,
      formatWithInterval(c.estimate, c.ci),
      formatEstimate(c.se_bootstrap),
      formatCount(c.draws_used),
    ]),
    notes: [
      `${
        formatCount(result.draws)
      } draws over tasks, seed ${result.seed}; interval ends: ${result.quantile_rule}.`,
      `Degenerate draws: ${result.degenerate.singular_draws} singular, ${result.degenerate.draws_with_absent_column} with an absent column.`,
    ],
  };
}

/**
 * Selection stability: per version, selection frequency, rank distribution
 * and P(rank ≤ K). Chunks are named by {@linkcode columnNames} when the
 * design columns are given.
 */
export function stabilityTable(
  stability: SelectionStability,
  columns: readonly NamedColumn[] = [],
): Table {
  const rank = (v: number | null) => (v === null ? "—" : formatCount(v));
  const names = columnNames(columns);
  return {
    caption: `Selection stability of ${stability.metric} (K = ${stability.budget_k})`,
    label: "tab:selection-stability",
    columns: [
      { label: columns.length > 0 ? "chunk" : "version" },
      { label: "selected", align: "center" },
      { label: "rank", align: "right" },
      { label: "share selected", align: "right" },
      { label: "rank median", align: "right" },
      { label: "rank 5–95%", align: "right" },
      { label: "P(rank ≤ K)", align: "right" },
    ],
    rows: stability.versions.map((v) => [
      names.get(v.version_id) ?? v.version_id,
      v.selected_point ? "yes" : "no",
      rank(v.rank_point),
      formatRate(v.selected_frequency),
      rank(v.rank_median),
      `${rank(v.rank_p05)}–${rank(v.rank_p95)}`,
      formatRate(v.p_rank_within_k),
    ]),
    notes: [
      "Selected and rank: on the full data. Share selected, rank quantiles and P(rank ≤ K): " +
      "over task-bootstrap draws.",
      `Whole selected set equal to the point selection in ${
        formatPercent(stability.set_equal_frequency)
      } of ${formatCount(stability.draws_used)} draws; mean Jaccard ${
        formatRate(stability.mean_jaccard)
      }.`,
      `Rule: ${stability.rule}.`,
    ],
  };
}

const HELDOUT_NAMES: Readonly<Record<string, string>> = {
  spearman: "Spearman",
  kendall_tau_b: "Kendall tau-b",
  topk_overlap: "top-K overlap",
  topk_jaccard: "top-K Jaccard",
  gain_predicted: "gain, predicted",
  gain_realised: "gain, realised",
};

/**
 * Held-out summary: one row per statistic over the usable splits (count,
 * mean, SD over splits, 5th percentile, median, 95th percentile).
 *
 * @param result The result of {@linkcode heldoutCheck}.
 * @returns The table, with the plan and the excluded splits in its notes.
 *
 * @example Five folds of the demo's Gate A
 * ```ts
 * import { datasetOrThrow, heldoutCheck, heldoutSummaryTable, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const result = heldoutCheck(gateA, {
 *   format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward",
 * });
 * const table = heldoutSummaryTable(result);
 * deepEqual(table.rows[0], ["Spearman", "5", "0.30", "0.20", "0.04", "0.23", "0.48"]);
 * ```
 */
export function heldoutSummaryTable(result: HeldoutResult): Table {
  const rows = (Object.keys(result.summary) as (keyof HeldoutResult["summary"])[]).map((key) => {
    const s = result.summary[key];
    // Correlations are statistics, gains rewards, the overlap a count of chunks: its
    // quantiles (sorted elements) are whole numbers, its mean and SD statistics.
    const count = key === "topk_overlap";
    const fmt = key === "spearman" || key === "kendall_tau_b" || count
      ? formatStatistic
      : formatEstimate;
    const quantile = count ? formatCount : fmt;
    return [
      HELDOUT_NAMES[key] ?? key,
      formatCount(s.n),
      fmt(s.mean),
      fmt(s.sd),
      quantile(s.p05),
      quantile(s.median),
      quantile(s.p95),
    ];
  });
  const p = result.plan;
  return {
    caption: `Held-out ranking checks of ${p.metric} (${p.scheme}${
      p.scheme === "kfold" ? `, ${p.folds} folds` : ""
    }, ${p.repeats} repeats)`,
    label: "tab:heldout",
    columns: [
      { label: "statistic" },
      { label: "splits", align: "right" },
      { label: "mean", align: "right" },
      { label: "SD over splits", align: "right" },
      { label: "5%", align: "right" },
      { label: "median", align: "right" },
      { label: "95%", align: "right" },
    ],
    rows,
    notes: [
      `Tasks split at random, seed ${p.seed}, K = ${result.budget_k}; ${result.degenerate_splits} degenerate split(s) excluded.`,
      "SD over splits: spread of the statistic across splits (not a standard error: splits share tasks).",
      `Realised / predicted gain of the selected set: ${formatRate(result.realised_to_predicted)}.`,
    ],
  };
}

/**
 * Across-gate check: earlier vs later coefficient per shared version, and
 * whether the earlier gate selected it.
 *
 * @param check The result of {@linkcode againstLaterGate}.
 * @returns The table, with rank agreement and predicted vs realised gain in its notes.
 *
 * @example The demo's Gate A against the first online round
 * ```ts
 * import { acrossGateTable, againstLaterGate, datasetOrThrow, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const round1 = datasetOrThrow(await validateGates(["data/demo/ckpt-b/gate-online-r1"]), "round 1");
 * const table = acrossGateTable(againstLaterGate(gateA, round1));
 * deepEqual(table.rows.length, 6);
 * deepEqual(table.rows[0], ["query-formulation.v1", "yes", "0.108", "0.045"]);
 * ```
 */
export function acrossGateTable(check: AcrossGateCheck): Table {
  const selected = new Set(check.selected);
  return {
    caption: `Selection against a later gate (${check.metric})`,
    label: "tab:heldout-across-gates",
    columns: [
      { label: "version" },
      { label: "selected earlier", align: "center" },
      { label: "earlier", align: "right" },
      { label: "later", align: "right" },
    ],
    rows: check.per_version.map((v) => [
      v.version_id,
      selected.has(v.version_id) ? "yes" : "no",
      formatEstimate(v.earlier),
      formatEstimate(v.later),
    ]),
    notes: [
      `Columns: ${COEFFICIENT} on each gate. Shared versions ${check.shared.length}; Spearman ${
        formatStatistic(check.spearman_shared)
      }, Kendall tau-b ${formatStatistic(check.kendall_tau_b_shared)}.`,
      `Gain of the selected shared versions: predicted ${
        formatEstimate(check.gain_predicted)
      }, realised ${
        formatEstimate(check.gain_realised)
      }; selected but not tested later: ${check.selected_not_in_later.length}.`,
    ],
  };
}

/**
 * Misfit diagnostics: the AMCE table, the flagged interactions and the
 * residuals by number of chunks present. Chunks are named by
 * {@linkcode columnNames} when the design columns are given.
 *
 * @param d The result of {@linkcode misfitDiagnostics}.
 * @param columns Design columns to name chunks by (none: version ids only).
 * @returns Three tables: AMCE, interaction screen, residuals by count.
 *
 * @example The demo's Gate A
 * ```ts
 * import { datasetOrThrow, diagnosticsTables, misfitDiagnostics, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const tables = diagnosticsTables(misfitDiagnostics(gateA));
 * deepEqual(tables.map((t) => t.rows.length), [14, 10, 11]);
 * deepEqual(tables[0]!.caption, "OLS coefficient beside AMCE (reward)");
 * ```
 */
export function diagnosticsTables(
  d: MisfitDiagnostics,
  columns: readonly NamedColumn[] = [],
): Table[] {
  const names = columnNames(columns);
  const name = (id: string) => names.get(id) ?? id;
  const amce: Table = {
    caption: `OLS coefficient beside AMCE (${d.metric})`,
    label: "tab:amce",
    columns: [
      { label: columns.length > 0 ? "chunk" : "version" },
      { label: COEFFICIENT, align: "right" },
      { label: "AMCE", align: "right" },
      { label: "SE (AMCE)", align: "right" },
      { label: "gap", align: "right" },
    ],
    rows: d.amce.map((r) => [
      name(r.version_id),
      formatEstimate(r.beta),
      formatEstimate(r.amce),
      formatEstimate(r.amce_se),
      formatEstimate(r.gap),
    ]),
    notes: [
      "AMCE: mean delta with the version present minus mean delta with its slot absent; " +
      `gap: ${COEFFICIENT} minus AMCE.`,
    ],
  };
  const top = [...d.interactions.pairs]
    .filter((p) => p.testable)
    .sort((a, b) => a.p_value! - b.p_value!)
    .slice(0, 10);
  const joint = d.interactions.joint;
  const interactions: Table = {
    caption: `Interaction screen (${d.metric}): ten smallest p-values`,
    label: "tab:interactions",
    columns: [
      { label: "pair" },
      { label: "product coefficient", align: "right" },
      { label: `SE (${d.interactions.covariance})`, align: "right" },
      { label: "p", align: "right" },
      { label: "p (Holm)", align: "right" },
    ],
    rows: top.map((p) => [
      `${name(p.a)} ×\n${name(p.b)}`,
      formatEstimate(p.gamma),
      formatEstimate(p.se),
      formatP(p.p_value),
      formatP(p.p_holm),
    ]),
    notes: [
      `${d.interactions.covariance} Wald F per pair, Holm over ${
        d.interactions.pairs.filter((p) => p.testable).length
      } testable pairs at ${d.interactions.alpha}; flagged (Holm p below ${d.interactions.alpha}): ${
        d.interactions.pairs.filter((p) => p.flagged).length
      }.`,
      joint
        ? `Joint test of all products: F(${joint.df1}, ${joint.df2}) = ${
          formatStatistic(joint.f)
        }, p = ${formatP(joint.p_value)}.`
        : "Joint test not available (too few rows or singular).",
    ],
  };
  const residuals: Table = {
    caption: `Residuals by number of chunks present (${d.metric})`,
    label: "tab:residuals-by-count",
    columns: [
      { label: "chunks present", align: "right" },
      { label: "n", align: "right" },
      { label: "mean residual", align: "right" },
      { label: "SD", align: "right" },
    ],
    rows: d.residuals_by_count.map((r) => [
      formatCount(r.count),
      formatCount(r.n),
      formatEstimate(r.mean),
      formatEstimate(r.sd),
    ]),
  };
  return [amce, interactions, residuals];
}

/**
 * Power plan: the headline numbers and the minimum-detectable-effect grids
 * by number of tasks and by number of candidate columns.
 *
 * @param plan The result of {@linkcode planPower}.
 * @returns Three tables: the plan, MDE by tasks, MDE by columns.
 *
 * @example Planned from the demo's Gate A
 * ```ts
 * import {
 *   analyzeDataset, datasetOrThrow, planPower, powerInputsFromContributions, powerTables, validateGates,
 *   valueOrThrow,
 * } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const inputs = valueOrThrow(powerInputsFromContributions(analyzeDataset(gateA).contributions), "inputs");
 * const tables = powerTables(planPower(inputs, { effects: inputs.estimates, budgetK: 3, sims: 50, seed: 1 }));
 * deepEqual(tables.map((t) => t.rows.length), [10, 5, 7]);
 * deepEqual(tables[1]!.rows[0], ["100", "0.067", "0.188"]);
 * ```
 */
export function powerTables(plan: PowerPlan): Table[] {
  const d = plan.design, s = plan.simulation;
  const headline: Table = {
    caption: "Power plan",
    label: "tab:power",
    columns: [{ label: "quantity" }, { label: "value", align: "right" }],
    rows: [
      ["tasks N", formatCount(d.tasks)],
      ["columns M", formatCount(d.columns)],
      ["p present", formatRate(d.p_present)],
      ["residual SD", formatEstimate(d.resid_sd)],
      ["budget K", formatCount(d.budget_k)],
      [`SE of a ${COEFFICIENT}, analytic`, formatEstimate(plan.analytic.se_beta)],
      [`SE of a ${COEFFICIENT}, simulated`, formatEstimate(s.simulated_se)],
      ["MDE at 80% power, alpha 0.05", formatEstimate(plan.analytic.mde_80)],
      ["P(truly best K selected)", formatRate(s.p_exact_best_set)],
      ["mean recall of the best K", formatRate(s.mean_best_recall)],
    ],
    notes: [
      `${formatCount(s.sims)} simulated gates, seed ${s.seed}.`,
      ...(s.selection_note ? [s.selection_note] : []),
      plan.analytic.approximation === ANALYTIC_SE_APPROXIMATION
        ? { text: plan.analytic.approximation, latex: ANALYTIC_SE_LATEX }
        : plan.analytic.approximation,
    ],
  };
  const byTasks: Table = {
    caption: "Minimum detectable effect by number of tasks",
    label: "tab:power-tasks",
    columns: [{ label: "tasks", align: "right" }, { label: "SE", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_tasks.map((
      r,
    ) => [formatCount(r.tasks), formatEstimate(r.se_beta), formatEstimate(r.mde_80)]),
  };
  const byColumns: Table = {
    caption: "Minimum detectable effect by number of candidate columns",
    label: "tab:power-columns",
    columns: [{ label: "columns", align: "right" }, { label: "SE", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_columns.map((
      r,
    ) => [formatCount(r.columns), formatEstimate(r.se_beta), formatEstimate(r.mde_80)]),
  };
  return [headline, byTasks, byColumns];
}
