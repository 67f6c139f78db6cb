/**
 * Task numbering of a Gate B comparison.
 *
 * @module
 */

import type { EpisodeKey } from "../core/types.ts";

/**
 * Numbers the tasks of the planned episodes 0..G-1 in order of first
 * appearance (the bare manifest's order): the resampling unit of the
 * paired bootstrap.
 *
 * @param episodes Planned episodes in plan order.
 * @returns task_id -> task number; its size is G.
 *
 * @example
 * ```ts
 * import { taskIndex } from "./task_index.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = (task_id: string, sample_id: number) => ({ split: "test", task_id, sample_id });
 * deepEqual([...taskIndex([e("b", 0), e("b", 1), e("a", 0)])], [["b", 0], ["a", 1]]);
 * ```
 */
export function taskIndex(episodes: readonly EpisodeKey[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const e of episodes) {
    if (!index.has(e.task_id)) index.set(e.task_id, index.size);
  }
  return index;
}
