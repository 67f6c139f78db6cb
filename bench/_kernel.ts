/**
 * The bootstrap kernel timed alone, as both benchmarks measure it: a random
 * 0/1 design of n rows and k columns (xoshiro seed 1), one metric, one task
 * per row, `draws` draws under seed 2; the problem bench/bootstrap_numpy.py
 * solves on the numpy side.
 *
 * @module
 */
import { buildClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapKernel } from "../lib/infer/bootstrap/bootstrap_kernel.ts";
import { createPrng } from "../lib/math/prng.ts";

/** Milliseconds for one run of the kernel (sums included). */
export function kernelMs(n: number, k: number, draws: number): number {
  const prng = createPrng(1);
  const design = new Uint8Array(n * k);
  for (let i = 0; i < n * k; i++) design[i] = prng.nextFloat() < 0.5 ? 1 : 0;
  const y = Float64Array.from({ length: n }, () => prng.nextFloat());
  const t0 = performance.now();
  const sums = buildClusterSums(design, [y], Int32Array.from({ length: n }, (_, i) => i), {
    k,
    clusterCount: n,
  });
  bootstrapKernel(sums, { draws, seed: 2 });
  return performance.now() - t0;
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
