/**
 * The table of pooled checkpoints (`gate analyze --pool-checkpoints`): per
 * metric, each version's pooled estimate beside each checkpoint's, with the
 * Wald test of equal effects (contributions.json `checkpoints`).
 *
 * @module
 */
import type { Table, TableColumn } from "../table/table.ts";
import { formatEstimate, formatP, formatStatistic } from "../table/format.ts";
import type { ContributionsJson } from "../contract/outputs/mod.ts";

/** What {@linkcode checkpointTables} reads of contributions.json. */
export interface CheckpointTablesInput {
  readonly checkpoints?: ContributionsJson["checkpoints"] | undefined;
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<Record<string, { readonly estimate: number }>>;
    }>
  >;
}

/**
 * One table per metric of `checkpoints` (none without pooled checkpoints),
 * skipping the metrics in `skip` (those repeating an earlier metric).
 *
 * @param contributions contributions.json.
 * @param skip Metrics not shown.
 * @returns The tables.
 *
 * @example
 * ```ts
 * import { checkpointTables } from "./checkpoint_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { run_id: "b", run_dir: "b", sha256: "0" };
 * const t = checkpointTables({
 *   metrics: { reward: { coefficients: { a: { estimate: 0.2 } } } },
 *   checkpoints: { method: "m", checkpoints: [{ checkpoint_id: "A", bare: run, gate_ids: ["g"], n: 2 }, { checkpoint_id: "B", bare: run, gate_ids: ["h"], n: 2 }],
 *     metrics: { reward: { coefficients: { a: { estimate: [0.1, 0.3], se_cluster: [0.05, 0.05], wald: { statistic: 4, df: 1, p: 0.0455 } } }, joint: { statistic: 4, df: 1, p: 0.0455 } } } },
 * });
 * deepEqual(t[0]!.rows, [["a", "0.200", "0.100", "0.300", "4.00", "1", "0.045"], ["all (joint)", "", "", "", "4.00", "1", "0.045"]]);
 * ```
 */
export function checkpointTables(
  contributions: CheckpointTablesInput,
  skip: ReadonlySet<string> = new Set(),
): Table[] {
  const block = contributions.checkpoints;
  if (block === undefined) return [];
  const ids = block.checkpoints.map((c) => c.checkpoint_id);
  return Object.entries(block.metrics).filter(([metric]) => !skip.has(metric)).map(
    ([metric, m]): Table => {
      const columns: TableColumn[] = [
        { label: "version" },
        { label: "pooled", align: "right" },
        ...ids.map((id): TableColumn => ({ label: id, align: "right" })),
        { label: "Wald chi2", align: "right" },
        { label: "df", align: "right" },
        { label: "p", align: "right" },
      ];
      const blank = ids.map(() => "");
      const test = (w: { statistic: number; df: number; p: number } | null) =>
        w === null ? ["—", "—", "—"] : [formatStatistic(w.statistic), String(w.df), formatP(w.p)];
      const rows = Object.entries(m.coefficients).map(([version, c]) => [
        version,
        formatEstimate(contributions.metrics[metric]?.coefficients[version]?.estimate ?? null),
        ...c.estimate.map(formatEstimate),
        ...test(c.wald),
      ]);
      if (m.unavailable === undefined) rows.push(["all (joint)", "", ...blank, ...test(m.joint)]);
      return {
        caption: `Coefficients per checkpoint, ${metric}: pooled and each checkpoint's, ` +
          `Wald test of equal effects`,
        columns,
        rows,
        label: `tab:checkpoints-${metric.replaceAll("_", "-")}`,
        notes: [
          ...(m.unavailable === undefined ? [] : [`Not available: ${m.unavailable}.`]),
          `Each checkpoint's estimates: ${block.method}.`,
          ...block.checkpoints.map((c) =>
            `${c.checkpoint_id}: gates ${c.gate_ids.join(", ")}, ${c.n} rows, bare run ` +
            `${c.bare.run_id} sha256 ${c.bare.sha256.slice(0, 12)}.`
          ),
        ],
      };
    },
  );
}
