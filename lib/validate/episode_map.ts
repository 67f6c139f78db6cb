import type { EpisodeKey } from "../core/types.ts";

/** One episode's entry: the rest of its key, its value, and the next entry of its task id. */
interface Entry<V> {
  readonly task: string;
  readonly split: string;
  readonly sample: number;
  value: V;
  next: Entry<V> | undefined;
}

/** Entries of one task id listed before they get a map of their own. */
const CHAIN = 8;

/**
 * A map from episodes (split, task id, sample id) to values, iterated in
 * insertion order like a `Map`. Keyed by the task id string first: a
 * run's ids are pooled strings whose hash the runtime computes once, where
 * a composite key string would be built and hashed at every lookup (about
 * five times slower over a run's episodes). A task id's few episodes are
 * then told apart by split and sample id in a short list; past
 * {@linkcode CHAIN} of them (many repeats of one task) they get a map.
 *
 * @example
 * ```ts
 * import { EpisodeMap } from "./episode_map.ts";
 * import { deepEqual } from "node:assert/strict";
 * const m = new EpisodeMap<number>([[{ split: "val", task_id: "a/b", sample_id: 0 }, 1]]);
 * m.set({ split: "val/a", task_id: "b", sample_id: 0 }, 2);
 * m.set({ split: "val", task_id: "a/b", sample_id: 0 }, 3); // replaced in place
 * deepEqual([m.size, [...m.values()], m.get({ split: "val", task_id: "a/b", sample_id: 1 })], [2, [3, 2], undefined]);
 * ```
 */
export class EpisodeMap<V> {
  readonly #byTask = new Map<string, Entry<V> | Map<string, Entry<V>>>();
  readonly #entries: Entry<V>[] = [];

  /** @param entries Initial episodes and values (a later one replaces an earlier one's value). */
  constructor(entries: Iterable<readonly [EpisodeKey, V]> = []) {
    for (const [episode, value] of entries) this.set(episode, value);
  }

  /** Number of episodes. */
  get size(): number {
    return this.#entries.length;
  }

  /** The value of an episode, or undefined. */
  get(episode: EpisodeKey): V | undefined {
    return this.#find(episode)?.value;
  }

  /** Whether the episode has a value. */
  has(episode: EpisodeKey): boolean {
    return this.#find(episode) !== undefined;
  }

  /** Sets an episode's value (in place when it already has one). */
  set(episode: EpisodeKey, value: V): this {
    const found = this.#find(episode);
    if (found !== undefined) {
      found.value = value;
      return this;
    }
    const { split, task_id: task, sample_id: sample } = episode;
    const bucket = this.#byTask.get(task);
    const entry: Entry<V> = { task, split, sample, value, next: undefined };
    this.#entries.push(entry);
    if (bucket instanceof Map) bucket.set(subKey(split, sample), entry);
    else if (bucket === undefined) this.#byTask.set(task, entry);
    else {
      let length = 1, last = bucket;
      for (; last.next !== undefined; last = last.next) length++;
      if (length < CHAIN) last.next = entry;
      else {
        const map = new Map<string, Entry<V>>();
        for (let e: Entry<V> | undefined = bucket; e !== undefined; e = e.next) {
          map.set(subKey(e.split, e.sample), e);
        }
        map.set(subKey(split, sample), entry);
        this.#byTask.set(task, map);
      }
    }
    return this;
  }

  /** The values, in the order their episodes were first set. */
  *values(): IterableIterator<V> {
    for (const entry of this.#entries) yield entry.value;
  }

  /** The episodes and their values, in the order the episodes were first set. */
  *entries(): IterableIterator<[EpisodeKey, V]> {
    for (const e of this.#entries) {
      yield [{ split: e.split, task_id: e.task, sample_id: e.sample }, e.value];
    }
  }

  #find(episode: EpisodeKey): Entry<V> | undefined {
    const bucket = this.#byTask.get(episode.task_id);
    if (bucket instanceof Map) return bucket.get(subKey(episode.split, episode.sample_id));
    for (let e = bucket; e !== undefined; e = e.next) {
      if (e.sample === episode.sample_id && e.split === episode.split) return e;
    }
    return undefined;
  }
}

/** Split and sample id as one string: the sample id, a number, holds no `/`. */
function subKey(split: string, sample: number): string {
  return `${sample}/${split}`;
}

/** The reading side of an {@linkcode EpisodeMap}. */
export type ReadonlyEpisodeMap<V> = Pick<
  EpisodeMap<V>,
  "get" | "has" | "size" | "values" | "entries"
>;
