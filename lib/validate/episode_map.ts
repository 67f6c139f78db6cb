import type { EpisodeKey } from "../core/types.ts";

/** One episode's entry: the rest of its key, its value, and the next entry of its task id. */
interface Entry<V> {
  /** Position in insertion order. */
  readonly at: number;
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
 * Episodes are mostly looked up in the order they were set (files list
 * them in plan order), so the entry after the last one found is tried
 * first, without hashing.
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
  /** Where the next lookup is tried first: after the last entry found. */
  #cursor = 0;
  /** The task id's bucket seen by the last lookup that missed. */
  #bucket: Entry<V> | Map<string, Entry<V>> | undefined;

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
    if (found !== undefined) found.value = value;
    else this.#insert(episode, value);
    return this;
  }

  /**
   * The episode's value when it has one; otherwise sets it to `value` and
   * returns undefined (one lookup where `get` then `set` take two).
   */
  setIfAbsent(episode: EpisodeKey, value: V): V | undefined {
    const found = this.#find(episode);
    if (found !== undefined) return found.value;
    this.#insert(episode, value);
    return undefined;
  }

  /** Adds an episode that {@linkcode #find} just missed (its bucket in #bucket). */
  #insert(episode: EpisodeKey, value: V): void {
    const { split, task_id: task, sample_id: sample } = episode;
    const bucket = this.#bucket;
    const at = this.#entries.length;
    const entry: Entry<V> = { at, task, split, sample, value, next: undefined };
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
    const next = this.#entries[this.#cursor];
    if (
      next !== undefined && next.task === episode.task_id && next.sample === episode.sample_id &&
      next.split === episode.split
    ) {
      this.#cursor++;
      return next;
    }
    const bucket = this.#byTask.get(episode.task_id);
    let found: Entry<V> | undefined;
    if (bucket instanceof Map) found = bucket.get(subKey(episode.split, episode.sample_id));
    else {
      for (let e = bucket; e !== undefined && found === undefined; e = e.next) {
        if (e.sample === episode.sample_id && e.split === episode.split) found = e;
      }
    }
    if (found === undefined) this.#bucket = bucket;
    else this.#cursor = found.at + 1;
    return found;
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
