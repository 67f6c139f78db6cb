import type { EpisodeKey } from "../core/types.ts";

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
 * Entries are kept in parallel arrays, not one object each (at a million
 * episodes a map holds some 40 MB less, and the collector has fewer objects
 * to trace).
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
  /** Per task id: the index of its latest entry, or a map of its entries by split and sample. */
  readonly #byTask = new Map<string, number | Map<string, number>>();
  // Entry i, in insertion order: its key, its value, and the index of the
  // task id's previous entry (-1 for none).
  readonly #tasks: string[] = [];
  readonly #splits: string[] = [];
  readonly #samples: number[] = [];
  readonly #values: V[] = [];
  readonly #previous: number[] = [];
  /** Where the next lookup is tried first: after the last entry found. */
  #cursor = 0;
  /** The task id's bucket seen by the last lookup that missed. */
  #bucket: number | Map<string, number> | undefined;

  /** @param entries Initial episodes and values (a later one replaces an earlier one's value). */
  constructor(entries: Iterable<readonly [EpisodeKey, V]> = []) {
    for (const [episode, value] of entries) this.set(episode, value);
  }

  /** Number of episodes. */
  get size(): number {
    return this.#values.length;
  }

  /** The value of an episode, or undefined. */
  get(episode: EpisodeKey): V | undefined {
    const i = this.#find(episode);
    return i < 0 ? undefined : this.#values[i];
  }

  /** Whether the episode has a value. */
  has(episode: EpisodeKey): boolean {
    return this.#find(episode) >= 0;
  }

  /** Sets an episode's value (in place when it already has one). */
  set(episode: EpisodeKey, value: V): this {
    const i = this.#find(episode);
    if (i >= 0) this.#values[i] = value;
    else this.#insert(episode, value);
    return this;
  }

  /**
   * The episode's value when it has one; otherwise sets it to `value` and
   * returns undefined (one lookup where `get` then `set` take two).
   */
  setIfAbsent(episode: EpisodeKey, value: V): V | undefined {
    const i = this.#find(episode);
    if (i >= 0) return this.#values[i];
    this.#insert(episode, value);
    return undefined;
  }

  /** The values, in the order their episodes were first set. */
  *values(): IterableIterator<V> {
    yield* this.#values;
  }

  /** The episodes and their values, in the order the episodes were first set. */
  *entries(): IterableIterator<[EpisodeKey, V]> {
    for (let i = 0; i < this.#values.length; i++) {
      const episode = {
        split: this.#splits[i]!,
        task_id: this.#tasks[i]!,
        sample_id: this.#samples[i]!,
      };
      yield [episode, this.#values[i]!];
    }
  }

  /** Adds an episode that {@linkcode #find} just missed (its bucket in #bucket). */
  #insert(episode: EpisodeKey, value: V): void {
    const { split, task_id: task, sample_id: sample } = episode;
    const bucket = this.#bucket;
    const at = this.#values.length;
    this.#tasks.push(task);
    this.#splits.push(split);
    this.#samples.push(sample);
    this.#values.push(value);
    this.#previous.push(typeof bucket === "number" ? bucket : -1);
    if (bucket instanceof Map) bucket.set(subKey(split, sample), at);
    else if (bucket === undefined) this.#byTask.set(task, at);
    else {
      let length = 1;
      for (let e = bucket; this.#previous[e]! >= 0; e = this.#previous[e]!) length++;
      if (length < CHAIN) this.#byTask.set(task, at);
      else {
        const map = new Map<string, number>();
        for (let e = at; e >= 0; e = this.#previous[e]!) {
          map.set(subKey(this.#splits[e]!, this.#samples[e]!), e);
        }
        this.#byTask.set(task, map);
      }
    }
  }

  /** The index of an episode's entry, or -1. */
  #find(episode: EpisodeKey): number {
    const next = this.#cursor;
    if (
      next < this.#values.length && this.#tasks[next] === episode.task_id &&
      this.#samples[next] === episode.sample_id && this.#splits[next] === episode.split
    ) {
      this.#cursor++;
      return next;
    }
    const bucket = this.#byTask.get(episode.task_id);
    let found = -1;
    if (bucket instanceof Map) found = bucket.get(subKey(episode.split, episode.sample_id)) ?? -1;
    else if (bucket !== undefined) {
      for (let e = bucket; e >= 0 && found < 0; e = this.#previous[e]!) {
        if (this.#samples[e] === episode.sample_id && this.#splits[e] === episode.split) found = e;
      }
    }
    if (found < 0) this.#bucket = bucket;
    else this.#cursor = found + 1;
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
