/**
 * The bootstrap kernel timed alone, as both benchmarks measure it: a random
 * 0/1 design of n rows and k columns (xoshiro seed 1), one metric, one task
 * per row, `draws` draws under seed 2; the problem bench/bootstrap_numpy.py
 * solves on the numpy side.
 *
 * @module
 */
import { buildClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import {
  bootstrapKernel,
  type BootstrapKernelResult,
} from "../lib/infer/bootstrap/bootstrap_kernel.ts";
import { createPrng } from "../lib/math/prng.ts";

/** The kernel benches' input: a 0/1 design (n x k, row-major) and one response per metric. */
export interface KernelInput {
  readonly n: number;
  readonly k: number;
  readonly design: Uint8Array;
  readonly responses: Float64Array[];
}

/**
 * The design (xoshiro seed 1, each cell 1 with probability 1/2), then the
 * responses, metric after metric, from the same stream (metric 0 as the
 * one-metric bench has always drawn it).
 */
export function kernelInput(n: number, k: number, metrics = 1): KernelInput {
  const prng = createPrng(1);
  const design = new Uint8Array(n * k);
  for (let i = 0; i < n * k; i++) design[i] = prng.nextFloat() < 0.5 ? 1 : 0;
  const responses = Array.from(
    { length: metrics },
    () => Float64Array.from({ length: n }, () => prng.nextFloat()),
  );
  return { n, k, design, responses };
}

/** One run of the kernel on one thread (sums included), one task per row, seed 2. */
export function kernelRun(
  input: KernelInput,
  draws: number,
): { ms: number; result: BootstrapKernelResult } {
  const { n, k, design, responses } = input;
  const t0 = performance.now();
  const sums = buildClusterSums(design, responses, Int32Array.from({ length: n }, (_, i) => i), {
    k,
    clusterCount: n,
  });
  const result = bootstrapKernel(sums, { draws, seed: 2 });
  return { ms: performance.now() - t0, result };
}

/** Milliseconds for one run of the kernel (sums included). */
export function kernelMs(n: number, k: number, draws: number): number {
  return kernelRun(kernelInput(n, k), draws).ms;
}

/**
 * Arguments of `python3` for the same problem on the numpy side
 * (bench/bootstrap_numpy.py, with the OpenBLAS overrides unset for it).
 */
export function numpyKernelArgs(n: number, draws: number, repeats: number): string[] {
  return [
    "bench/bootstrap_numpy.py",
    ...["--tasks", String(n), "--columns", "16", "--metrics", "1"],
    ...["--draws", String(draws), "--repeats", String(repeats), "--unset-openblas-env"],
  ];
}
