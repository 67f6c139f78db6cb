import type { Attempt } from "../core/types.ts";
import { AttemptTable } from "../load/attempt_table.ts";
import { EpisodeMap, type ReadonlyEpisodeMap } from "./episode_map.ts";

/**
 * A run's completed attempt per episode as validation indexes it: the
 * entry of each episode in the run's {@linkcode AttemptTable}, not an
 * object per attempt. As a map of attempts (`get`, `values`, `entries`) it
 * builds each attempt when read; the checks and the dataset read the
 * columns through `rows` and `table`.
 *
 * @example
 * ```ts
 * import { CompletedAttempts } from "./completed_attempts.ts";
 * import { AttemptTable } from "../load/attempt_table.ts";
 * import { EpisodeMap } from "./episode_map.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = { split: "val", task_id: "a", sample_id: 0 };
 * const table = new AttemptTable();
 * table.pushLine({ ...e, attempt: 0, status: "completed", reward: 1, injected: [] }, 7);
 * const c = new CompletedAttempts(new EpisodeMap([[e, 0]]), table);
 * deepEqual([c.size, c.get(e)?.line, c.has({ ...e, sample_id: 1 })], [1, 7, false]);
 * ```
 */
export class CompletedAttempts implements ReadonlyEpisodeMap<Attempt> {
  /**
   * @param rows The entry in `table` of each episode's completed attempt.
   * @param table The run's attempts.
   */
  constructor(readonly rows: ReadonlyEpisodeMap<number>, readonly table: AttemptTable) {}

  /** Number of episodes. */
  get size(): number {
    return this.rows.size;
  }

  /** The episode's completed attempt, or undefined. */
  get(episode: Parameters<ReadonlyEpisodeMap<number>["get"]>[0]): Attempt | undefined {
    const i = this.rows.get(episode);
    return i === undefined ? undefined : this.table.get(i);
  }

  /** Whether the episode has a completed attempt. */
  has(episode: Parameters<ReadonlyEpisodeMap<number>["has"]>[0]): boolean {
    return this.rows.has(episode);
  }

  /** The completed attempts, in the order their episodes were indexed. */
  *values(): IterableIterator<Attempt> {
    for (const i of this.rows.values()) yield this.table.get(i);
  }

  /** The episodes and their completed attempts, in the order indexed. */
  *entries(): IterableIterator<[Parameters<ReadonlyEpisodeMap<number>["get"]>[0], Attempt]> {
    for (const [e, i] of this.rows.entries()) yield [e, this.table.get(i)];
  }
}

/** A completed-attempt map read as columns: each episode's entry in `table`. */
export interface AttemptLookup {
  readonly rows: ReadonlyEpisodeMap<number>;
  readonly table: AttemptTable;
}

/**
 * The columns of a map of completed attempts: its own when validation built
 * it ({@linkcode CompletedAttempts}), else a table of its attempts as given.
 *
 * @example
 * ```ts
 * import { attemptLookup } from "./completed_attempts.ts";
 * import { EpisodeMap } from "./episode_map.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = { split: "val", task_id: "a", sample_id: 0 };
 * const a = { ...e, attempt: 0, status: "completed" as const, reward: 1, rewards: {}, success: null, injected: [], job_seed: 5, steps: null, tokens: null, error: null, provenance: null, line: 2 };
 * const l = attemptLookup(new EpisodeMap([[e, a]]));
 * deepEqual(l.table.jobSeedOf(l.rows.get(e)!), 5);
 * ```
 */
export function attemptLookup(map: ReadonlyEpisodeMap<Attempt>): AttemptLookup {
  if (map instanceof CompletedAttempts) return map;
  const attempts: Attempt[] = [];
  const rows = new EpisodeMap<number>();
  for (const [e, a] of map.entries()) rows.set(e, attempts.push(a) - 1);
  return { rows, table: AttemptTable.from(attempts) };
}
