/**
 * The standard figures of a gate analysis in one call (for notebooks and
 * the HTML report): coefficient forest per metric, paired delta by number
 * of chunks present, and selection stability when the bootstrap ran.
 *
 * @module
 */
import type { Figure } from "./render.ts";
import { forestPlot } from "./forest.ts";
import { deltaByCountPlot } from "./delta_by_count.ts";
import { stabilityPlot } from "./stability.ts";
import {
  type DeltaInput,
  deltaPoints,
  type ForestInput,
  forestRows,
  type IntervalSource,
  stabilityRows,
} from "./adapters.ts";
import {
  type SelectionJson,
  type StabilityJson,
  StabilitySchema,
} from "../contract/outputs/mod.ts";

const SOURCE_TEXT: Record<IntervalSource, string> = {
  bootstrap_percentile: "task bootstrap, percentile",
  normal_se_cluster: "±1.96 SE cluster",
  normal_se_hc3: "±1.96 SE HC3",
  none: "none",
};

/**
 * The selection-stability block of an analysis' bootstrap
 * (`contributions.bootstrap.stability`), checked, or null when the
 * bootstrap did not run or holds none.
 *
 * @param contributions contributions.json or lib/analyze's output.
 * @returns The stability block, or null.
 *
 * @example
 * ```ts
 * import { bootstrapStability } from "./analysis_figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(bootstrapStability({ bootstrap: null }), null);
 * ```
 */
export function bootstrapStability(
  contributions: { readonly bootstrap?: unknown },
): StabilityJson | null {
  const block = contributions.bootstrap;
  if (!block || typeof block !== "object") return null;
  const parsed = StabilitySchema.safeParse((block as Record<string, unknown>)["stability"]);
  return parsed.success ? parsed.data : null;
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
 * import { analysisFigures } from "./analysis_figures.ts";
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
