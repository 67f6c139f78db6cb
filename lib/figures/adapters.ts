/**
 * Small adapters from gatelab's output files to the plain inputs of the
 * figure functions.
 *
 * @module
 */
import { columnNames } from "../report/format.ts";
import type { IntervalRow } from "./forest.ts";
import type { ContributionsJson, View } from "../contract/outputs/mod.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Coefficient = ContributionsJson["metrics"][string]["coefficients"][string];

/** What {@linkcode forestRows} reads of contributions.json. */
export interface ForestInput {
  /** Design columns, in column order. */
  readonly columns: ContributionsJson["columns"];
  /** Each version's estimate, standard errors and interval, per metric. */
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<
        Record<string, View<Coefficient, "estimate", "se_hc3" | "se_cluster" | "ci">>
      >;
    }>
  >;
}

/** z of the two-sided 95% normal interval used when no bootstrap interval exists. */
const Z95 = 1.959963984540054;

/** How {@linkcode forestRows} chose each interval. */
export type IntervalSource =
  | "bootstrap_percentile"
  | "normal_se_cluster"
  | "normal_se_hc3"
  | "none";

/** Options of {@linkcode forestRows}. */
export interface ForestRowsOptions {
  /**
   * Metrics to include, in panel order.
   * @default {all metrics of the file, in file order}
   */
  readonly metrics?: readonly string[];
}

/**
 * Forest-plot rows from contributions.json: one row per (metric, version)
 * in column order. The interval is the bootstrap percentile `ci` when the
 * coefficient has one, else estimate ± 1.96 × `se_cluster` (pooled gates)
 * or × `se_hc3`; the source is returned per row.
 *
 * @param contributions Parsed contributions.json.
 * @param options Metrics to include.
 * @returns Rows (group = metric) and the interval source of each row.
 *
 * @example
 * ```ts
 * import { forestRows } from "./adapters.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { rows, sources } = forestRows({
 *   columns: [{ version_id: "v1", slot_id: "s", chunk_id: "c", role: "add" }],
 *   metrics: { reward: { coefficients: { v1: { estimate: 0.5, se_hc3: 0.1 } } } },
 * });
 * deepEqual(rows[0]!.lo!.toFixed(4), "0.3040");
 * deepEqual(sources, ["normal_se_hc3"]);
 * ```
 */
export function forestRows(
  contributions: ForestInput,
  options: ForestRowsOptions = {},
): { rows: IntervalRow[]; sources: IntervalSource[] } {
  const metrics = options.metrics ?? Object.keys(contributions.metrics);
  const rows: IntervalRow[] = [];
  const sources: IntervalSource[] = [];
  // Readable names, as in the tables: a one-version slot by its chunk.
  const names = columnNames(contributions.columns);
  for (const metric of metrics) {
    const m = contributions.metrics[metric];
    if (!m) continue;
    for (const column of contributions.columns) {
      const c = m.coefficients[column.version_id];
      if (!c) continue;
      let lo: number | null = null, hi: number | null = null;
      let source: IntervalSource = "none";
      if (c.ci) {
        [lo, hi] = c.ci;
        source = "bootstrap_percentile";
      } else if (c.estimate !== null) {
        const se = c.se_cluster ?? c.se_hc3 ?? null;
        if (se !== null && Number.isFinite(se)) {
          lo = c.estimate - Z95 * se;
          hi = c.estimate + Z95 * se;
          source = c.se_cluster != null ? "normal_se_cluster" : "normal_se_hc3";
        }
      }
      rows.push({
        label: names.get(column.version_id) ?? column.version_id,
        estimate: c.estimate,
        lo,
        hi,
        group: metric,
      });
      sources.push(source);
    }
  }
  return { rows, sources };
}
