/**
 * The paired task bootstrap of Gate B.
 *
 * @module
 */

import { createPrng } from "../math/prng.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { ratioOfSums } from "./ratio_of_sums.ts";
import type { RatioQuantity } from "./task_sums.ts";

/** The draws of one quantity. */
export interface QuantityDraws {
  readonly bare: Float64Array;
  readonly eq: Float64Array;
  /** equipped - bare per draw. */
  readonly diff: Float64Array;
}

/** Options of {@linkcode pairedTaskBootstrap}. */
export interface PairedBootstrapOptions {
  readonly draws: number;
  readonly seed: number;
  /** Called every 500 draws and after the last. */
  readonly onProgress?: ProgressCallback;
}

/**
 * Resamples the G tasks with replacement, the same tasks for both arms:
 * draw b takes G tasks by `prng.nextInt(G)` in order (xoshiro128** seeded
 * by `createPrng(seed)`), and every quantity is the ratio of its per-task
 * sums weighted by the draw counts. With no draws or no tasks the arrays
 * stay zero.
 *
 * @param quantities Per-task sums of each quantity (all of length G).
 * @param tasks G.
 * @param options Draws, seed, progress.
 * @returns The draws of each quantity, in input order.
 *
 * @example
 * ```ts
 * import { pairedTaskBootstrap } from "./paired_bootstrap.ts";
 * import { deepEqual } from "node:assert/strict";
 * const f = (...v: number[]) => Float64Array.from(v);
 * const q = { bareNum: f(0, 1), bareDen: f(1, 1), eqNum: f(1, 1), eqDen: f(1, 1) };
 * const [d] = pairedTaskBootstrap([q], 2, { draws: 3, seed: 1 });
 * deepEqual(Array.from(d!.eq), [1, 1, 1]); // the equipped arm is 1 on every task
 * deepEqual(Array.from(d!.diff), Array.from(d!.bare, (b) => 1 - b));
 * ```
 */
export function pairedTaskBootstrap(
  quantities: readonly RatioQuantity[],
  tasks: number,
  options: PairedBootstrapOptions,
): QuantityDraws[] {
  const { draws, onProgress } = options;
  const out = quantities.map(() => ({
    bare: new Float64Array(draws),
    eq: new Float64Array(draws),
    diff: new Float64Array(draws),
  }));
  if (draws > 0 && tasks > 0) {
    const prng = createPrng(options.seed);
    const counts = new Int32Array(tasks);
    for (let b = 0; b < draws; b++) {
      counts.fill(0);
      for (let i = 0; i < tasks; i++) counts[prng.nextInt(tasks)]! += 1;
      quantities.forEach((q, j) => {
        const vb = ratioOfSums(q.bareNum, q.bareDen, counts);
        const ve = ratioOfSums(q.eqNum, q.eqDen, counts);
        const d = out[j]!;
        d.bare[b] = vb;
        d.eq[b] = ve;
        d.diff[b] = ve - vb;
      });
      if (onProgress && ((b + 1) % 500 === 0 || b + 1 === draws)) onProgress(b + 1, draws);
    }
  }
  return out;
}
