/**
 * The order in which a sequential re-analysis feeds a gate's paired rows:
 * as the masked attempts completed (`run`), sorted by task (`task`), or a
 * seeded random order of tasks (`random`). Rows of one task (one
 * (split, task_id) cluster, across pooled rounds and samples) stay together.
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import { createPrng } from "../math/prng.ts";
import { DEFAULTS } from "../core/defaults.ts";

/** How rows are ordered. */
export type SequentialOrder = "run" | "task" | "random";

/** Options of {@linkcode rowOrder}. */
export interface RowOrderOptions {
  /** For `run`: one-based trace line of every row's completed masked attempt (row order of the dataset). */
  readonly maskedLines?: ArrayLike<number>;
  /**
   * Seed of the `random` order (xoshiro128** via splitmix32, Fisher-Yates over tasks).
   * @default {DEFAULTS.seed}
   */
  readonly seed?: number;
}

/**
 * Orders a dataset's rows. `run`: tasks by their first completed masked
 * attempt (gate order, then trace line), rows of a task in that order too.
 * `task`: by (split, task_id, sample_id, gate). `random`: a Fisher-Yates
 * shuffle of the tasks (in first-seen order before shuffling), rows of a
 * task by (gate, sample_id).
 *
 * @param dataset The paired dataset (uses episodes, gateIndex, cluster).
 * @param order The ordering.
 * @param options Masked lines for `run`, seed for `random`.
 * @returns Row indices in analysis order.
 * @throws {RangeError} For `run` without `maskedLines` of the right length.
 *
 * @example
 * ```ts
 * import { rowOrder } from "./order.ts";
 * import { deepEqual } from "node:assert/strict";
 * const episodes = [["b", 0], ["a", 0], ["b", 1]].map(([t, s]) => ({ split: "val", task_id: t as string, sample_id: s as number }));
 * const ds = { n: 3, episodes, gateIndex: Uint16Array.of(0, 0, 0), cluster: Int32Array.of(0, 1, 0), clusterCount: 2 };
 * // deno-lint-ignore no-explicit-any
 * const d = ds as any;
 * deepEqual([...rowOrder(d, "task")], [1, 0, 2]);
 * // run order: row 2 completed first, so task b (rows 2 and 0) comes first.
 * deepEqual([...rowOrder(d, "run", { maskedLines: [5, 4, 2] })], [2, 0, 1]);
 * ```
 */
export function rowOrder(
  dataset: Pick<PairedDataset, "n" | "episodes" | "gateIndex" | "cluster" | "clusterCount">,
  order: SequentialOrder,
  options: RowOrderOptions = {},
): Int32Array {
  const { n, episodes, gateIndex, cluster } = dataset;
  const rows = Array.from({ length: n }, (_, i) => i);
  const byTask = (a: number, b: number): number => {
    const ea = episodes[a]!, eb = episodes[b]!;
    return compare(ea.split, eb.split) || compare(ea.task_id, eb.task_id) ||
      ea.sample_id - eb.sample_id || gateIndex[a]! - gateIndex[b]!;
  };
  if (order === "task") return Int32Array.from(rows.sort(byTask));
  if (order === "run") {
    const lines = options.maskedLines;
    if (!lines || lines.length !== n) {
      throw new RangeError(
        "Cannot order rows by run: the masked trace line of every row is needed",
      );
    }
    rows.sort((a, b) => gateIndex[a]! - gateIndex[b]! || lines[a]! - lines[b]!);
    return Int32Array.from(groupByCluster(rows, cluster));
  }
  // random: shuffle the tasks, keep each task's rows in (gate, sample) order.
  const withinTask = rows.slice().sort((a, b) =>
    gateIndex[a]! - gateIndex[b]! || episodes[a]!.sample_id - episodes[b]!.sample_id
  );
  const grouped = groupByCluster(withinTask, cluster);
  const clusters: number[] = [];
  for (const i of grouped) if (!clusters.includes(cluster[i]!)) clusters.push(cluster[i]!);
  const prng = createPrng(options.seed ?? DEFAULTS.seed);
  for (let i = clusters.length - 1; i > 0; i--) {
    const j = prng.nextInt(i + 1);
    [clusters[i], clusters[j]] = [clusters[j]!, clusters[i]!];
  }
  const rank = new Map(clusters.map((c, i) => [c, i]));
  return Int32Array.from(
    grouped.slice().sort((a, b) => rank.get(cluster[a]!)! - rank.get(cluster[b]!)!),
  );
}

/** Stable regrouping: clusters in order of first appearance, rows within a cluster in order. */
function groupByCluster(rows: readonly number[], cluster: ArrayLike<number>): number[] {
  const groups = new Map<number, number[]>();
  for (const i of rows) {
    const list = groups.get(cluster[i]!);
    if (list) list.push(i);
    else groups.set(cluster[i]!, [i]);
  }
  return [...groups.values()].flat();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
