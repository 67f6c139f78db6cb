/**
 * The figures of a gate analysis in one call (for notebooks and the HTML
 * report), with the adapters from contributions.json and selection.json to
 * the generic plots' inputs: coefficient forest per metric, paired delta by number
 * of chunks present, and selection stability when the bootstrap ran.
 *
 * @module
 */
import type { Figure } from "../table/figure.ts";
import { forestPlot, type IntervalRow } from "../figures/forest.ts";
import { deltaByCountPlot, type DeltaPoint } from "../figures/delta_by_count.ts";
import { stabilityPlot, type StabilityRow } from "../figures/stability.ts";
import { columnNames } from "../table/format.ts";
import { Z975 } from "../math/normal.ts";
import type { ContributionsJson, SelectionJson, View } from "../contract/outputs/mod.ts";
import { bootstrapStability } from "./stability_block.ts";

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
 * import { forestRows } from "./figures.ts";
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
          lo = c.estimate - Z975 * se;
          hi = c.estimate + Z975 * se;
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

const SOURCE_TEXT: Record<IntervalSource, string> = {
  bootstrap_percentile: "task bootstrap, percentile",
  normal_se_cluster: "±1.96 SE cluster",
  normal_se_hc3: "±1.96 SE HC3",
  none: "none",
};

/** What {@linkcode deltaPoints} reads of contributions.json. */
export interface DeltaInput {
  /** Paired rows: design and values (absent: no delta-by-count figure). */
  readonly tasks?:
    | readonly Pick<NonNullable<ContributionsJson["tasks"]>[number], "columns" | "values">[]
    | undefined;
}

/**
 * Delta points from the `tasks` of contributions.json: per episode, the
 * number of versions present and the delta of `metric`.
 *
 * @param contributions Parsed contributions.json.
 * @param metric Metric whose delta is taken.
 * @returns One point per task row with a finite delta (none if `tasks` is absent).
 *
 * @example
 * ```ts
 * import { deltaPoints } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const points = deltaPoints({
 *   tasks: [{ columns: { a: 1, b: 1, c: 0 }, values: { reward: { masked: 1, bare: 0, delta: 1 } } }],
 * }, "reward");
 * deepEqual(points, [{ count: 2, delta: 1 }]);
 * ```
 */
export function deltaPoints(
  contributions: DeltaInput,
  metric: string,
): DeltaPoint[] {
  const out: DeltaPoint[] = [];
  for (const task of contributions.tasks ?? []) {
    const delta = task.values[metric]?.delta;
    if (delta === null || delta === undefined || !Number.isFinite(delta)) continue;
    let count = 0;
    for (const v of Object.values(task.columns)) count += v;
    out.push({ count, delta });
  }
  return out;
}

/**
 * Stability rows: selection frequencies per version, in the order of the
 * selection's decisions, marked selected when the full-data selection
 * picked them, named like the tables (a slot with one version by its
 * chunk or slot). Versions without a frequency are left out.
 *
 * @param selection Parsed selection.json.
 * @param frequencies Version id to share of resamples that selected it.
 * @returns Rows for {@linkcode stabilityPlot}.
 *
 * @example
 * ```ts
 * import { stabilityRows } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rows = stabilityRows({ selected: ["a"],
 *   decisions: [{ slot_id: "s", version_id: "a", role: "add", alpha: 1, rank: 1, status: "selected", retired: false }] },
 *   { a: 0.75 });
 * deepEqual(rows, [{ label: "s", frequency: 0.75, selected: true }]);
 * ```
 */
export function stabilityRows(
  selection: Pick<SelectionJson, "selected" | "decisions">,
  frequencies: Readonly<Record<string, number>>,
): StabilityRow[] {
  const selected = new Set(selection.selected);
  const order = selection.decisions.map((d) => d.version_id);
  for (const id of Object.keys(frequencies)) if (!order.includes(id)) order.push(id);
  const names = columnNames(selection.decisions);
  return order
    .filter((id) => frequencies[id] !== undefined)
    .map((id) => ({
      label: names.get(id) ?? id,
      frequency: frequencies[id]!,
      selected: selected.has(id),
    }));
}

/** What {@linkcode analysisFigures} draws from. */
export interface AnalysisFigureInputs {
  /** Columns, metrics and tasks of contributions.json (plus its bootstrap block when it ran). */
  readonly contributions: ForestInput & DeltaInput & { readonly bootstrap?: unknown };
  /** The selection, to mark selected versions; none to mark nothing. */
  readonly selection?: Pick<SelectionJson, "metric" | "selected" | "decisions"> | null;
}

/**
 * Forest plot of every metric, delta distribution of the selection metric
 * by versions present, and (when the bootstrap ran) selection stability.
 *
 * @param analysis Contributions and selection (lib/analyze output or parsed files).
 * @returns The figures, in that order.
 *
 * @example
 * ```ts
 * import { analysisFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const figures = analysisFigures({ contributions: {
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" }],
 *   metrics: { reward: { coefficients: { a: { estimate: 0.1, se_hc3: 0.05 } } } },
 *   tasks: [{ columns: { a: 1 }, values: { reward: { masked: 1, bare: 0, delta: 1 } } }] } });
 * deepEqual(figures.map((f) => f.name), ["forest", "delta_by_count"]);
 * ```
 */
export function analysisFigures(analysis: AnalysisFigureInputs): Figure[] {
  const { contributions, selection } = analysis;
  const figures: Figure[] = [];
  const { rows, sources } = forestRows(contributions);
  if (rows.length > 0) {
    const kinds = [...new Set(sources)].map((s) => SOURCE_TEXT[s]).join("; ");
    figures.push(forestPlot(rows, {
      title: "Coefficients per metric",
      intervalText: `95% interval (${kinds})`,
    }));
  }
  const metric = selection?.metric ??
    (contributions.metrics["reward"] ? "reward" : Object.keys(contributions.metrics)[0]);
  const points = metric === undefined ? [] : deltaPoints(contributions, metric);
  if (points.length > 0) {
    figures.push(
      deltaByCountPlot(points, { title: `Paired delta of ${metric} by number of chunks present` }),
    );
  }
  const stability = bootstrapStability(contributions);
  if (selection && stability && stability.metric === selection.metric) {
    const frequencies: Record<string, number> = {};
    for (const v of stability.versions) frequencies[v.version_id] = v.selected_frequency;
    figures.push(
      stabilityPlot(stabilityRows(selection, frequencies), {
        title:
          `Selection stability over ${stability.draws_used} bootstrap draws (K = ${stability.budget_k})`,
      }),
    );
  }
  return figures;
}
