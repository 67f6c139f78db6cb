/**
 * The task bootstrap split across Web Workers. Draws, not rows, are split:
 * of W threads, this one computes the first contiguous block of draws and
 * worker w = 1 .. W - 1 the w-th ({@linkcode drawBlocks}), which it reaches by
 * first replaying the one `createPrng(seed)` stream through the earlier
 * draws (G calls of nextInt(G) each, nothing counted), so every draw
 * consumes exactly the numbers it consumes single-threaded and the result
 * is byte-identical whatever the number of workers or the block sizes. The
 * replay costs a worker time, so later blocks are shorter and every thread
 * finishes at about the same time. Workers need no permission beyond the
 * process's own. A worker that cannot run (it cannot start, throws, or
 * its result cannot be read) is never silent: its block runs on this thread
 * after this thread's own block, with a one-line warning on stderr, and the
 * numbers are the same.
 *
 * @module
 */
import type { ProgressCallback } from "../../core/progress.ts";
import { bootstrapKernel, type BootstrapKernelResult } from "./bootstrap_kernel.ts";
import type { ClusterSums } from "./cluster_sums.ts";
import { kernelModule } from "./_wasm_kernel.ts";
import { printError } from "../../core/terminal_text.ts";

/** How the draws are laid out over workers; recorded with the draw order. */
export const STREAM_LAYOUT =
  "draws split into contiguous blocks, one per worker; a worker replays the one stream through " +
  "the draws before its block, so each draw uses the same numbers as single-threaded and the " +
  "result does not depend on the number of workers";

/**
 * Time to replay one draw of the stream (G calls of nextInt(G), nothing
 * counted) over the time to compute one draw, measured at 40,000 to
 * 1,000,000 tasks with 16 columns and seven metrics (0.08 to 0.15). It only
 * sizes the blocks of {@linkcode drawBlocks}; the draws are the same bytes
 * for any value.
 */
export const REPLAY_COST = 0.12;

/**
 * Splits draws `0 .. draws - 1` into `threads` contiguous blocks sized so
 * that each thread, replaying the stream through the draws before its block
 * at {@linkcode REPLAY_COST} of a draw's time each, finishes at about the
 * same time: block w has (1 - replay x first draw of w / block 0's size) of
 * block 0's draws. Every block has at least one draw (`threads <= draws`).
 *
 * @param draws Number of draws (B >= threads).
 * @param threads Number of threads (W >= 1).
 * @param replay Replay cost of a draw relative to computing it, in [0, 1).
 * @returns W + 1 ascending boundaries from 0 to `draws`; block w is `[b[w], b[w + 1])`.
 *
 * @example Two threads: the worker, which replays, gets fewer draws
 * ```ts
 * import { drawBlocks } from "./bootstrap_parallel.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(drawBlocks(10_000, 2, 0.12), [0, 5319, 10_000]);
 * deepEqual(drawBlocks(10_000, 2, 0), [0, 5000, 10_000]);
 * deepEqual(drawBlocks(3, 3, 0.12), [0, 1, 2, 3]);
 * ```
 */
export function drawBlocks(draws: number, threads: number, replay = REPLAY_COST): number[] {
  // In units of block 0's size x: block w has x (1 - replay first_w), first_w in units of x.
  const share: number[] = [];
  let first = 0;
  for (let w = 0; w < threads; w++) {
    const size = Math.max(0, 1 - replay * first);
    share.push(first);
    first += size;
  }
  const x = draws / first;
  const bounds = share.map((f) => Math.round(f * x));
  bounds.push(draws);
  // At least one draw per block (rounding, or a replay that would leave none).
  for (let w = 1; w < threads; w++) bounds[w] = Math.max(bounds[w]!, bounds[w - 1]! + 1);
  for (let w = threads - 1; w >= 1; w--) bounds[w] = Math.min(bounds[w]!, bounds[w + 1]! - 1);
  return bounds;
}

/** Options of {@linkcode bootstrapKernelParallel}. */
export interface ParallelKernelOptions {
  readonly draws: number;
  readonly seed: number;
  /** Number of threads, this one included; 1 runs on this thread only. */
  readonly workers: number;
  readonly onProgress?: ProgressCallback;
  /**
   * Where the one-line warning of a worker that could not run goes.
   * @default {a line on stderr}
   */
  readonly onWarning?: (line: string) => void;
  /** The worker module (tests: one that fails). @default {bootstrap_worker.ts} */
  readonly workerUrl?: URL;
}

/** Raw draws of a {@linkcode bootstrapKernelParallel} run, and how many workers computed them. */
export interface ParallelKernelResult extends BootstrapKernelResult {
  /** Threads whose blocks were computed where they were meant to be, this one included. */
  readonly threadsRun: number;
}

/**
 * Runs {@linkcode bootstrapKernel} with the draws split across workers.
 *
 * @param sums Per-task sums.
 * @param options draws, seed, workers, onProgress, onWarning.
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
 * deepEqual([two.status, two.threadsRun], [one.status, 2]);
 * ```
 */
export async function bootstrapKernelParallel(
  sums: ClusterSums,
  options: ParallelKernelOptions,
): Promise<ParallelKernelResult> {
  const { draws, seed, onProgress } = options;
  const warn = options.onWarning ?? printError;
  const workerUrl = options.workerUrl ?? new URL("./bootstrap_worker.ts", import.meta.url);
  const wanted = Math.max(1, Math.min(Math.floor(options.workers), draws));
  // A worker loads its module from disk: without read access to it (a
  // narrowly sandboxed process) the same draws run on this thread, said once.
  const readable = workerUrl.protocol !== "file:" ||
    Deno.permissions.querySync({ name: "read", path: workerUrl }).state === "granted";
  if (wanted > 1 && !readable) {
    warn(
      `warning  bootstrap_workers  no read access to ${workerUrl.pathname}: the ${draws} ` +
        "draws run on one thread (the same numbers, slower)",
    );
  }
  const workers = readable ? wanted : 1;
  if (workers <= 1) {
    const one = bootstrapKernel(sums, { draws, seed, ...(onProgress ? { onProgress } : {}) });
    return { ...one, threadsRun: 1 };
  }
  const { k, metricCount: m } = sums;
  const coefficients = new Float64Array(draws * m * k);
  const status = new Uint8Array(draws);
  const progress = progressOfBlocks(workers, draws, onProgress);
  const bounds = drawBlocks(draws, workers);
  const store = (first: number, result: { coefficients: Float64Array; status: Uint8Array }) => {
    coefficients.set(result.coefficients, first * m * k);
    status.set(result.status, first);
  };
  // Blocks 1.. in workers, started first; block 0 (no replay) on this thread meanwhile. The
  // kernel's WebAssembly module, compiled here once, goes with them: a worker then neither
  // assembles nor compiles it, and the threads share its compiled code.
  const module = kernelModule();
  const blocks = Array.from({ length: workers - 1 }, (_, i) => {
    const w = i + 1, first = bounds[w]!, last = bounds[w + 1]!;
    return runWorkerBlock(
      workerUrl,
      { sums, draws, seed, first, last, module },
      (done) => progress(w, done),
    ).then(
      (result) => (store(first, result), null),
      (error: unknown) => ({ w, first, last, error }),
    );
  });
  store(
    0,
    bootstrapKernel(sums, {
      draws,
      seed,
      first: 0,
      last: bounds[1]!,
      onProgress: (count) => progress(0, count),
    }),
  );
  let threadsRun = workers;
  for (const failed of await Promise.all(blocks)) {
    if (failed === null) continue;
    const { w, first, last, error } = failed;
    threadsRun--;
    const reason = error instanceof Error ? error.message : String(error);
    warn(
      `warning  bootstrap_workers  bootstrap worker ${w} failed (${reason.split("\n")[0]}): ` +
        `its draws ${first}..${last - 1} run on the main thread (the same numbers, slower)`,
    );
    store(
      first,
      bootstrapKernel(sums, {
        draws,
        seed,
        first,
        last,
        onProgress: (count) => progress(w, count),
      }),
    );
  }
  return { draws, k, metricCount: m, coefficients, status, threadsRun };
}

/** A progress callback per block that reports the draws of all blocks together. */
function progressOfBlocks(
  blocks: number,
  draws: number,
  onProgress: ProgressCallback | undefined,
): (block: number, done: number) => void {
  const done = new Array<number>(blocks).fill(0);
  const step = Math.max(1, Math.floor(draws / 100));
  let reported = 0;
  return (block, count) => {
    done[block] = count;
    const total = done.reduce((a, b) => a + b, 0);
    if (onProgress && (total - reported >= step || total === draws)) {
      reported = total;
      onProgress(total, draws);
    }
  };
}

/** What a worker is posted: the sums, the stream and its block, the compiled kernel. */
interface WorkerBlock {
  readonly sums: ClusterSums;
  readonly draws: number;
  readonly seed: number;
  readonly first: number;
  readonly last: number;
  readonly module: WebAssembly.Module | null;
}

/** Runs one block in a new worker; rejects (never hangs) when the worker cannot run it. */
function runWorkerBlock(
  workerUrl: URL,
  block: WorkerBlock,
  onProgress: (done: number) => void,
): Promise<{ coefficients: Float64Array; status: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl.href, { type: "module" });
    worker.onmessage = (event: MessageEvent) => {
      const data = event.data as
        | { progress: number }
        | { coefficients: Float64Array; status: Uint8Array };
      if ("progress" in data) return onProgress(data.progress);
      worker.terminate();
      resolve(data);
    };
    const fail = (message: string) => {
      worker.terminate();
      reject(new Error(message));
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      fail(event.message);
    };
    worker.onmessageerror = () => fail("its result could not be read");
    worker.postMessage(block);
  });
}
