/**
 * The task bootstrap split across Web Workers. Draws, not rows, are split:
 * worker w computes the contiguous block of draws
 * `[floor(w B / W), floor((w + 1) B / W))` and first replays the one
 * `createPrng(seed)` stream through the earlier draws (G calls of
 * nextInt(G) each, nothing counted), so every draw consumes exactly the
 * numbers it consumes single-threaded and the result is byte-identical
 * whatever the number of workers. Workers need no permission beyond the
 * process's own.
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";
import { bootstrapKernel, type BootstrapKernelResult } from "./bootstrap_kernel.ts";
import type { ClusterSums } from "./cluster_sums.ts";

/** How the draws are laid out over workers; recorded with the draw order. */
export const STREAM_LAYOUT =
  "draws split into contiguous blocks, one per worker; a worker replays the one stream through " +
  "the draws before its block, so each draw uses the same numbers as single-threaded and the " +
  "result does not depend on the number of workers";

/** Options of {@linkcode bootstrapKernelParallel}. */
export interface ParallelKernelOptions {
  readonly draws: number;
  readonly seed: number;
  /** Number of workers; 1 runs on this thread. */
  readonly workers: number;
  readonly onProgress?: ProgressCallback;
}

/**
 * Runs {@linkcode bootstrapKernel} with the draws split across workers.
 *
 * @param sums Per-task sums.
 * @param options draws, seed, workers, onProgress.
 * @returns The same result as `bootstrapKernel(sums, { draws, seed })`, byte for byte.
 *
 * @example Two workers, same bytes as one thread
 * ```ts
 * import { buildClusterSums } from "./cluster_sums.ts";
 * import { bootstrapKernel } from "./bootstrap_kernel.ts";
 * import { bootstrapKernelParallel } from "./bootstrap_parallel.ts";
 * import { deepEqual } from "node:assert/strict";
 * const design = Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0, 0, 1]);
 * const y = Float64Array.from([1, 2, 3.5, 0.8, 0.1]);
 * const sums = buildClusterSums(design, [y], Int32Array.from([0, 1, 2, 3, 4]), { k: 2, clusterCount: 5 });
 * const one = bootstrapKernel(sums, { draws: 30, seed: 7 });
 * const two = await bootstrapKernelParallel(sums, { draws: 30, seed: 7, workers: 2 });
 * deepEqual(new Uint8Array(two.coefficients.buffer), new Uint8Array(one.coefficients.buffer));
 * deepEqual(two.status, one.status);
 * ```
 */
export async function bootstrapKernelParallel(
  sums: ClusterSums,
  options: ParallelKernelOptions,
): Promise<BootstrapKernelResult> {
  const { draws, seed, onProgress } = options;
  const workerUrl = new URL("./bootstrap_worker.ts", import.meta.url);
  // A worker loads its module from disk: without read access to it (a
  // narrowly sandboxed process) the same draws run on this thread.
  const readable = workerUrl.protocol !== "file:" ||
    Deno.permissions.querySync({ name: "read", path: workerUrl }).state === "granted";
  const workers = readable ? Math.max(1, Math.min(Math.floor(options.workers), draws)) : 1;
  if (workers <= 1) {
    return bootstrapKernel(sums, { draws, seed, ...(onProgress ? { onProgress } : {}) });
  }
  const { k, metricCount: m } = sums;
  const coefficients = new Float64Array(draws * m * k);
  const status = new Uint8Array(draws);
  const done = new Array<number>(workers).fill(0);
  const step = Math.max(1, Math.floor(draws / 100));
  let reported = 0;
  const blocks = Array.from({ length: workers }, (_, w) => {
    const first = Math.floor((w * draws) / workers), last = Math.floor(((w + 1) * draws) / workers);
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(workerUrl.href, {
        type: "module",
      });
      worker.onmessage = (event: MessageEvent) => {
        const data = event.data as
          | { progress: number }
          | { coefficients: Float64Array; status: Uint8Array };
        if ("progress" in data) {
          done[w] = data.progress;
          const total = done.reduce((a, b) => a + b, 0);
          if (onProgress && (total - reported >= step || total === draws)) {
            reported = total;
            onProgress(total, draws);
          }
          return;
        }
        coefficients.set(data.coefficients, first * m * k);
        status.set(data.status, first);
        worker.terminate();
        resolve();
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        worker.terminate();
        reject(new Error(`Bootstrap worker failed: ${event.message}`));
      };
      worker.postMessage({ sums, draws, seed, first, last });
    });
  });
  await Promise.all(blocks);
  return { draws, k, metricCount: m, coefficients, status };
}
