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
 * Then the worker split: any number of workers gives the same bytes, and a
 * worker that fails has its block computed on the calling thread, said in a
 * warning line.
 */
import { deepEqual, ok } from "node:assert/strict";
import { createPrng } from "../lib/math/prng.ts";
import {
  buildClusterSums,
  pairListLength,
  reviveClusterSums,
} from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapKernel } from "../lib/infer/bootstrap/bootstrap_kernel.ts";
import { bootstrapKernelParallel, drawBlocks } from "../lib/infer/bootstrap/bootstrap_parallel.ts";
import {
  bootstrapDataset,
  bootstrapDatasetParallel,
  bootstrapToJson,
} from "../lib/infer/bootstrap/bootstrap.ts";
import { bootstrapFixture } from "./infer_fixture.ts";

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

Deno.test("bootstrap: Web Workers (2 and 3) give the single-thread result byte for byte", async () => {
  const one = bootstrapDataset(bootstrapFixture(), { draws: 503, seed: 9, interval: "bca" });
  for (const workers of [2, 3]) {
    const many = await bootstrapDatasetParallel(bootstrapFixture(), {
      draws: 503,
      seed: 9,
      interval: "bca",
      workers,
    });
    deepEqual(
      new Uint8Array(many.kernel.coefficients.buffer as ArrayBuffer),
      new Uint8Array(one.kernel.coefficients.buffer as ArrayBuffer),
    );
    deepEqual(many.kernel.status, one.kernel.status);
    deepEqual(JSON.stringify(bootstrapToJson(many)), JSON.stringify(bootstrapToJson(one)));
  }
});

Deno.test("bootstrap kernel: a block of draws equals the same draws of the whole run", () => {
  const g = 60, k = 3, n = 120;
  const data = createPrng(5);
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  const y = Float64Array.from({ length: n }, () => data.nextFloat());
  const sums = buildClusterSums(design, [y], Int32Array.from({ length: n }, (_, i) => i % g), {
    k,
    clusterCount: g,
  });
  const whole = bootstrapKernel(sums, { draws: 40, seed: 3 });
  const block = bootstrapKernel(sums, { draws: 40, seed: 3, first: 13, last: 31 });
  deepEqual(block.draws, 18);
  deepEqual(
    new Uint8Array(block.coefficients.buffer as ArrayBuffer),
    new Uint8Array(whole.coefficients.slice(13 * k, 31 * k).buffer as ArrayBuffer),
  );
});

Deno.test("bootstrap: a worker that fails has its draws run on this thread, with one warning line", async () => {
  const g = 40, k = 3, n = 80;
  const data = createPrng(8);
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  const y = Float64Array.from({ length: n }, () => data.nextFloat());
  const sums = buildClusterSums(design, [y], Int32Array.from({ length: n }, (_, i) => i % g), {
    k,
    clusterCount: g,
  });
  const one = bootstrapKernel(sums, { draws: 50, seed: 4 });
  const warnings: string[] = [];
  const many = await bootstrapKernelParallel(sums, {
    draws: 50,
    seed: 4,
    workers: 3,
    workerUrl: new URL("./data/failing_bootstrap_worker.ts", import.meta.url),
    onWarning: (line) => warnings.push(line),
  });
  deepEqual(
    new Uint8Array(many.coefficients.buffer as ArrayBuffer),
    new Uint8Array(one.coefficients.buffer as ArrayBuffer),
  );
  deepEqual(many.status, one.status);
  deepEqual(many.threadsRun, 1);
  deepEqual(warnings.length, 2);
  for (const line of warnings) {
    ok(
      /^warning {2}bootstrap_workers {2}bootstrap worker [12] failed \(.*out of memory \(test\)\): its draws \d+\.\.\d+ run on the main thread/
        .test(line),
      line,
    );
  }
});

Deno.test("bootstrap: draw blocks cover every draw once, later blocks shorter by the replay", () => {
  for (const [draws, threads] of [[10_000, 2], [10_000, 8], [7, 7], [9, 4], [1, 1]] as const) {
    const b = drawBlocks(draws, threads);
    deepEqual([b.length, b[0], b.at(-1)], [threads + 1, 0, draws]);
    for (let w = 0; w < threads; w++) ok(b[w + 1]! > b[w]!, `${draws} ${threads}: ${b}`);
  }
  const b = drawBlocks(10_000, 4, 0.12);
  for (let w = 1; w < 4; w++) ok(b[w + 1]! - b[w]! < b[w]! - b[w - 1]!, String(b));
  // Each thread's time, replay included, within a draw of block 0's.
  for (let w = 1; w < 4; w++) {
    ok(Math.abs(0.12 * b[w]! + (b[w + 1]! - b[w]!) - b[1]!) <= 1, String(b));
  }
});

Deno.test("cluster sums: one row per task derives the lists on read, equal to their definition; a posted copy is revived", () => {
  const g = 300, k = 9, m = 3;
  const data = createPrng(21);
  const design = Uint8Array.from({ length: g * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  const ys = Array.from(
    { length: m },
    () => Float64Array.from({ length: g }, () => data.nextFloat() - 0.5),
  );
  // Tasks numbered out of row order (a permutation), one row each.
  const cluster = Int32Array.from({ length: g }, (_, i) => (i * 7) % g);
  const sums = buildClusterSums(design, ys, cluster, { k, clusterCount: g });
  // The definition: task c's pairs (i <= j both present) ascending with value 1, its present
  // columns ascending with the row's responses; X'X and X'y summed task by task.
  const want = {
    pairStart: [0],
    pairIndex: [] as number[],
    colStart: [0],
    colIndex: [] as number[],
    colValue: [] as number[],
  };
  const xty = new Float64Array(m * k);
  for (let c = 0; c < g; c++) {
    const row = cluster.indexOf(c);
    const present = [...Array(k).keys()].filter((j) => design[row * k + j] === 1);
    for (const [a, i] of present.entries()) {
      for (const j of present.slice(a)) want.pairIndex.push((i * (2 * k - i + 1)) / 2 + (j - i));
      want.colIndex.push(i);
      for (let mm = 0; mm < m; mm++) {
        want.colValue.push(ys[mm]![row]!);
        xty[mm * k + i] = xty[mm * k + i]! + ys[mm]![row]!;
      }
    }
    want.pairStart.push(want.pairIndex.length);
    want.colStart.push(want.colIndex.length);
  }
  deepEqual(pairListLength(sums), want.pairIndex.length);
  const read = (s: typeof sums) => ({
    pairStart: [...s.pairStart],
    pairIndex: [...s.pairIndex],
    colStart: [...s.colStart],
    colIndex: [...s.colIndex],
    colValue: [...s.colValue],
  });
  deepEqual(read(sums), want);
  deepEqual([...sums.pairValue], want.pairIndex.map(() => 1));
  deepEqual(new Uint8Array(sums.xty.buffer), new Uint8Array(xty.buffer));
  // Posted to a worker the derived lists are left out (not copied) and revived there.
  const posted = structuredClone(sums);
  deepEqual((posted as Partial<typeof sums>).pairStart, undefined);
  const revived = reviveClusterSums(posted);
  deepEqual(read(revived), want);
  deepEqual([...revived.xtx], [...sums.xtx]);
  // A pooled design keeps its lists as built.
  const pooled = buildClusterSums(design, ys, Int32Array.from(cluster, (c) => c >> 1), {
    k,
    clusterCount: g / 2,
  });
  deepEqual(reviveClusterSums(structuredClone(pooled)).pairStart, pooled.pairStart);
});
