/**
 * The e-value paths of a ladder gate over blocks (log scale) with the
 * 1/alpha threshold.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Figure, figureStem, renderPlot } from "../figures/render.ts";
import type { LadderResultDocument } from "./document.ts";

/**
 * @param doc ladder_result.json.
 * @returns The figure `ladder_<task_type>` (task type reduced to file-safe characters).
 *
 * @example
 * ```ts
 * import { ladderFigure } from "./figures.ts";
 * import { ok } from "node:assert/strict";
 * const doc = { task_type: "count", exit: "accept", exit_block: 1, alpha: 0.05, threshold: 20,
 *   blocks: [{ block: 0, e_accept: 15.6, e_reject: 0.1 }, { block: 1, e_accept: 360.8, e_reject: 0.06 }] };
 * // deno-lint-ignore no-explicit-any
 * ok(ladderFigure(doc as any).svg.includes("exit accept"));
 * ```
 */
export function ladderFigure(doc: LadderResultDocument): Figure {
  const points = doc.blocks.flatMap((b) => [
    { block: b.block, e: Math.max(b.e_accept, 1e-6), process: "accept (candidate better)" },
    { block: b.block, e: Math.max(b.e_reject, 1e-6), process: "reject (candidate worse)" },
  ]);
  return renderPlot(
    figureStem("ladder_", doc.task_type),
    `Ladder ${doc.task_type}: e-processes by block (green accept, red reject), exit ${
      doc.exit ?? "none"
    }`,
    {
      width: 640,
      height: 320,
      x: { label: "block", ticks: doc.blocks.map((b) => b.block), tickFormat: "d" },
      y: { type: "log", label: "e-value", grid: true },
      color: {
        domain: ["accept (candidate better)", "reject (candidate worse)"],
        range: ["#2a9d4b", "#c8553d"],
      },
      marks: [
        Plot.ruleY([doc.threshold], { stroke: "#333", strokeDasharray: "4,3" }),
        Plot.ruleY([1], { stroke: "#aaa" }),
        // Dots as their own mark, not `marker: "circle"`: Plot numbers marker ids with a
        // process-wide counter, so the SVG would depend on how many figures came before.
        Plot.line(points, { x: "block", y: "e", stroke: "process" }),
        Plot.dot(points, { x: "block", y: "e", fill: "process", r: 3 }),
      ],
    },
  );
}

/**
 * Every figure `gate ladder` writes: the e-value paths.
 *
 * @param doc ladder_result.json.
 * @returns One figure, `ladder_<task_type>`.
 *
 * @example
 * ```ts
 * import { ladderFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = { task_type: "count", exit: "accept", exit_block: 0, alpha: 0.05, threshold: 20,
 *   blocks: [{ block: 0, e_accept: 21, e_reject: 0.1 }] };
 * // deno-lint-ignore no-explicit-any
 * deepEqual(ladderFigures(doc as any).map((f) => f.name), ["ladder_count"]);
 * ```
 */
export function ladderFigures(doc: LadderResultDocument): Figure[] {
  return [ladderFigure(doc)];
}
