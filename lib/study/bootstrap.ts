import type { Prng } from "../math/prng.ts";
import type { ProgressCallback } from "../core/progress.ts";

/** Options of {@linkcode seedTaskBootstrap}. */
export interface SeedTaskBootstrapOptions {
  /** Number of draws B. */
  readonly draws: number;
  /** The random source; the draws consume it as documented below. */
  readonly prng: Prng;
  /**
   * Whether training seeds are resampled too (`"seeds+tasks"`); when false
   * every seed enters each draw once (`"tasks"`).
   * @default {true}
   */
  readonly resampleSeeds?: boolean;
  /** Called every 1,000 draws and at the end. */
  readonly onProgress?: ProgressCallback;
}

/**
 * Crossed seeds x tasks bootstrap of a grid mean. Each draw resamples the
 * K training seeds and the N tasks independently with replacement and
 * returns `(1/K) sum_{k in seeds*} (1/N) sum_{i in tasks*} cells[k, i]`; a
 * sampled cell keeps all its reps because `cells` already holds each cell's
 * mean over reps. For a paired comparison pass the cell differences
 * (a - b): the same indices then serve both arms.
 *
 * Draw order (reproducible from the seed): for draw b = 0..B-1, first K
 * calls `prng.nextInt(K)` for the seeds (skipped when `resampleSeeds` is
 * false), then N calls `prng.nextInt(N)` for the tasks.
 *
 * @param cells Row-major K x N cell values (finite).
 * @param shape `[K, N]`.
 * @param options Draws, random source, whether seeds are resampled.
 * @returns The B draw statistics, in draw order.
 * @throws {RangeError} When the shape does not match `cells` or is empty.
 *
 * @example One seed, tasks only: every draw is a mean of sampled tasks
 * ```ts
 * import { seedTaskBootstrap } from "./bootstrap.ts";
 * import { createPrng } from "../math/prng.ts";
 * import { ok } from "node:assert/strict";
 * const draws = seedTaskBootstrap(Float64Array.of(0, 1), [1, 2], { draws: 100, prng: createPrng(1), resampleSeeds: false });
 * ok(draws.every((d) => d === 0 || d === 0.5 || d === 1));
 * ```
 */
export function seedTaskBootstrap(
  cells: Float64Array,
  shape: readonly [number, number],
  options: SeedTaskBootstrapOptions,
): Float64Array {
  const [K, N] = shape;
  if (!(K >= 1 && N >= 1 && K * N === cells.length)) {
    throw new RangeError(
      `Cannot bootstrap: shape ${K} x ${N} does not match ${cells.length} cells`,
    );
  }
  const { draws, prng, onProgress } = options;
  const resampleSeeds = options.resampleSeeds ?? true;
  const out = new Float64Array(draws);
  const seedIdx = new Uint32Array(K);
  const taskCount = new Uint32Array(N);
  const rowSum = new Float64Array(K);
  for (let k = 0; k < K; k++) seedIdx[k] = k;
  for (let b = 0; b < draws; b++) {
    if (resampleSeeds) { for (let k = 0; k < K; k++) seedIdx[k] = prng.nextInt(K); }
    taskCount.fill(0);
    for (let i = 0; i < N; i++) taskCount[prng.nextInt(N)]!++;
    for (let k = 0; k < K; k++) {
      let s = 0;
      const row = k * N;
      for (let i = 0; i < N; i++) {
        const c = taskCount[i]!;
        if (c !== 0) s += c * cells[row + i]!;
      }
      rowSum[k] = s;
    }
    let total = 0;
    for (let k = 0; k < K; k++) total += rowSum[seedIdx[k]!]!;
    out[b] = total / (K * N);
    if (onProgress && ((b + 1) % 1000 === 0 || b + 1 === draws)) onProgress(b + 1, draws);
  }
  return out;
}
