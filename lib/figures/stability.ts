/**
 * Selection stability: how often each version is selected across bootstrap
 * resamples (or rounds), as horizontal bars.
 *
 * @module
 */
import { formatRate } from "../table/format.ts";
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Figure, renderPlot } from "./render.ts";

/** One version's selection frequency in [0, 1]. */
export interface StabilityRow {
  readonly label: string;
  readonly frequency: number;
  /** Whether the version is selected on the full data (bars are darker). */
  readonly selected?: boolean;
}

/** Options of {@linkcode stabilityPlot}. */
export interface StabilityPlotOptions {
  /**
   * Figure title.
   * @default {"Selection stability per version"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"selection_stability"}
   */
  readonly name?: string;
  /**
   * Axis label of the frequency.
   * @default {"share of resamples selecting the version"}
   */
  readonly xLabel?: string;
}

/**
 * Draws one bar per version with its selection frequency, in input order,
 * darker for versions selected on the full data, with the frequency printed
 * at the bar's end.
 *
 * @param rows Versions with frequencies in [0, 1].
 * @param options Title, name and axis label.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When `rows` is empty or a frequency is outside [0, 1].
 *
 * @example
 * ```ts
 * import { stabilityPlot } from "./stability.ts";
 * import { ok } from "node:assert/strict";
 * const fig = stabilityPlot([{ label: "v1", frequency: 0.9, selected: true }, { label: "v2", frequency: 0.2 }]);
 * ok(fig.svg.includes(">0.900</text>") && fig.svg.includes(">v2</text>"));
 * ```
 */
export function stabilityPlot(
  rows: readonly StabilityRow[],
  options: StabilityPlotOptions = {},
): Figure {
  if (rows.length === 0) throw new RangeError("Cannot draw selection stability: no rows");
  for (const r of rows) {
    if (!(r.frequency >= 0 && r.frequency <= 1)) {
      throw new RangeError(
        `Cannot draw selection stability: frequency of "${r.label}" is ${r.frequency}, not in [0, 1]`,
      );
    }
  }
  const labels = rows.map((r) => r.label);
  const marginLeft = Math.min(240, 16 + 6 * Math.max(...labels.map((l) => l.length)));
  return renderPlot(
    options.name ?? "selection_stability",
    options.title ?? "Selection stability per version",
    {
      width: marginLeft + 420,
      height: 50 + 22 * labels.length,
      marginLeft,
      marginRight: 40,
      x: {
        domain: [0, 1],
        label: options.xLabel ?? "share of resamples selecting the version",
        grid: true,
      },
      y: { domain: labels, label: null },
      marks: [
        Plot.barX(rows, {
          y: "label",
          x: "frequency",
          fill: (r: StabilityRow) => (r.selected ? "#4269d0" : "#c6d4f0"),
        }),
        Plot.text(rows, {
          y: "label",
          x: "frequency",
          text: (r: StabilityRow) => formatRate(r.frequency),
          textAnchor: "start",
          dx: 4,
        }),
        Plot.ruleX([0]),
      ],
    },
    [
      "Dark bar: selected on the full data; pale bar: not selected. Bar length and number: " +
      "share of task-bootstrap draws whose selection includes the version.",
    ],
  );
}
