/**
 * Figures of a history: the lifecycle chart (chunks by step, coloured by
 * status) and the coefficient trajectories with their intervals.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Figure, renderPlot } from "../figures/render.ts";
import type { HistoryDocument } from "./document.ts";

const STATUS_COLORS: Record<string, string> = {
  selected: "#2a9d4b",
  rewrite_loser: "#f2a541",
  non_positive: "#c8553d",
  budget_excluded: "#8e7dbe",
  not_estimable: "#999999",
  retired: "#555555",
};

/**
 * Lifecycle chart: one row per chunk, one column per step, a cell coloured
 * by the chunk's status at that step and labelled with its version and
 * status and transition; an empty cell where the chunk was not in the gate.
 *
 * @param doc history.json.
 * @returns The figure `history_lifecycle`.
 *
 * @example
 * ```ts
 * import { lifecycleFigure } from "./figures.ts";
 * import { ok } from "node:assert/strict";
 * const entry = { step: 1, version_id: "a.v1", role: "add" as const, estimate: 0.1, se: 0.05, ci_lower: 0, ci_upper: 0.2,
 *   interval: "hc3_normal" as const, status: "selected" as const, rank: 1, transition: "added" as const, others: [] };
 * // deno-lint-ignore no-explicit-any
 * const doc = { metric: "reward", steps: [{ step: 1, gate_ids: ["g"], checkpoint_id: "c1" }], chunks: { a: [entry] } } as any;
 * ok(lifecycleFigure(doc).svg.includes("a.v1 · selected · added"));
 * ```
 */
export function lifecycleFigure(doc: HistoryDocument): Figure {
  const chunks = Object.keys(doc.chunks);
  const stepLabel = (n: number) => {
    const s = doc.steps[n - 1]!;
    return `${n}: ${s.checkpoint_id ?? s.gate_ids.join("+")}`;
  };
  const cells = Object.entries(doc.chunks).flatMap(([chunk, entries]) =>
    entries.flatMap((e) =>
      e === null ? [] : [{
        chunk,
        step: stepLabel(e.step),
        status: e.status,
        label: `${e.version_id} · ${e.status} · ${e.transition}`,
      }]
    )
  );
  const statuses = Object.keys(STATUS_COLORS);
  // About 6 px per 10 px glyph: size the columns so every label fits its cell.
  const marginLeft = Math.min(300, 24 + 7 * Math.max(...chunks.map((c) => c.length)));
  const stepWidth = Math.max(180, 24 + 6 * Math.max(0, ...cells.map((c) => c.label.length)));
  return renderPlot("history_lifecycle", `Chunk lifecycles (${doc.metric})`, {
    width: marginLeft + stepWidth * doc.steps.length + 20,
    height: 50 + 24 * chunks.length,
    marginLeft,
    x: { domain: doc.steps.map((s) => stepLabel(s.step)), label: null, axis: "top" },
    y: { domain: chunks, label: null },
    color: { domain: statuses, range: statuses.map((s) => STATUS_COLORS[s]!) },
    marks: [
      Plot.cell(cells, { x: "step", y: "chunk", fill: "status", inset: 1 }),
      Plot.text(cells, { x: "step", y: "chunk", text: "label", fill: "white", fontSize: 10 }),
    ],
  });
}

/**
 * Coefficient trajectories: one panel per chunk that was selected at least
 * once, the representative version's coefficient by step with its
 * interval, coloured by status; a rule at zero.
 *
 * @param doc history.json.
 * @returns The figure `history_trajectories`.
 */
export function trajectoryFigure(doc: HistoryDocument): Figure {
  const chunks = Object.entries(doc.chunks).filter(([, es]) =>
    es.some((e) => e?.status === "selected")
  ).map(([c]) => c);
  const points = chunks.flatMap((chunk) =>
    doc.chunks[chunk]!.flatMap((e) =>
      e === null ? [] : [{
        chunk,
        step: e.step,
        estimate: e.estimate,
        lo: e.ci_lower,
        hi: e.ci_upper,
        status: e.status,
      }]
    )
  );
  const columns = Math.min(4, chunks.length);
  const cell = new Map(chunks.map((c, i) => [c, { fx: i % columns, fy: Math.floor(i / columns) }]));
  const data = points.map((p) => ({ ...p, ...cell.get(p.chunk)! }));
  const headers = chunks.map((chunk) => ({ chunk, ...cell.get(chunk)! }));
  const rows = Math.ceil(chunks.length / columns);
  const statuses = Object.keys(STATUS_COLORS);
  return renderPlot(
    "history_trajectories",
    `Coefficient trajectories with 95% intervals (${doc.metric})`,
    {
      width: 60 + 200 * columns,
      height: 60 + 170 * rows,
      marginTop: 24,
      x: { domain: doc.steps.map((s) => s.step), label: "step", type: "point", padding: 0.4 },
      y: { label: "coefficient", grid: true, nice: true },
      fx: { domain: [...Array(columns).keys()], axis: null, label: null },
      fy: { domain: [...Array(rows).keys()], axis: null, label: null },
      color: { domain: statuses, range: statuses.map((s) => STATUS_COLORS[s]!) },
      marks: [
        Plot.ruleY([0], { stroke: "#888" }),
        Plot.ruleX(data.filter((d) => d.lo !== null && d.hi !== null), {
          x: "step",
          y1: "lo",
          y2: "hi",
          fx: "fx",
          fy: "fy",
          stroke: "status",
          strokeWidth: 2,
        }),
        Plot.line(data, {
          x: "step",
          y: "estimate",
          z: "chunk",
          fx: "fx",
          fy: "fy",
          stroke: "#999",
        }),
        Plot.dot(data, { x: "step", y: "estimate", fx: "fx", fy: "fy", fill: "status", r: 3.5 }),
        Plot.text(headers, {
          fx: "fx",
          fy: "fy",
          text: "chunk",
          frameAnchor: "top",
          dy: -16,
          fontWeight: "bold",
          fontSize: 10,
        }),
      ],
    },
  );
}

/**
 * Every figure `gate history` writes, in order: the lifecycle chart and the
 * coefficient trajectories.
 *
 * @param doc history.json.
 * @returns `history_lifecycle` and `history_trajectories`.
 *
 * @example
 * ```ts
 * import { historyFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const entry = { step: 1, version_id: "a.v1", role: "add" as const, estimate: 0.1, se: 0.05, ci_lower: 0, ci_upper: 0.2,
 *   interval: "hc3_normal" as const, status: "selected" as const, rank: 1, transition: "added" as const, others: [] };
 * // deno-lint-ignore no-explicit-any
 * const doc = { metric: "reward", steps: [{ step: 1, gate_ids: ["g"], checkpoint_id: "c1" }], chunks: { a: [entry] } } as any;
 * deepEqual(historyFigures(doc).map((f) => f.name), ["history_lifecycle", "history_trajectories"]);
 * ```
 */
export function historyFigures(doc: HistoryDocument): Figure[] {
  return [lifecycleFigure(doc), trajectoryFigure(doc)];
}
