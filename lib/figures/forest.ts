/**
 * Coefficient forest plot: one row per version, a dot at the estimate and a
 * horizontal rule over its interval, one panel per metric.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type Figure, renderPlot } from "./render.ts";

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
  /**
   * Panels per row before wrapping to the next row.
   * @default {3}
   */
  readonly panelsPerRow?: number;
  /**
   * Legend lines under the title, after the line that explains the marks.
   * @default {[]}
   */
  readonly subtitle?: string | readonly string[];
  /**
   * What the bar shows, for the legend line.
   * @default {"95% interval"}
   */
  readonly intervalText?: string;
  /**
   * Sort rows by the estimate of the first group (the primary metric),
   * largest on top; `false` keeps the input order.
   * @default {true}
   */
  readonly sort?: boolean;
}

/** Groups whose rows repeat an earlier group's exactly: group to the group it repeats. */
function repeatedGroups(rows: readonly IntervalRow[]): Map<string, string> {
  const byGroup = new Map<string, string>();
  for (const r of rows) {
    const g = r.group ?? "";
    byGroup.set(g, (byGroup.get(g) ?? "") + JSON.stringify([r.label, r.estimate, r.lo, r.hi]));
  }
  const seen = new Map<string, string>();
  const repeats = new Map<string, string>();
  for (const [group, key] of byGroup) {
    const first = seen.get(key);
    if (first !== undefined) repeats.set(group, first);
    else seen.set(key, group);
  }
  return repeats;
}

/**
 * Draws a forest plot of estimates with intervals: rows sorted by the
 * estimate of the first group (largest on top), a vertical rule marks zero,
 * and rows with several groups get one panel per group, titled with the
 * group, `panelsPerRow` panels side by side and further panels wrapped
 * below. A group identical to an earlier one (same rows) is drawn once: its
 * name joins the panel title and a legend line says so. A legend under the
 * title explains dot, bar and the zero line. Rows with a `null` estimate
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
export function forestPlot(
  allRows: readonly IntervalRow[],
  options: ForestPlotOptions = {},
): Figure {
  if (allRows.length === 0) throw new RangeError("Cannot draw forest plot: no rows");
  const repeats = repeatedGroups(allRows);
  const alias = new Map<string, string[]>();
  for (const [group, first] of repeats) alias.set(first, [...(alias.get(first) ?? []), group]);
  const rows = allRows
    .filter((r) => !repeats.has(r.group ?? ""))
    .map((r) => {
      const same = alias.get(r.group ?? "");
      return same ? { ...r, group: [r.group ?? "", ...same].join(" = ") } : r;
    });
  const primary = rows[0]!.group ?? "";
  const order = new Map<string, number>();
  for (const r of rows) {
    if ((r.group ?? "") === primary) order.set(r.label, r.estimate ?? -Infinity);
  }
  const labels = [...new Set(rows.map((r) => r.label))];
  if (options.sort ?? true) {
    labels.sort((a, b) => (order.get(b) ?? -Infinity) - (order.get(a) ?? -Infinity));
  }
  const groups = [...new Set(rows.map((r) => r.group ?? ""))];
  const faceted = groups.length > 1 || groups[0] !== "";
  const columns = Math.min(groups.length, options.panelsPerRow ?? 3);
  const panelRows = Math.ceil(groups.length / columns);
  const marginLeft = Math.min(240, 16 + 6 * Math.max(...labels.map((l) => l.length)));
  const panelWidth = options.panelWidth ?? 220;
  // Panels are laid out in a grid: group i goes to column i % columns, row floor(i / columns).
  const cell = new Map(groups.map((g, i) => [g, { fx: i % columns, fy: Math.floor(i / columns) }]));
  const data = rows.map((r) => ({ ...r, group: r.group ?? "", ...cell.get(r.group ?? "")! }));
  const headers = groups.map((group) => ({ group, ...cell.get(group)! }));
  const withInterval = data.filter((r) => r.lo !== null && r.hi !== null);
  const withEstimate = data.filter((r) => r.estimate !== null);
  const panelHeight = 22 * labels.length + (faceted ? 24 : 0);
  const extra = typeof options.subtitle === "string"
    ? [options.subtitle]
    : [...(options.subtitle ?? [])];
  const legend = [
    `Dot: estimate; bar: ${options.intervalText ?? "95% interval"}; grey line: zero.` +
    (options.sort ?? true
      ? ` Rows sorted by the estimate${groups.length > 1 ? ` of ${primary}` : ""}.`
      : ""),
    ...[...repeats].map(([group, first]) =>
      `${group} is identical to ${first} in every row and is shown once.`
    ),
    ...extra,
  ];
  return renderPlot(options.name ?? "forest", options.title ?? "Coefficients with intervals", {
    width: marginLeft + panelWidth * columns + 20,
    height: 40 + panelHeight * panelRows,
    marginLeft,
    marginRight: 20,
    marginTop: faceted ? 24 : 10,
    x: { label: options.xLabel ?? "coefficient", grid: true, nice: true },
    y: { domain: labels, label: null, insetTop: faceted ? 20 : 0 },
    fx: { domain: [...Array(columns).keys()], axis: null, label: null },
    fy: { domain: [...Array(panelRows).keys()], axis: null, label: null },
    marks: [
      Plot.ruleX([0], { stroke: "#888", strokeWidth: 1.5 }),
      Plot.ruleY(withInterval, {
        y: "label",
        x1: "lo",
        x2: "hi",
        fx: "fx",
        fy: "fy",
        stroke: "#4269d0",
        strokeWidth: 2,
      }),
      Plot.dot(withEstimate, {
        y: "label",
        x: "estimate",
        fx: "fx",
        fy: "fy",
        fill: "#1f2a44",
        r: 3.5,
      }),
      ...(faceted
        ? [Plot.text(headers, {
          fx: "fx",
          fy: "fy",
          text: "group",
          frameAnchor: "top",
          dy: 4,
          fontWeight: "bold",
          fontSize: 11,
        })]
        : []),
    ],
  }, legend);
}
