/**
 * Episode numbers by split, task and sample id, looked up by the strings
 * themselves (no key text made per row): split to task to the number of
 * sample 0, or to the numbers by sample id once a task has another.
 *
 * @example
 * ```ts
 * import { EpisodeNumbers } from "./episode_numbers.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = new EpisodeNumbers();
 * deepEqual([e.number("val", "t0", 0, 0), e.number("val", "t0", 1, 1), e.number("val", "t0", 0, 2)], [0, 1, 0]);
 * deepEqual([e.find("val", "t0", 1), e.find("test", "t0", 0)], [1, undefined]);
 * ```
 */
export class EpisodeNumbers {
  #bySplit = new Map<string, Map<string, number | number[]>>();
  #split: string | null = null;
  #tasks = new Map<string, number | number[]>();
  #tasksOf(split: string, create: boolean): Map<string, number | number[]> | undefined {
    if (split === this.#split) return this.#tasks;
    let tasks = this.#bySplit.get(split);
    if (tasks === undefined) {
      if (!create) return undefined;
      this.#bySplit.set(split, tasks = new Map());
    }
    this.#split = split;
    this.#tasks = tasks;
    return tasks;
  }
  /** The episode's number; `next` (which the caller then counts) when it is new. */
  number(split: string, task: string, sample: number, next: number): number {
    const tasks = this.#tasksOf(split, true)!;
    const v = tasks.get(task);
    if (v === undefined) {
      if (sample === 0) tasks.set(task, next);
      else {
        const list: number[] = [];
        list[sample] = next;
        tasks.set(task, list);
      }
      return next;
    }
    if (typeof v === "number") {
      if (sample === 0) return v;
      const list = [v];
      list[sample] = next;
      tasks.set(task, list);
      return next;
    }
    const e = v[sample];
    if (e !== undefined) return e;
    v[sample] = next;
    return next;
  }
  /** The episode's number, or undefined when no row has it. */
  find(split: string, task: string, sample: number): number | undefined {
    const v = this.#tasksOf(split, false)?.get(task);
    if (v === undefined) return undefined;
    if (typeof v === "number") return sample === 0 ? v : undefined;
    return v[sample];
  }
}
