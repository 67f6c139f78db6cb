/**
 * Distribution of the paired delta R_i - B_i by the number of chunk
 * versions present in the episode's mask.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type Figure, renderPlot } from "./render.ts";
import { mean as ssMean } from "simple-statistics";

/** One episode: how many versions its mask had present, and its delta. */
export interface DeltaPoint {
  readonly count: number;
  readonly delta: number;
}

/** Options of {@linkcode deltaByCountPlot}. */
export interface DeltaByCountOptions {
  /**
   * Figure title.
   * @default {"Paired delta by number of chunks present"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"delta_by_count"}
   */
  readonly name?: string;
  /**
   * Axis label of the delta.
   * @default {"R − B"}
   */
  readonly yLabel?: string;
}

/**
 * Draws a box plot of the delta per count of present versions (box:
 * quartiles, whiskers 1.5 IQR, outliers as dots) with the group mean as a
 * red tick, a horizontal rule at zero, the episode count above each box,
 * and a legend line under the title. Non-finite deltas are dropped.
 *
 * @param points One point per episode.
 * @param options Title, name and axis label.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When no point has a finite delta.
 *
 * @example
 * ```ts
 * import { deltaByCountPlot } from "./delta_by_count.ts";
 * import { ok } from "node:assert/strict";
 * const fig = deltaByCountPlot([{ count: 0, delta: 0 }, { count: 1, delta: 0.5 }, { count: 1, delta: 1 }]);
 * ok(fig.svg.includes('aria-label="barY"') || fig.svg.includes("rect"));
 * ```
 */
export function deltaByCountPlot(
  points: readonly DeltaPoint[],
  options: DeltaByCountOptions = {},
): Figure {
  const data = points.filter((p) => Number.isFinite(p.delta) && Number.isFinite(p.count));
  if (data.length === 0) throw new RangeError("Cannot draw delta distribution: no finite deltas");
  const counts = [...new Set(data.map((p) => p.count))].sort((a, b) => a - b);
  const means = counts.map((count) => {
    const ds = data.filter((p) => p.count === count).map((p) => p.delta);
    return { count, mean: ssMean(ds), n: ds.length };
  });
  return renderPlot(
    options.name ?? "delta_by_count",
    options.title ?? "Paired delta by number of chunks present",
    {
      width: Math.max(360, 120 + 48 * counts.length),
      height: 320,
      marginLeft: 56,
      // The n= labels sit above the frame, where no box or outlier reaches.
      marginTop: 44,
      x: { domain: counts, label: "versions present in the mask", type: "band" },
      y: { label: options.yLabel ?? "R − B", grid: true },
      marks: [
        Plot.ruleY([0], { stroke: "#888", strokeWidth: 1.5 }),
        Plot.boxY(data, { x: "count", y: "delta", fill: "#c6d4f0", stroke: "#1f2a44" }),
        Plot.tickY(means, { x: "count", y: "mean", stroke: "#d62728", strokeWidth: 2 }),
        Plot.text(means, {
          x: "count",
          frameAnchor: "top",
          dy: -18,
          text: (d: { n: number }) => `n=${d.n}`,
          fill: "#555",
        }),
      ],
    },
    [
      "Box: quartiles; dark line: median; red line: mean; whiskers: 1.5 IQR; circles: outliers; " +
      "grey line: zero; n: episodes with that many versions present.",
    ],
  );
}
