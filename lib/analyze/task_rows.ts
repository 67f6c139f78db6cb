/**
 * The `tasks` of contributions.json: one row per (gate, episode).
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { TaskRow } from "./types.ts";

/**
 * One row per dataset row: episode key, `gate_id` when gates are pooled,
 * the 0/1 design columns by version_id and masked/bare/delta per metric.
 *
 * @param dataset The validated dataset.
 * @returns The rows in dataset order.
 *
 * @example
 * ```ts
 * import { taskRows } from "./task_rows.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = { n: 1, k: 1, columns: [{ version_id: "a" }], design: Uint8Array.from([1]),
 *   metrics: ["reward"], masked: { reward: [0.5] }, bare: { reward: [0.25] }, delta: { reward: [0.25] },
 *   episodes: [{ split: "val", task_id: "t", sample_id: 0 }], gates: [{ gate_id: "g" }], gateIndex: [0] };
 * deepEqual(taskRows(dataset as never), [{ split: "val", task_id: "t", sample_id: 0, columns: { a: 1 },
 *   values: { reward: { masked: 0.5, bare: 0.25, delta: 0.25 } } }]);
 * ```
 */
export function taskRows(
  dataset: Pick<
    PairedDataset,
    | "n"
    | "k"
    | "columns"
    | "design"
    | "metrics"
    | "masked"
    | "bare"
    | "delta"
    | "episodes"
    | "gates"
    | "gateIndex"
  >,
): TaskRow[] {
  const { n, k, columns } = dataset;
  const pooled = dataset.gates.length > 1;
  const tasks: TaskRow[] = [];
  for (let i = 0; i < n; i++) {
    const e = dataset.episodes[i]!;
    const cols: Record<string, 0 | 1> = {};
    columns.forEach((c, j) => (cols[c.version_id] = dataset.design[i * k + j] ? 1 : 0));
    const values: Record<string, { masked: number; bare: number; delta: number }> = {};
    for (const m of dataset.metrics) {
      values[m] = {
        masked: dataset.masked[m]![i]!,
        bare: dataset.bare[m]![i]!,
        delta: dataset.delta[m]![i]!,
      };
    }
    tasks.push({
      split: e.split,
      task_id: e.task_id,
      sample_id: e.sample_id,
      ...(pooled ? { gate_id: dataset.gates[dataset.gateIndex[i]!]!.gate_id } : {}),
      columns: cols,
      values,
    });
  }
  return tasks;
}
