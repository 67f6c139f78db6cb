/**
 * Web Worker of {@linkcode bootstrapKernelParallel}: computes one block of
 * draws with `bootstrapKernel` (`first`/`last`), with the kernel's WebAssembly
 * module compiled by the calling thread, and posts back the raw
 * coefficients and statuses (transferred, not copied). Progress is posted
 * as `{ progress: done }` messages.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { bootstrapKernel } from "./bootstrap_kernel.ts";
import { type ClusterSums, reviveClusterSums } from "./cluster_sums.ts";
import { adoptKernelModule } from "./_wasm_kernel.ts";

self.onmessage = (event: MessageEvent) => {
  const { sums, draws, seed, first, last, module } = event.data as {
    sums: ClusterSums;
    draws: number;
    seed: number;
    first: number;
    last: number;
    module: WebAssembly.Module | null;
  };
  // The kernel's module as the calling thread compiled it (null: no WebAssembly SIMD there).
  if (module) adoptKernelModule(module);
  // Single-row sums arrive without the lists they derive on read.
  const result = bootstrapKernel(reviveClusterSums(sums), {
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
