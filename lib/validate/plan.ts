import type { EpisodeKey } from "../core/types.ts";

/**
 * The planned episodes of a run: every task of `tasks` (in order) times
 * sample ids 0..repeats-1, task-major.
 *
 * @example
 * ```ts
 * import { plannedEpisodes } from "./plan.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(plannedEpisodes({ split: "val", tasks: ["a", "b"], repeats: 2 }).map((e) => `${e.task_id}${e.sample_id}`), ["a0", "a1", "b0", "b1"]);
 * ```
 */
export function plannedEpisodes(
  manifest: { readonly split: string; readonly tasks: readonly string[]; readonly repeats: number },
): EpisodeKey[] {
  const out: EpisodeKey[] = [];
  for (const task_id of manifest.tasks) {
    for (let sample_id = 0; sample_id < manifest.repeats; sample_id++) {
      out.push({ split: manifest.split, task_id, sample_id });
    }
  }
  return out;
}
