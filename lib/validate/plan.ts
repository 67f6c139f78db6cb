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

/**
 * The plans of one validation: a gate's masked run and its bare run plan
 * the same episodes, and get one array of them (and so one
 * {@linkcode plannedIndex}) instead of one each. Callers only read it.
 *
 * @example
 * ```ts
 * import { Plans } from "./plan.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plans = new Plans();
 * const a = plans.of({ split: "val", tasks: ["a", "b"], repeats: 1 });
 * deepEqual([a.length, plans.of({ split: "val", tasks: ["a", "b"], repeats: 1 }) === a, plans.of({ split: "val", tasks: ["a"], repeats: 1 }) === a], [2, true, false]);
 * ```
 */
export class Plans {
  readonly #built: {
    readonly split: string;
    readonly repeats: number;
    readonly tasks: readonly string[];
    readonly planned: readonly EpisodeKey[];
  }[] = [];

  /** The planned episodes of a manifest (see {@linkcode plannedEpisodes}). */
  of(
    manifest: {
      readonly split: string;
      readonly tasks: readonly string[];
      readonly repeats: number;
    },
  ): readonly EpisodeKey[] {
    const { split, tasks, repeats } = manifest;
    const known = this.#built.find((b) =>
      b.split === split && b.repeats === repeats && sameStrings(b.tasks, tasks)
    );
    if (known !== undefined) return known.planned;
    const planned = plannedEpisodes(manifest);
    this.#built.push({ split, repeats, tasks, planned });
    return planned;
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const plannedIndices = new WeakMap<readonly EpisodeKey[], ReadonlyEpisodeMap<number>>();

/**
 * Each planned episode's position in the plan array (its first, should an
 * episode be listed twice), built once per plan array: a run's checks and
 * its gate's assignment checks look up the same plan, and keep what they
 * find per episode in typed arrays by position ({@linkcode PlannedMap}).
 *
 * @example
 * ```ts
 * import { plannedEpisodes, plannedIndex } from "./plan.ts";
 * import { deepEqual } from "node:assert/strict";
 * const planned = plannedEpisodes({ split: "val", tasks: ["a", "b"], repeats: 2 });
 * deepEqual([plannedIndex(planned).get({ split: "val", task_id: "b", sample_id: 1 }), plannedIndex(planned) === plannedIndex(planned)], [3, true]);
 * ```
 */
export function plannedIndex(planned: readonly EpisodeKey[]): ReadonlyEpisodeMap<number> {
  let index = plannedIndices.get(planned);
  if (index === undefined) {
    const built = new EpisodeMap<number>();
    for (let p = 0; p < planned.length; p++) built.setIfAbsent(planned[p]!, p);
    plannedIndices.set(planned, index = new LastLookup(built));
  }
  return index;
}

/**
 * A plan's index that answers a lookup of the episode it was just asked
 * about (the same key, unchanged) without asking the map again: the maps of
 * one plan (a run's completed attempts, the gate's assignments) are read
 * for the same episode in turn, and each lookup of the map would otherwise
 * move its cursor away from the next episode.
 */
class LastLookup implements ReadonlyEpisodeMap<number> {
  #key: EpisodeKey | null = null;
  #split = "";
  #task = "";
  #sample = -1;
  #found: number | undefined;

  constructor(readonly map: EpisodeMap<number>) {}

  get size(): number {
    return this.map.size;
  }

  get(episode: EpisodeKey): number | undefined {
    if (
      episode === this.#key && episode.task_id === this.#task &&
      episode.sample_id === this.#sample && episode.split === this.#split
    ) return this.#found;
    this.#key = episode;
    this.#split = episode.split;
    this.#task = episode.task_id;
    this.#sample = episode.sample_id;
    return this.#found = this.map.get(episode);
  }

  has(episode: EpisodeKey): boolean {
    return this.get(episode) !== undefined;
  }

  values(): IterableIterator<number> {
    return this.map.values();
  }

  entries(): IterableIterator<[EpisodeKey, number]> {
    return this.map.entries();
  }
}

/**
 * Values of planned episodes kept by their position in the plan
 * ({@linkcode plannedIndex}), read as a map of episodes: `size`, `values`
 * and `entries` follow the order in which episodes were first given a
 * value (`order`), as an {@linkcode EpisodeMap} would. An episode outside
 * the plan has no value.
 *
 * @example
 * ```ts
 * import { PlannedMap, plannedEpisodes } from "./plan.ts";
 * import { deepEqual } from "node:assert/strict";
 * const planned = plannedEpisodes({ split: "val", tasks: ["a", "b"], repeats: 1 });
 * const m = new PlannedMap<string>(planned);
 * m.setAt(1, "B");
 * m.setAt(0, "A");
 * deepEqual([m.size, [...m.values()], m.get(planned[1]!), m.get({ split: "x", task_id: "a", sample_id: 0 })], [2, ["B", "A"], "B", undefined]);
 * ```
 */
export class PlannedMap<V> implements ReadonlyEpisodeMap<V> {
  /** The plan's episode positions. */
  readonly index: ReadonlyEpisodeMap<number>;
  readonly #planned: readonly EpisodeKey[];
  readonly #values: (V | undefined)[];
  readonly #order: Int32Array;
  #size = 0;

  /** @param planned The plan (episodes in plan order). */
  constructor(planned: readonly EpisodeKey[]) {
    this.#planned = planned;
    this.index = plannedIndex(planned);
    // Filled by push: `new Array(n)` of a large n would keep its entries in a dictionary.
    this.#values = [];
    for (let p = 0; p < planned.length; p++) this.#values.push(undefined);
    this.#order = new Int32Array(planned.length);
  }

  /** Number of episodes with a value. */
  get size(): number {
    return this.#size;
  }

  /** The value at plan position p, or undefined. */
  at(p: number): V | undefined {
    return this.#values[p];
  }

  /** Sets the value at plan position p (in place when it has one). */
  setAt(p: number, value: V): void {
    if (this.#values[p] === undefined) this.#order[this.#size++] = p;
    this.#values[p] = value;
  }

  /** The value of an episode, or undefined. */
  get(episode: EpisodeKey): V | undefined {
    const p = this.index.get(episode);
    return p === undefined ? undefined : this.#values[p];
  }

  /** Whether the episode has a value. */
  has(episode: EpisodeKey): boolean {
    return this.get(episode) !== undefined;
  }

  /** The values, in the order their episodes were first given one. */
  *values(): IterableIterator<V> {
    for (let i = 0; i < this.#size; i++) yield this.#values[this.#order[i]!]!;
  }

  /** The episodes (as planned) and their values, in the order first given one. */
  *entries(): IterableIterator<[EpisodeKey, V]> {
    for (let i = 0; i < this.#size; i++) {
      const p = this.#order[i]!;
      yield [this.#planned[p]!, this.#values[p]!];
    }
  }
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
