/**
 * The task-bootstrap kernel: weighted no-intercept OLS from per-task sums.
 *
 * A bootstrap draw is a count vector over tasks (how often each task was
 * drawn). X'X and X'y of the draw are the count-weighted sums of the
 * per-task sparse sums ({@linkcode ClusterSums}); one Cholesky per draw is
 * shared by all metrics. X'WX is gathered per entry from the rows where
 * both columns are 1 (the 0/1 design means no multiplications), four draws
 * per pass over the lists.
 *
 * Draw order (the reproducibility contract): one stream
 * `createPrng(seed)` (lib/core/prng.ts); draw d = 0, 1, ... makes
 * G = clusterCount calls of `nextInt(G)`; each call picks one task (tasks
 * numbered in first-seen order, `PairedDataset.cluster`) and adds one to its
 * count. Draws are consecutive in the one stream. (The kernel runs a private
 * field-based copy of the same generator for speed; a test checks that the
 * two agree call for call.)
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";
import { choleskyPacked, choleskySolvePacked, packedSize } from "./_linalg.ts";
import type { ClusterSums } from "./cluster_sums.ts";
import { FastStream } from "./_fast_stream.ts";

/** Lane width of the packed X'WX gather: 2^13. */
const LANE = 8192;

/** Reusable scratch space of {@linkcode solveWeighted}. */
export interface KernelWorkspace {
  readonly xtx: Float64Array;
  readonly absent: Uint8Array;
}

/** Allocates scratch space for a k-column problem. */
export function kernelWorkspace(k: number): KernelWorkspace {
  return { xtx: new Float64Array(packedSize(k)), absent: new Uint8Array(k) };
}

/**
 * Solves the count-weighted OLS for all metrics: X'WX beta = X'Wy with
 * W = counts of each task. Writes `metricCount * k` coefficients
 * (metric-major) at `out[outOffset ...]`; a column absent from the
 * weighted sample gets NaN (the others are solved without it).
 *
 * @returns "ok", "absent" (some column absent, others solved), or
 *   "singular" (all outputs NaN).
 */
export function solveWeighted(
  sums: ClusterSums,
  counts: ArrayLike<number>,
  out: Float64Array,
  outOffset: number,
  work: KernelWorkspace,
): "ok" | "absent" | "singular" {
  const { k, metricCount: m, clusterCount: g } = sums;
  const { pairStart, pairIndex, pairValue, colStart, colIndex, colValue } = sums;
  const xtx = work.xtx;
  xtx.fill(0);
  out.fill(0, outOffset, outOffset + m * k);
  for (let c = 0; c < g; c++) {
    const w = counts[c]!;
    if (w === 0) continue;
    for (let p = pairStart[c]!, end = pairStart[c + 1]!; p < end; p++) {
      const q = pairIndex[p]!;
      xtx[q] = xtx[q]! + w * pairValue[p]!;
    }
    for (let p = colStart[c]!, end = colStart[c + 1]!; p < end; p++) {
      const j = outOffset + colIndex[p]!;
      const base = p * m;
      for (let mm = 0; mm < m; mm++) out[j + mm * k] = out[j + mm * k]! + w * colValue[base + mm]!;
    }
  }
  if (!choleskyPacked(xtx, k, work.absent)) {
    out.fill(NaN, outOffset, outOffset + m * k);
    return "singular";
  }
  for (let mm = 0; mm < m; mm++) choleskySolvePacked(xtx, k, work.absent, out, outOffset + mm * k);
  for (let j = 0; j < k; j++) if (work.absent[j]) return "absent";
  return "ok";
}

/** Options of {@linkcode bootstrapKernel}. */
export interface BootstrapKernelOptions {
  /** Number of draws. */
  readonly draws: number;
  /** Seed of the one `createPrng(seed)` stream, consumed in the documented order. */
  readonly seed: number;
  /** Called every 1% of the draws and at the end. */
  readonly onProgress?: ProgressCallback;
}

/** Raw draws of {@linkcode bootstrapKernel}. */
export interface BootstrapKernelResult {
  readonly draws: number;
  readonly k: number;
  readonly metricCount: number;
  /** `coefficients[(d * metricCount + m) * k + j]`; NaN where degenerate. */
  readonly coefficients: Float64Array;
  /** Per draw: 0 ok, 1 some column absent, 2 singular X'WX. */
  readonly status: Uint8Array;
}

/**
 * Runs the task bootstrap: for each draw, resample tasks with replacement
 * (a count vector) and solve the weighted OLS for every metric.
 *
 * @param sums Per-task sums from {@linkcode buildClusterSums}.
 * @param options draws, seed, onProgress.
 * @returns All draws, metric-major within a draw.
 *
 * @example Reproducible from the seed
 * ```ts
 * import { buildClusterSums } from "./cluster_sums.ts";
 * import { bootstrapKernel } from "./bootstrap_kernel.ts";
 * import { deepEqual } from "node:assert/strict";
 * const design = Uint8Array.from([1, 0, 0, 1, 1, 1, 1, 0]);
 * const y = Float64Array.from([1, 2, 3.5, 0.8]);
 * const sums = buildClusterSums(design, [y], Int32Array.from([0, 1, 2, 3]), { k: 2, clusterCount: 4 });
 * const a = bootstrapKernel(sums, { draws: 50, seed: 7 });
 * const b = bootstrapKernel(sums, { draws: 50, seed: 7 });
 * deepEqual(Array.from(a.coefficients, String), Array.from(b.coefficients, String));
 * deepEqual(a.status, b.status);
 * ```
 */
export function bootstrapKernel(
  sums: ClusterSums,
  options: BootstrapKernelOptions,
): BootstrapKernelResult {
  const { draws, seed, onProgress } = options;
  const { k, metricCount: m, clusterCount: g } = sums;
  if (!(Number.isSafeInteger(draws) && draws >= 1)) {
    throw new RangeError(`Cannot bootstrap: draws must be a positive integer, got ${draws}`);
  }
  if (g < 1) throw new RangeError("Cannot bootstrap: the data has no tasks");
  const coefficients = new Float64Array(draws * m * k);
  const status = new Uint8Array(draws);
  const stream = new FastStream(seed);
  const p = packedSize(k);
  const { pairListStart, pairCluster, colListStart, colCluster, colY } = sums;
  // Four draws at a time: counts interleaved as counts4[c * 4 + l], so one
  // pass over a gather list serves four draws.
  const counts4 = new Int32Array(g * 4);
  // A lane's X'WX entry is at most (tasks drawn) x (rows of the largest task);
  // below 2^13 four lanes fit exactly in one double's 53-bit mantissa.
  let maxRows = 0;
  for (let c = 0; c < g; c++) maxRows = Math.max(maxRows, sums.rows[c]!);
  const packable = g * maxRows < LANE;
  const packed = new Float64Array(packable ? g : 0);
  const xtx4 = new Float64Array(p * 4);
  const xty4 = new Float64Array(k * m * 4);
  const work = kernelWorkspace(k);
  const step = Math.max(1, Math.floor(draws / 100));
  let reported = 0;
  for (let d0 = 0; d0 < draws; d0 += 4) {
    const lanes = Math.min(4, draws - d0);
    counts4.fill(0);
    for (let l = 0; l < lanes; l++) stream.drawCounts(counts4, g, 4, l);
    if (packable) {
      // Pack the four lanes' counts into one exact double (13 bits a lane):
      // one add per list entry serves four draws.
      for (let c = 0; c < g; c++) {
        const o = c << 2;
        packed[c] = counts4[o]! +
          LANE * (counts4[o + 1]! + LANE * (counts4[o + 2]! + LANE * counts4[o + 3]!));
      }
      for (let q = 0; q < p; q++) {
        let s = 0;
        for (let e = pairListStart[q]!, end = pairListStart[q + 1]!; e < end; e++) {
          s += packed[pairCluster[e]!]!;
        }
        const hi1 = Math.floor(s / LANE),
          hi2 = Math.floor(hi1 / LANE),
          hi3 = Math.floor(hi2 / LANE);
        xtx4[q] = s - hi1 * LANE;
        xtx4[p + q] = hi1 - hi2 * LANE;
        xtx4[2 * p + q] = hi2 - hi3 * LANE;
        xtx4[3 * p + q] = hi3;
      }
    } else {
      for (let q = 0; q < p; q++) {
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (let e = pairListStart[q]!, end = pairListStart[q + 1]!; e < end; e++) {
          const o = pairCluster[e]! << 2;
          s0 += counts4[o]!;
          s1 += counts4[o + 1]!;
          s2 += counts4[o + 2]!;
          s3 += counts4[o + 3]!;
        }
        xtx4[q] = s0;
        xtx4[p + q] = s1;
        xtx4[2 * p + q] = s2;
        xtx4[3 * p + q] = s3;
      }
    }
    for (let j = 0; j < k; j++) {
      for (let mm = 0; mm < m; mm++) {
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (let e = colListStart[j]!, end = colListStart[j + 1]!; e < end; e++) {
          const o = colCluster[e]! << 2;
          const y = colY[e * m + mm]!;
          s0 += counts4[o]! * y;
          s1 += counts4[o + 1]! * y;
          s2 += counts4[o + 2]! * y;
          s3 += counts4[o + 3]! * y;
        }
        const at = mm * k + j;
        xty4[at] = s0;
        xty4[k * m + at] = s1;
        xty4[2 * k * m + at] = s2;
        xty4[3 * k * m + at] = s3;
      }
    }
    for (let l = 0; l < lanes; l++) {
      const d = d0 + l;
      const xtx = work.xtx;
      for (let q = 0; q < p; q++) xtx[q] = xtx4[l * p + q]!;
      const out = d * m * k;
      for (let t = 0; t < m * k; t++) coefficients[out + t] = xty4[l * k * m + t]!;
      if (!choleskyPacked(xtx, k, work.absent)) {
        coefficients.fill(NaN, out, out + m * k);
        status[d] = 2;
        continue;
      }
      for (let mm = 0; mm < m; mm++) {
        choleskySolvePacked(xtx, k, work.absent, coefficients, out + mm * k);
      }
      let absent = 0;
      for (let j = 0; j < k; j++) absent |= work.absent[j]!;
      status[d] = absent ? 1 : 0;
    }
    const done = d0 + lanes;
    if (onProgress && (done - reported >= step || done === draws)) {
      reported = done;
      onProgress(done, draws);
    }
  }
  return { draws, k, metricCount: m, coefficients, status };
}
