/**
 * Held-out rank agreement: each version's rank on the validation gate
 * against its rank on held-out data, with the line of perfect agreement.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type Figure, renderPlot } from "./render.ts";

/** One version's position on validation and on held-out data. */
export interface RankPoint {
  /** Version id shown beside the point. */
  readonly label: string;
  /** Rank (1 = best) or score on the validation gate. */
  readonly validation: number;
  /** Rank (1 = best) or score on held-out data. */
  readonly heldOut: number;
}

/** Options of {@linkcode rankAgreementPlot}. */
export interface RankAgreementOptions {
  /**
   * Figure title.
   * @default {"Held-out rank agreement"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"heldout_rank_agreement"}
   */
  readonly name?: string;
  /**
   * Axis labels.
   * @default {["validation rank", "held-out rank"]}
   */
  readonly axisLabels?: readonly [string, string];
  /** A line printed under the title, e.g. `Spearman rho = 0.71`. */
  readonly subtitle?: string;
  /**
   * Whether to print each point's label next to it (turn off for many points).
   * @default {true}
   */
  readonly showLabels?: boolean;
}

/**
 * Draws a labelled scatter of validation against held-out position with the
 * diagonal y = x; points on the diagonal agree perfectly.
 *
 * @param points One point per version.
 * @param options Title, name, axis labels and subtitle.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When `points` is empty or holds a non-finite value.
 *
 * @example
 * ```ts
 * import { rankAgreementPlot } from "./heldout.ts";
 * import { ok } from "node:assert/strict";
 * const fig = rankAgreementPlot([{ label: "v1", validation: 1, heldOut: 2 }, { label: "v2", validation: 2, heldOut: 1 }]);
 * ok(fig.svg.includes(">v1</text>") && fig.svg.includes("<circle"));
 * ```
 */
export function rankAgreementPlot(
  points: readonly RankPoint[],
  options: RankAgreementOptions = {},
): Figure {
  if (points.length === 0) throw new RangeError("Cannot draw rank agreement: no points");
  for (const p of points) {
    if (!Number.isFinite(p.validation) || !Number.isFinite(p.heldOut)) {
      throw new RangeError(`Cannot draw rank agreement: "${p.label}" has a non-finite value`);
    }
  }
  const values = points.flatMap((p) => [p.validation, p.heldOut]);
  const lo = Math.min(...values), hi = Math.max(...values);
  const pad = hi > lo ? (hi - lo) * 0.08 : 1;
  const domain = [lo - pad, hi + pad];
  const [xLabel, yLabel] = options.axisLabels ?? ["validation rank", "held-out rank"];
  const showLabels = options.showLabels ?? true;
  const longest = showLabels ? Math.max(...points.map((p) => p.label.length)) : 0;
  const marks = [
    Plot.line([[domain[0], domain[0]], [domain[1], domain[1]]], {
      stroke: "#bbb",
      strokeDasharray: "4 3",
    }),
    Plot.dot(points, { x: "validation", y: "heldOut", fill: "#4269d0", r: 4 }),
    ...(showLabels
      ? [
        Plot.text(points, {
          x: "validation",
          y: "heldOut",
          text: "label",
          textAnchor: "start",
          dx: 6,
          fontSize: 9,
        }),
      ]
      : []),
  ];
  return renderPlot(
    options.name ?? "heldout_rank_agreement",
    options.title ?? "Held-out rank agreement",
    {
      height: 420,
      marginLeft: 56,
      marginTop: 30,
      marginRight: Math.min(220, 20 + 5.5 * longest),
      width: 400 + Math.min(220, 20 + 5.5 * longest),
      x: { domain, label: xLabel, grid: true },
      y: { domain, label: yLabel, grid: true },
      marks,
    },
    [
      ...(options.subtitle !== undefined ? [options.subtitle] : []),
      `Dot: one ${showLabels ? "version" : "split"}; dashed line: equal values (y = x).`,
    ],
  );
}
