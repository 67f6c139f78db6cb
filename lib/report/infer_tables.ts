/**
 * Tables of the inference stage (lib/infer): bootstrap intervals, selection
 * stability and misfit diagnostics, as {@linkcode Table} models for
 * {@linkcode toMarkdown} and {@linkcode toLatex} (held-out and power tables:
 * lib/infer/heldout/tables.ts, lib/infer/power/tables.ts).
 *
 * @module
 */
import type { MisfitDiagnostics } from "../infer/diagnostics/diagnostics.ts";
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
