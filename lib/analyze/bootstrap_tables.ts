/**
 * Tables of the task bootstrap (lib/infer/bootstrap): bootstrap intervals and
 * selection stability, as {@linkcode Table} models for `toMarkdown` and
 * `toLatex` (lib/table/table.ts).
 *
 * @module
 */
import { conventionLabel } from "../core/conventions.ts";
import type { SelectionStability } from "../infer/bootstrap/bootstrap.ts";
import {
  COEFFICIENT,
  columnNames,
  formatCount,
  formatEstimate,
  formatPercent,
  formatRate,
  formatWithInterval,
  intervalHeader,
  type NamedColumn,
} from "../table/format.ts";
import type { Table } from "../table/table.ts";

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
 * import { bootstrapTable } from "./bootstrap_tables.ts";
 * import { toMarkdown } from "../table/table.ts";
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
        label: intervalHeader(COEFFICIENT, `task bootstrap, ${conventionLabel(result.interval)}`),
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
