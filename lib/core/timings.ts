/**
 * Wall time per stage of a command (`gate analyze --timings`): each stage
 * is timed where it runs and the lines are printed on stderr at the end,
 * one per stage, so a run's time can be attributed without a profiler.
 *
 * @module
 */

/**
 * Stage timings in the order the stages ran; a stage timed twice adds up.
 *
 * @example
 * ```ts
 * import { Timings } from "./timings.ts";
 * import { deepEqual, match } from "node:assert/strict";
 * const t = new Timings();
 * const x = t.time("fit", () => 1 + 1);
 * await t.timeAsync("write", async () => {});
 * t.add("write", 2);
 * deepEqual([x, t.stages().map(([s]) => s)], [2, ["fit", "write"]]);
 * match(t.lines()[0]!, /^timing  fit  +\d+\.\d{3} s$/);
 * ```
 */
export class Timings {
  readonly #ms = new Map<string, number>();

  /** Adds `ms` milliseconds to `stage`. */
  add(stage: string, ms: number): void {
    this.#ms.set(stage, (this.#ms.get(stage) ?? 0) + ms);
  }

  /** Runs `f`, timing it as `stage`. */
  time<T>(stage: string, f: () => T): T {
    const start = performance.now();
    try {
      return f();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  /** Runs and awaits `f`, timing it as `stage`. */
  async timeAsync<T>(stage: string, f: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await f();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  /** The stages and their milliseconds, in the order first timed. */
  stages(): [string, number][] {
    return [...this.#ms];
  }

  /** One line per stage, `timing  <stage>  <seconds> s`, names padded to one width. */
  lines(): string[] {
    const width = Math.max(0, ...[...this.#ms.keys()].map((s) => s.length));
    return this.stages().map(([stage, ms]) =>
      `timing  ${stage.padEnd(width)}  ${(ms / 1000).toFixed(3)} s`
    );
  }
}
