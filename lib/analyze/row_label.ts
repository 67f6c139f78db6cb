/**
 * Labels of dataset rows in messages.
 *
 * @module
 */

import { episodeLabel, type PairedDataset } from "../core/types.ts";

/**
 * A labeller of dataset rows: `split/task_id/sample_id`, with `@gate_id`
 * appended when gates are pooled.
 *
 * @param dataset The validated dataset.
 * @returns Row index -> label.
 *
 * @example
 * ```ts
 * import { rowLabeler } from "./row_label.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = {
 *   episodes: [{ split: "val", task_id: "t1", sample_id: 0 }],
 *   gates: [{ gate_id: "g1" }, { gate_id: "g2" }], gateIndex: Uint16Array.from([1]),
 * };
 * deepEqual(rowLabeler(dataset as never)(0), "val/t1/0@g2");
 * ```
 */
export function rowLabeler(
  dataset: Pick<PairedDataset, "episodes" | "gates" | "gateIndex">,
): (row: number) => string {
  const pooled = dataset.gates.length > 1;
  return (i: number): string => {
    const label = episodeLabel(dataset.episodes[i]!);
    return pooled ? `${label}@${dataset.gates[dataset.gateIndex[i]!]!.gate_id}` : label;
  };
}
