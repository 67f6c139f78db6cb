/**
 * Tables of the inference stage (lib/infer): bootstrap intervals, selection
 * stability, held-out checks, misfit diagnostics and power planning, as
 * {@linkcode Table} models for {@linkcode toMarkdown} and {@linkcode toLatex}.
 *
 * @module
 */
import type { AcrossGateCheck, HeldoutResult } from "../infer/heldout.ts";
import type { MisfitDiagnostics } from "../infer/diagnostics.ts";
import type { PowerPlan } from "../infer/power.ts";
import type { SelectionStability } from "../infer/bootstrap.ts";
import { formatInterval, formatNumber, type Table } from "./table.ts";

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
 * ok(toMarkdown(t).includes("| a | 0.1000 | 0.0200 | [0.0600, 0.1400] | 10 |"));
 * ```
 */
export function bootstrapTable(result: BootstrapTableInput, metric: string, digits = 4): Table {
  const m = result.metrics[metric];
  if (!m) throw new RangeError(`Cannot tabulate bootstrap: no metric "${metric}"`);
  return {
    caption: `Task bootstrap of ${metric}`,
    label: `tab:bootstrap-${metric}`,
    columns: [
      { label: "version" },
      { label: "estimate", align: "right" },
      { label: "se (bootstrap)", align: "right" },
      { label: `95% ${result.interval} interval`, align: "right" },
      { label: "draws used", align: "right" },
    ],
    rows: Object.entries(m.coefficients).map(([id, c]) => [
      id,
      formatNumber(c.estimate, digits),
      formatNumber(c.se_bootstrap, digits),
      formatInterval(c.ci, digits),
      String(c.draws_used),
    ]),
    notes: [
      `${result.draws} draws over tasks, seed ${result.seed}; interval ends: ${result.quantile_rule}.`,
      `Degenerate draws: ${result.degenerate.singular_draws} singular, ${result.degenerate.draws_with_absent_column} with an absent column.`,
    ],
  };
}

/**
 * Selection stability: per version, selection frequency, rank distribution
 * and P(rank <= K).
 */
export function stabilityTable(stability: SelectionStability): Table {
  const rank = (v: number | null) => (v === null ? "—" : String(v));
  return {
    caption: `Selection stability of ${stability.metric} (K = ${stability.budget_k})`,
    label: "tab:selection-stability",
    columns: [
      { label: "version" },
      { label: "selected (point)", align: "center" },
      { label: "point rank", align: "right" },
      { label: "selected share", align: "right" },
      { label: "rank median", align: "right" },
      { label: "rank 5–95%", align: "right" },
      { label: "P(rank <= K)", align: "right" },
    ],
    rows: stability.versions.map((v) => [
      v.version_id,
      v.selected_point ? "yes" : "no",
      rank(v.rank_point),
      formatNumber(v.selected_frequency, 3),
      rank(v.rank_median),
      `${rank(v.rank_p05)}–${rank(v.rank_p95)}`,
      formatNumber(v.p_rank_within_k, 3),
    ]),
    notes: [
      `Whole selected set equal to the point selection in ${
        formatNumber(100 * stability.set_equal_frequency, 1)
      }% of ${stability.draws_used} draws; mean Jaccard ${
        formatNumber(stability.mean_jaccard, 3)
      }.`,
      `Rule: ${stability.rule}.`,
    ],
  };
}

/** Held-out summary: one row per statistic over the usable splits. */
export function heldoutSummaryTable(result: HeldoutResult): Table {
  const rows = (Object.keys(result.summary) as (keyof HeldoutResult["summary"])[]).map((key) => {
    const s = result.summary[key];
    return [
      key,
      String(s.n),
      formatNumber(s.mean, 3),
      formatNumber(s.sd, 3),
      formatNumber(s.p05, 3),
      formatNumber(s.median, 3),
      formatNumber(s.p95, 3),
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
      { label: "sd across splits", align: "right" },
      { label: "p5", align: "right" },
      { label: "median", align: "right" },
      { label: "p95", align: "right" },
    ],
    rows,
    notes: [
      `Tasks split, seed ${p.seed}, K = ${result.budget_k}; ${result.degenerate_splits} degenerate split(s) excluded.`,
      "sd is the spread of the statistic across splits (ddof 1), not a standard error: the splits " +
      "share tasks, so the mean's uncertainty is not sd / sqrt(splits).",
      `Realised / predicted gain of the selected set: ${
        formatNumber(result.realised_to_predicted, 3)
      }.`,
    ],
  };
}

/** Across-gate check: earlier vs later coefficient per shared version. */
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
      formatNumber(v.earlier, 4),
      formatNumber(v.later, 4),
    ]),
    notes: [
      `Shared versions ${check.shared.length}; Spearman ${
        formatNumber(check.spearman_shared, 3)
      }, Kendall tau-b ${formatNumber(check.kendall_tau_b_shared, 3)}.`,
      `Gain of the selected shared versions: predicted ${
        formatNumber(check.gain_predicted, 4)
      }, realised ${
        formatNumber(check.gain_realised, 4)
      }; selected but not tested later: ${check.selected_not_in_later.length}.`,
    ],
  };
}

/** Misfit diagnostics: the AMCE table and the flagged interactions. */
export function diagnosticsTables(d: MisfitDiagnostics): Table[] {
  const amce: Table = {
    caption: `OLS coefficient beside AMCE (${d.metric})`,
    label: "tab:amce",
    columns: [
      { label: "version" },
      { label: "beta", align: "right" },
      { label: "AMCE", align: "right" },
      { label: "AMCE se", align: "right" },
      { label: "beta − AMCE", align: "right" },
    ],
    rows: d.amce.map((r) => [
      r.version_id,
      formatNumber(r.beta, 4),
      formatNumber(r.amce, 4),
      formatNumber(r.amce_se, 4),
      formatNumber(r.gap, 4),
    ]),
    notes: ["AMCE: mean delta with the version present minus mean delta with its slot absent."],
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
      { label: "gamma", align: "right" },
      { label: `se (${d.interactions.covariance})`, align: "right" },
      { label: "p", align: "right" },
      { label: "p (Holm)", align: "right" },
      { label: "flagged", align: "center" },
    ],
    rows: top.map((p) => [
      `${p.a} × ${p.b}`,
      formatNumber(p.gamma, 4),
      formatNumber(p.se, 4),
      formatNumber(p.p_value, 4),
      formatNumber(p.p_holm, 4),
      p.flagged ? "yes" : "no",
    ]),
    notes: [
      `${d.interactions.covariance} Wald F per pair, Holm over ${
        d.interactions.pairs.filter((p) => p.testable).length
      } testable pairs at ${d.interactions.alpha}.`,
      joint
        ? `Joint test of all products: F(${joint.df1}, ${joint.df2}) = ${
          formatNumber(joint.f, 3)
        }, p = ${formatNumber(joint.p_value, 4)}.`
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
      { label: "sd", align: "right" },
    ],
    rows: d.residuals_by_count.map((r) => [
      String(r.count),
      String(r.n),
      formatNumber(r.mean, 4),
      formatNumber(r.sd, 4),
    ]),
  };
  return [amce, interactions, residuals];
}

/** Power plan: the headline numbers and the MDE grids. */
export function powerTables(plan: PowerPlan): Table[] {
  const d = plan.design, s = plan.simulation;
  const headline: Table = {
    caption: "Power plan",
    label: "tab:power",
    columns: [{ label: "quantity" }, { label: "value", align: "right" }],
    rows: [
      ["tasks N", String(d.tasks)],
      ["columns M", String(d.columns)],
      ["p present", formatNumber(d.p_present, 3)],
      ["residual sd", formatNumber(d.resid_sd, 4)],
      ["budget K", String(d.budget_k)],
      ["se(beta), analytic", formatNumber(plan.analytic.se_beta, 4)],
      ["se(beta), simulated", formatNumber(s.simulated_se, 4)],
      ["MDE at 80% power, alpha 0.05", formatNumber(plan.analytic.mde_80, 4)],
      ["P(truly best K selected)", formatNumber(s.p_exact_best_set, 3)],
      ["mean recall of the best K", formatNumber(s.mean_best_recall, 3)],
    ],
    notes: [
      `${s.sims} simulated gates, seed ${s.seed}.`,
      ...(s.selection_note ? [s.selection_note] : []),
      plan.analytic.approximation,
    ],
  };
  const byTasks: Table = {
    caption: "Minimum detectable effect by number of tasks",
    label: "tab:power-tasks",
    columns: [{ label: "tasks", align: "right" }, { label: "se(beta)", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_tasks.map((
      r,
    ) => [String(r.tasks), formatNumber(r.se_beta, 4), formatNumber(r.mde_80, 4)]),
  };
  const byColumns: Table = {
    caption: "Minimum detectable effect by number of candidate columns",
    label: "tab:power-columns",
    columns: [{ label: "columns", align: "right" }, { label: "se(beta)", align: "right" }, {
      label: "MDE (80%)",
      align: "right",
    }],
    rows: plan.mde_by_columns.map((
      r,
    ) => [String(r.columns), formatNumber(r.se_beta, 4), formatNumber(r.mde_80, 4)]),
  };
  return [headline, byTasks, byColumns];
}
