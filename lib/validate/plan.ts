import type { EpisodeKey } from "../core/types.ts";
import { EpisodeMap, type ReadonlyEpisodeMap } from "./episode_map.ts";

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

const plannedSets = new WeakMap<readonly EpisodeKey[], ReadonlyEpisodeMap<true>>();

/**
 * The planned episodes as a set, built once per plan array: a run's
 * checks and its gate's assignment checks look up the same plan.
 *
 * @example
 * ```ts
 * import { plannedEpisodes, plannedSet } from "./plan.ts";
 * import { deepEqual } from "node:assert/strict";
 * const planned = plannedEpisodes({ split: "val", tasks: ["a"], repeats: 2 });
 * deepEqual([plannedSet(planned).has({ split: "val", task_id: "a", sample_id: 1 }), plannedSet(planned) === plannedSet(planned)], [true, true]);
 * ```
 */
export function plannedSet(planned: readonly EpisodeKey[]): ReadonlyEpisodeMap<true> {
  let set = plannedSets.get(planned);
  if (set === undefined) {
    const built = new EpisodeMap<true>();
    for (const e of planned) built.set(e, true);
    plannedSets.set(planned, set = built);
  }
  return set;
}
