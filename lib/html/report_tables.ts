/**
 * The tables of the HTML report, built on the shared {@linkcode Table}
 * model so they can also be rendered as Markdown or LaTeX.
 *
 * @module
 */
import type { Table } from "../report/table.ts";
import { formatCount, formatEstimate } from "../report/format.ts";
import { MODEL_NOTE } from "../report/gate_tables.ts";
import type { ContributionsJson, View } from "../contract/outputs/mod.ts";

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
 * import { overviewTable } from "./report_tables.ts";
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
 * import { metricMeansTable } from "./report_tables.ts";
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
