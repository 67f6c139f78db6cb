/**
 * Coefficient forest plot: one row per version, a dot at the estimate and a
 * horizontal rule over its interval, one panel per metric.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type Figure, renderPlot } from "./_render.ts";

/** One estimate with its interval; `group` names the panel (e.g. the metric). */
export interface IntervalRow {
  readonly label: string;
  readonly estimate: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
  /** Panel the row belongs to; rows without a group share one panel. */
  readonly group?: string;
}

/** Options of {@linkcode forestPlot}. */
export interface ForestPlotOptions {
  /**
   * Figure title.
   * @default {"Coefficients with intervals"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"forest"}
   */
  readonly name?: string;
  /**
   * Axis label of the estimates.
   * @default {"coefficient"}
   */
  readonly xLabel?: string;
  /**
   * Width of one panel in pixels.
   * @default {220}
   */
  readonly panelWidth?: number;
}

/**
 * Draws a forest plot of estimates with intervals: rows keep their input
 * order top to bottom, a vertical rule marks zero, and rows with several
 * groups get one panel per group side by side. Rows with a `null` estimate
 * are drawn as an interval only; rows with a `null` interval as a dot only.
 *
 * @param rows Estimates with intervals.
 * @param options Title, name, axis label and panel width.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When `rows` is empty.
 *
 * @example
 * ```ts
 * import { forestPlot } from "./forest.ts";
 * import { ok } from "node:assert/strict";
 * const fig = forestPlot([
 *   { label: "c1", estimate: 0.1, lo: 0.02, hi: 0.18, group: "reward" },
 *   { label: "c2", estimate: -0.05, lo: -0.12, hi: 0.01, group: "reward" },
 * ]);
 * ok(fig.svg.startsWith("<svg") && fig.svg.includes(">c2</text>"));
 * ```
 */
export function forestPlot(rows: readonly IntervalRow[], options: ForestPlotOptions = {}): Figure {
  if (rows.length === 0) throw new RangeError("Cannot draw forest plot: no rows");
  const labels = [...new Set(rows.map((r) => r.label))];
  const groups = [...new Set(rows.map((r) => r.group ?? ""))];
  const faceted = groups.length > 1 || groups[0] !== "";
  const marginLeft = Math.min(240, 16 + 6 * Math.max(...labels.map((l) => l.length)));
  const panelWidth = options.panelWidth ?? 220;
  const data = rows.map((r) => ({ ...r, group: r.group ?? "" }));
  const withInterval = data.filter((r) => r.lo !== null && r.hi !== null);
  const withEstimate = data.filter((r) => r.estimate !== null);
  return renderPlot(options.name ?? "forest", options.title ?? "Coefficients with intervals", {
    width: marginLeft + panelWidth * groups.length + 20,
    height: 50 + 22 * labels.length + (faceted ? 20 : 0),
    marginLeft,
    marginRight: 20,
    x: { label: options.xLabel ?? "coefficient", grid: true, nice: true },
    y: { domain: labels, label: null },
    fx: { domain: groups, label: null, axis: faceted ? "top" : null },
    marks: [
      Plot.ruleX([0], { stroke: "#888" }),
      Plot.ruleY(withInterval, {
        y: "label",
        x1: "lo",
        x2: "hi",
        fx: "group",
        stroke: "#4269d0",
        strokeWidth: 2,
      }),
      Plot.dot(withEstimate, {
        y: "label",
        x: "estimate",
        fx: "group",
        fill: "#1f2a44",
        r: 3.5,
      }),
    ],
  });
}
