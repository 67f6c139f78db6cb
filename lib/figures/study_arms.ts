/**
 * Study estimates: per arm (or comparison) the point estimate, its
 * percentile interval, and the bounds that unresolved slots leave open.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type Figure, renderPlot } from "./render.ts";

/** One arm or comparison of a study (docs/FORMAT.md section 6). */
export interface StudyRow {
  /** Arm or comparison name. */
  readonly label: string;
  /** `null` when some slot is unresolved. */
  readonly estimate: number | null;
  /** Percentile interval, or `null` (incomplete, or none computed). */
  readonly ci: readonly [number, number] | null;
  /** Worst and best case over unresolved slots. */
  readonly bounds: readonly [number, number];
}

/** Options of {@linkcode studyPlot}. */
export interface StudyPlotOptions {
  /**
   * Figure title.
   * @default {"Study estimates with intervals and unresolved bounds"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"study"}
   */
  readonly name?: string;
  /**
   * Axis label.
   * @default {"resolved rate"}
   */
  readonly xLabel?: string;
  /**
   * Draw a rule at zero (for differences, where the sign matters).
   * @default {false}
   */
  readonly zeroLine?: boolean;
}

/**
 * Draws per row a wide pale bar over the bounds, a dark rule over the
 * interval and a dot at the estimate; a row without an estimate is marked
 * "unresolved" at the right of its bounds; a legend line under the title
 * explains the marks.
 *
 * @param rows Arms or comparisons, drawn top to bottom in input order.
 * @param options Title, name and axis label.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When `rows` is empty.
 *
 * @example
 * ```ts
 * import { studyPlot } from "./study_arms.ts";
 * import { ok } from "node:assert/strict";
 * const fig = studyPlot([
 *   { label: "M", estimate: 0.4, ci: [0.3, 0.5], bounds: [0.4, 0.4] },
 *   { label: "B", estimate: null, ci: null, bounds: [0.2, 0.35] },
 * ]);
 * ok(fig.svg.includes(">unresolved</text>"));
 * ```
 */
export function studyPlot(rows: readonly StudyRow[], options: StudyPlotOptions = {}): Figure {
  if (rows.length === 0) throw new RangeError("Cannot draw study estimates: no rows");
  const labels = rows.map((r) => r.label);
  const marginLeft = Math.min(240, 16 + 6 * Math.max(...labels.map((l) => l.length)));
  const data = rows.map((r) => ({
    label: r.label,
    estimate: r.estimate,
    lo: r.ci?.[0] ?? null,
    hi: r.ci?.[1] ?? null,
    blo: r.bounds[0],
    bhi: r.bounds[1],
  }));
  return renderPlot(
    options.name ?? "study",
    options.title ?? "Study estimates with intervals and unresolved bounds",
    {
      width: marginLeft + 460,
      height: 50 + 26 * labels.length,
      marginLeft,
      marginRight: 80,
      x: { label: options.xLabel ?? "resolved rate", grid: true, nice: true },
      y: { domain: labels, label: null },
      marks: [
        ...(options.zeroLine ? [Plot.ruleX([0], { stroke: "#888", strokeWidth: 1.5 })] : []),
        Plot.ruleY(data, { y: "label", x1: "blo", x2: "bhi", stroke: "#c6d4f0", strokeWidth: 10 }),
        Plot.tickX(data, { y: "label", x: "blo", stroke: "#8aa2d8" }),
        Plot.tickX(data, { y: "label", x: "bhi", stroke: "#8aa2d8" }),
        Plot.ruleY(data.filter((d) => d.lo !== null && d.hi !== null), {
          y: "label",
          x1: "lo",
          x2: "hi",
          stroke: "#1f2a44",
          strokeWidth: 2,
        }),
        Plot.dot(data.filter((d) => d.estimate !== null), {
          y: "label",
          x: "estimate",
          fill: "#1f2a44",
          r: 3.5,
        }),
        Plot.text(data.filter((d) => d.estimate === null), {
          y: "label",
          x: "bhi",
          text: () => "unresolved",
          textAnchor: "start",
          dx: 8,
          fill: "#a33",
        }),
      ],
    },
    [
      "Dot: estimate; dark bar: 95% bootstrap percentile interval; pale band between ticks: " +
      "bounds if every unresolved slot failed or succeeded" +
      (options.zeroLine ? "; grey line: zero" : "") +
      ". Unresolved: no estimate while a slot is unresolved.",
    ],
  );
}
