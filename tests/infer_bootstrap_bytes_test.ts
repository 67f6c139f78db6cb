/**
 * The bootstrap kernel's draws are pinned byte for byte: the digests below
 * are sha256 over the raw Float64Array of coefficients as computed by the
 * kernel of commit e364e84 (per-entry gather lists), before the kernel was
 * rewritten as one pass over the rows per block of four draws. A change to
 * the summation order, the stream or the packing shows up here, not only
 * at the 1e-10 level of the numpy reference test.
 *
 * Cases: a pooled design (3 rows per task, rows of a task interleaved with
 * other tasks', 13-bit packing), a larger pooled one (tasks x rows >= 2^13,
 * the 26-bit packing) and one row per task with 16 columns and 7 metrics.
 */
import { deepEqual } from "node:assert/strict";
import { createPrng } from "../lib/core/prng.ts";
import { buildClusterSums } from "../lib/infer/cluster_sums.ts";
import { bootstrapKernel } from "../lib/infer/bootstrap_kernel.ts";

async function digest(g: number, rowsPerTask: number, k: number, m: number, draws: number) {
  const data = createPrng(g * 31 + k);
  const n = g * rowsPerTask;
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  const ys = Array.from(
    { length: m },
    () => Float64Array.from({ length: n }, () => data.nextFloat() - 0.5),
  );
  const cluster = Int32Array.from({ length: n }, (_, i) => i % g);
  const sums = buildClusterSums(design, ys, cluster, { k, clusterCount: g });
  const r = bootstrapKernel(sums, { draws, seed: 11 });
  const h = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new Uint8Array(r.coefficients.buffer as ArrayBuffer)),
  );
  return Array.from(h, (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("bootstrap kernel: draws are byte-identical to the pinned earlier kernel", async () => {
  deepEqual(
    await digest(50, 3, 4, 2, 37),
    "20af08aa0b0e0eb8c03f7c6ae80ba9d66b761fbb7522c03e68ccb88a6057d0ba",
  );
  deepEqual(
    await digest(3000, 3, 6, 3, 9),
    "985f8993279990eb679ec75265725b13c7a9d8437f35bad791d936c71d509133",
  );
  deepEqual(
    await digest(400, 1, 16, 7, 21),
    "b2f96c995aa47ddbdacf82aa885b7d8b802f685b25237537d3f04e9d9ce9a3f3",
  );
});
