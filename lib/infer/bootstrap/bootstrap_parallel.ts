/**
 * The task bootstrap split across Web Workers. Draws, not rows, are split:
 * of W threads, this one computes draws `[0, floor(B / W))` and worker
 * w = 1 .. W - 1 the contiguous block `[floor(w B / W), floor((w + 1) B / W))`,
 * which it reaches by first replaying the one
 * `createPrng(seed)` stream through the earlier draws (G calls of
 * nextInt(G) each, nothing counted), so every draw consumes exactly the
 * numbers it consumes single-threaded and the result is byte-identical
 * whatever the number of workers. Workers need no permission beyond the
 * process's own.
 *
 * @module
 */
import type { ProgressCallback } from "../../core/progress.ts";
import { bootstrapKernel, type BootstrapKernelResult } from "./bootstrap_kernel.ts";
import type { ClusterSums } from "./cluster_sums.ts";
import { kernelModule } from "./_wasm_kernel.ts";

/** How the draws are laid out over workers; recorded with the draw order. */
export const STREAM_LAYOUT =
  "draws split into contiguous blocks, one per worker; a worker replays the one stream through " +
  "the draws before its block, so each draw uses the same numbers as single-threaded and the " +
  "result does not depend on the number of workers";

/** Options of {@linkcode bootstrapKernelParallel}. */
export interface ParallelKernelOptions {
  readonly draws: number;
  readonly seed: number;
  /** Number of threads, this one included; 1 runs on this thread only. */
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
  const progress = (w: number, count: number) => {
    done[w] = count;
    const total = done.reduce((a, b) => a + b, 0);
    if (onProgress && (total - reported >= step || total === draws)) {
      reported = total;
      onProgress(total, draws);
    }
  };
  const block = (
    w: number,
  ) => [Math.floor((w * draws) / workers), Math.floor(((w + 1) * draws) / workers)];
  // Blocks 1.. in workers, started first; block 0 (no replay) on this thread meanwhile. The
  // kernel's WebAssembly module, compiled here once, goes with them: a worker then neither
  // assembles nor compiles it, and the threads share its compiled code.
  const module = kernelModule();
  const blocks = Array.from({ length: workers - 1 }, (_, i) => {
    const w = i + 1, [first, last] = block(w);
    return new Promise<void>((resolve, reject) => {
      const worker = new Worker(workerUrl.href, {
        type: "module",
      });
      worker.onmessage = (event: MessageEvent) => {
        const data = event.data as
          | { progress: number }
          | { coefficients: Float64Array; status: Uint8Array };
        if ("progress" in data) return progress(w, data.progress);
        coefficients.set(data.coefficients, first! * m * k);
        status.set(data.status, first);
        worker.terminate();
        resolve();
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        worker.terminate();
        reject(new Error(`Bootstrap worker failed: ${event.message}`));
      };
      worker.postMessage({ sums, draws, seed, first, last, module });
    });
  });
  const own = bootstrapKernel(sums, {
    draws,
    seed,
    first: 0,
    last: block(0)[1]!,
    onProgress: (count) => progress(0, count),
  });
  coefficients.set(own.coefficients, 0);
  status.set(own.status, 0);
  await Promise.all(blocks);
  return { draws, k, metricCount: m, coefficients, status };
}
