/**
 * Figures of a sequential re-analysis: the confidence-sequence funnel of
 * every version over n with the fixed-n interval at N beside it, and the
 * point selection over n.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Figure, figureStem, renderPlot } from "../figures/render.ts";
import type { SequentialDocument } from "./sequential.ts";

/**
 * Funnels of one metric: per version, the confidence sequence at each n
 * (light), its running intersection (dark), the estimate (line) and, just
 * right of N, the fixed-n 95% interval (red). Values beyond three times the
 * largest fixed-n bound are drawn at that bound (the early sequences are
 * very wide), and so are estimates beyond it.
 *
 * @param doc sequential.json.
 * @param metric The metric.
 * @returns The figure `sequential_funnel_<metric>`.
 *
 * @example
 * ```ts
 * import { funnelFigure } from "./figures.ts";
 * import { ok } from "node:assert/strict";
 * const v = { estimate: [0.1, 0.2], cs_lower: [-5, 0.01], cs_upper: [5, 0.39], running_lower: [-5, 0.01],
 *   running_upper: [5, 0.39], fixed_n_interval: [0.1, 0.3] };
 * const doc = { metrics: { reward: { n: [20, 40], versions: { "a.v1": v } } } };
 * // deno-lint-ignore no-explicit-any
 * ok(funnelFigure(doc as any, "reward").svg.includes("a.v1"));
 * ```
 */
export function funnelFigure(doc: SequentialDocument, metric: string): Figure {
  const m = doc.metrics[metric]!;
  const ids = Object.keys(m.versions);
  const bound = 3 * Math.max(
    1e-9,
    ...ids.flatMap((id) => (m.versions[id]!.fixed_n_interval ?? [0, 0]).map(Math.abs)),
  );
  const clamp = (v: number | null) => v === null ? bound : Math.max(-bound, Math.min(bound, v));
  const columns = Math.min(4, ids.length);
  const cell = new Map(ids.map((id, i) => [id, { fx: i % columns, fy: Math.floor(i / columns) }]));
  const paths = ids.flatMap((id) => {
    const v = m.versions[id]!;
    return m.n.map((n, p) => ({
      id,
      n,
      estimate: v.estimate[p] === null || v.estimate[p] === undefined
        ? null
        : clamp(v.estimate[p]!),
      lo: v.cs_lower[p] === null ? -bound : clamp(v.cs_lower[p]!),
      hi: clamp(v.cs_upper[p] ?? null),
      runLo: v.running_lower[p] === null ? -bound : clamp(v.running_lower[p]!),
      runHi: clamp(v.running_upper[p] ?? null),
      ...cell.get(id)!,
    }));
  });
  const nMax = m.n[m.n.length - 1]!;
  const fixed = ids.flatMap((id) => {
    const f = m.versions[id]!.fixed_n_interval;
    return f ? [{ id, x: nMax * 1.04, lo: f[0], hi: f[1], ...cell.get(id)! }] : [];
  });
  const headers = ids.map((id) => ({ id, ...cell.get(id)! }));
  const rows = Math.ceil(ids.length / columns);
  return renderPlot(
    figureStem("sequential_funnel_", metric),
    `Anytime-valid confidence sequences over n (${metric}, alpha ${doc.alpha}); red: fixed-n 95% interval at N`,
    {
      width: 60 + 220 * columns,
      height: 60 + 170 * rows,
      marginTop: 24,
      x: { label: "n (rows)", domain: [0, nMax * 1.08] },
      y: { label: "coefficient", grid: true, domain: [-bound, bound] },
      fx: { domain: [...Array(columns).keys()], axis: null, label: null },
      fy: { domain: [...Array(rows).keys()], axis: null, label: null },
      marks: [
        Plot.areaY(paths, {
          x: "n",
          y1: "lo",
          y2: "hi",
          z: "id",
          fx: "fx",
          fy: "fy",
          fill: "#c6dbef",
        }),
        Plot.areaY(paths, {
          x: "n",
          y1: "runLo",
          y2: "runHi",
          z: "id",
          fx: "fx",
          fy: "fy",
          fill: "#6baed6",
        }),
        Plot.ruleY([0], { stroke: "#888" }),
        Plot.line(paths.filter((d) => d.estimate !== null), {
          x: "n",
          y: "estimate",
          z: "id",
          fx: "fx",
          fy: "fy",
          stroke: "#08306b",
        }),
        Plot.ruleX(fixed, {
          x: "x",
          y1: "lo",
          y2: "hi",
          fx: "fx",
          fy: "fy",
          stroke: "#c8553d",
          strokeWidth: 3,
        }),
        Plot.text(headers, {
          fx: "fx",
          fy: "fy",
          text: "id",
          frameAnchor: "top",
          dy: -16,
          fontWeight: "bold",
        }),
      ],
    },
  );
}

/**
 * The point selection over n: one bar per version for the stretches of n
 * in which it is selected; a rule where the selection becomes stable.
 *
 * @param doc sequential.json.
 * @param metric The metric.
 * @returns The figure `sequential_selection_<metric>`.
 *
 * @example
 * ```ts
 * import { selectionFigure } from "./figures.ts";
 * import { ok } from "node:assert/strict";
 * const doc = { metrics: { reward: { n: [20, 30, 40], selection: [null, ["a"], ["a", "b"]], selection_stable_from: 40,
 *   versions: { a: {}, b: {} } } } };
 * // deno-lint-ignore no-explicit-any
 * ok(selectionFigure(doc as any, "reward").svg.includes("stable from n = 40"));
 * ```
 */
export function selectionFigure(doc: SequentialDocument, metric: string): Figure {
  const m = doc.metrics[metric]!;
  const ids = Object.keys(m.versions);
  const bars: { id: string; x1: number; x2: number }[] = [];
  for (const id of ids) {
    let start: number | null = null;
    m.n.forEach((n, p) => {
      const on = m.selection[p]?.includes(id) ?? false;
      const previous = p === 0 ? n : m.n[p - 1]!;
      if (on && start === null) start = previous;
      if (!on && start !== null) {
        bars.push({ id, x1: start, x2: previous });
        start = null;
      }
    });
    if (start !== null) bars.push({ id, x1: start, x2: m.n[m.n.length - 1]! });
  }
  const stable = m.selection_stable_from;
  const marginLeft = Math.min(300, 24 + 7 * Math.max(...ids.map((c) => c.length)));
  return renderPlot(
    figureStem("sequential_selection_", metric),
    `Point selection over n (${metric}); ${
      stable === null ? "never stable" : `stable from n = ${stable}`
    }`,
    {
      width: marginLeft + 560,
      height: 60 + 22 * ids.length,
      marginLeft,
      x: { label: "n (rows)", domain: [0, m.n[m.n.length - 1]!] },
      y: { domain: ids, label: null },
      marks: [
        Plot.barX(bars, { x1: "x1", x2: "x2", y: "id", fill: "#2a9d4b" }),
        ...(stable === null
          ? []
          : [Plot.ruleX([stable], { stroke: "#c8553d", strokeDasharray: "4,3" })]),
      ],
    },
  );
}

/**
 * Every figure of a sequential re-analysis, in the order the command writes
 * them: per metric, its funnel, then its selection over n.
 *
 * @param doc sequential.json.
 * @returns `sequential_funnel_<metric>` and `sequential_selection_<metric>` for every metric.
 *
 * @example
 * ```ts
 * import { sequentialFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = { estimate: [0.1, 0.2], cs_lower: [-5, 0.01], cs_upper: [5, 0.39], running_lower: [-5, 0.01],
 *   running_upper: [5, 0.39], fixed_n_interval: [0.1, 0.3] };
 * const doc = { budget_k: 1, metrics: { reward: { n: [20, 40], selection: [["a.v1"], ["a.v1"]], selection_stable_from: 20,
 *   versions: { "a.v1": v } } } };
 * // deno-lint-ignore no-explicit-any
 * deepEqual(sequentialFigures(doc as any).map((f) => f.name), ["sequential_funnel_reward", "sequential_selection_reward"]);
 * ```
 */
export function sequentialFigures(doc: SequentialDocument): Figure[] {
  return Object.keys(doc.metrics).flatMap((m) => [funnelFigure(doc, m), selectionFigure(doc, m)]);
}
