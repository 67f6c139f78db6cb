/**
 * Web Worker of {@linkcode bootstrapKernelParallel}: computes one block of
 * draws with `bootstrapKernel` (`first`/`last`) and posts back the raw
 * coefficients and statuses (transferred, not copied). Progress is posted
 * as `{ progress: done }` messages.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { bootstrapKernel } from "./bootstrap_kernel.ts";
import type { ClusterSums } from "./cluster_sums.ts";

self.onmessage = (event: MessageEvent) => {
  const { sums, draws, seed, first, last } = event.data as {
    sums: ClusterSums;
    draws: number;
    seed: number;
    first: number;
    last: number;
  };
  const result = bootstrapKernel(sums, {
    draws,
    seed,
    first,
    last,
    onProgress: (done) => self.postMessage({ progress: done }),
  });
  self.postMessage(
    { coefficients: result.coefficients, status: result.status },
    { transfer: [result.coefficients.buffer as ArrayBuffer, result.status.buffer as ArrayBuffer] },
  );
};
