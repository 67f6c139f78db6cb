/**
 * The task-bootstrap kernel: weighted no-intercept OLS from per-task sums.
 *
 * A bootstrap draw is a count vector over tasks (how often each task was
 * drawn), drawn in O(G) without sorting. X'X and X'y of the draw are
 * count-weighted sums; one Cholesky per draw is shared by all metrics.
 * Eight draws are served by one pass: X'WX, which is integer on a 0/1
 * design, is summed with the draws' counts packed exactly into doubles,
 * per task from its pair counts or, when tasks far outnumber the bins,
 * from histograms of column-mask bytes (_xtx_hist.ts; any order is exact);
 * X'Wy is one pass over the rows in row order, adding count x y to the
 * columns present in the row (about M/2 of them), the eight draws' sums
 * of one entry side by side, so the memory read per draw is the sparse
 * design once, not once per metric and column. Where the runtime has
 * WebAssembly SIMD the whole block runs there (_wasm_kernel.ts: native
 * 32-bit integers for the stream, two draws per SIMD add), with the same
 * operations in the same order as the scalar loops here, so the same bytes.
 *
 * Draw order (the reproducibility contract): one stream
 * `createPrng(seed)` (lib/math/prng.ts); draw d = 0, 1, ... makes
 * G = clusterCount calls of `nextInt(G)`; each call picks one task (tasks
 * numbered in first-seen order, `PairedDataset.cluster`) and adds one to its
 * count. Draws are consecutive in the one stream. (The kernel runs a private
 * field-based copy of the same generator for speed; a test checks that the
 * two agree call for call.)
 *
 * @module
 */
import type { ProgressCallback } from "../../core/progress.ts";
import {
  choleskyPacked,
  choleskySolvePacked,
  packedSize,
  PIVOT_TOLERANCE,
} from "../../math/packed.ts";
import type { ClusterSums } from "./cluster_sums.ts";
import { FastStream } from "./_fast_stream.ts";
import {
  accumulateHist,
  buildXtxHistPlan,
  reduceHist,
  scatterPacked,
  type XtxHistPlan,
  xtxHistWins,
} from "./_xtx_hist.ts";
import { LANES, type WasmKernel, wasmKernel } from "./_wasm_kernel.ts";

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
  /**
   * Compute only draws `first .. last - 1` of the `draws` (a worker's
   * share): the stream is replayed through the earlier draws without
   * using them, so draw d is the same whichever range computes it.
   * @default {0 and draws}
   */
  readonly first?: number;
  readonly last?: number;
  /**
   * How X'WX is summed: per-task pair lists or mask-byte histograms
   * (lib/infer/bootstrap/_xtx_hist.ts). Both are exact, so the draws are the same
   * bytes; the default picks the cheaper one. For tests.
   */
  readonly xtx?: "pairs" | "histogram";
  /**
   * Whether each block of draws runs in WebAssembly (lib/infer/bootstrap/_wasm_kernel.ts;
   * the default where the runtime has SIMD; `true` throws where it has not) or
   * in the scalar loops: the same operations in the same order, so the same
   * bytes. For tests.
   */
  readonly wasm?: boolean;
  /**
   * The WebAssembly loops' own choices (side-by-side draws, the byte tallies' limit, X'WX
   * task by task): each gives the same bytes; the defaults pick the faster. For tests.
   */
  readonly wasmOptions?: {
    readonly sideBySide?: boolean;
    readonly tallyLimit?: number;
    readonly push?: boolean;
  };
}

/** Raw draws of {@linkcode bootstrapKernel}. */
export interface BootstrapKernelResult {
  /** Draws. */
  readonly draws: number;
  /** Design columns. */
  readonly k: number;
  /** Metrics bootstrapped. */
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
  // The draw count was checked where the options were resolved
  // (core/bootstrap_options.ts); the range check below refuses any other.
  if (g < 1) throw new RangeError("Cannot bootstrap: the data has no tasks");
  const first = options.first ?? 0, last = options.last ?? draws;
  if (
    !(Number.isInteger(first) && Number.isInteger(last) && 0 <= first && first < last &&
      last <= draws)
  ) {
    throw new RangeError(
      `Cannot bootstrap: draw range ${first}..${last} is not within 0..${draws}`,
    );
  }
  // X'WX from mask-byte histograms when tasks far outnumber the bins (_xtx_hist.ts), else
  // from the per-task pair lists; both are exact integer sums, so the bytes are the same.
  const histPlan = buildXtxHistPlan(sums);
  const useHist = options.xtx === undefined
    ? xtxHistWins(sums, histPlan)
    : options.xtx === "histogram";
  const stream = new FastStream(seed);
  const count = last - first;
  const coefficients = new Float64Array(count * m * k);
  const status = new Uint8Array(count);
  const packing = countPacking(sums);
  const wasm = options.wasm === false ? null : wasmKernel(sums, {
    ...options.wasmOptions,
    slots: packing.slots,
    packing,
    histograms: useHist ? histPlan : undefined,
  });
  if (options.wasm === true && !wasm) {
    throw new RangeError("Cannot bootstrap: this runtime has no WebAssembly SIMD");
  }
  if (wasm) wasm.skip(stream, first);
  else for (let d = 0; d < first; d++) stream.skipCounts(g);
  const block = wasm
    ? wasmBlock(wasm, stream, packing, useHist, k * m)
    : scalarBlock(sums, stream, packing, useHist ? histPlan : null);
  const step = Math.max(1, Math.floor(count / 100));
  let reported = 0;
  // LANES draws at a time: one pass over the rows serves LANES draws.
  for (let d0 = 0; d0 < count; d0 += LANES) {
    const lanes = Math.min(LANES, count - d0);
    block(lanes, coefficients, d0, status);
    const done = d0 + lanes;
    if (onProgress && (done - reported >= step || done === count)) {
      reported = done;
      onProgress(done, count);
    }
  }
  return { draws: count, k, metricCount: m, coefficients, status };
}

/**
 * How a block's counts are packed for X'WX. A lane's X'WX entry is at most
 * (tasks drawn) x (rows of the largest task) = bound. X'WX is integer, so
 * lanes are packed into one double's 53-bit mantissa: four lanes of 13 bits
 * (bound < 2^13), two of 26 bits (bound < 2^26), else one; one add then
 * serves several draws exactly.
 */
interface CountPacking {
  readonly perDouble: number;
  readonly shift: number;
  readonly slots: number;
}

function countPacking(sums: ClusterSums): CountPacking {
  let maxRows = 0;
  for (let c = 0; c < sums.clusterCount; c++) maxRows = Math.max(maxRows, sums.rows[c]!);
  const bound = sums.clusterCount * maxRows;
  const perDouble = bound < 2 ** 13 ? 4 : bound < 2 ** 26 ? 2 : 1;
  const shift = perDouble === 4 ? 2 ** 13 : perDouble === 2 ? 2 ** 26 : 0;
  return { perDouble, shift, slots: LANES / perDouble };
}

/** Computes `lanes` draws into `coefficients` and `status` from draw `d0` on. */
type DrawBlock = (
  lanes: number,
  coefficients: Float64Array,
  d0: number,
  status: Uint8Array,
) => void;

/** A block of draws in WebAssembly (_wasm_kernel.ts). */
function wasmBlock(
  wasm: WasmKernel,
  stream: FastStream,
  packing: CountPacking,
  useHist: boolean,
  km: number,
): DrawBlock {
  const { perDouble, shift, slots } = packing;
  return (lanes, coefficients, d0, status) => {
    wasm.draw(stream, lanes);
    wasm.pack(perDouble, shift);
    if (useHist) wasm.scatterHist(slots);
    else wasm.scatter(slots);
    wasm.xty();
    wasm.solve(lanes, perDouble, shift, PIVOT_TOLERANCE);
    coefficients.set(wasm.coefficients.subarray(0, lanes * km), d0 * km);
    status.set(wasm.status.subarray(0, lanes), d0);
  };
}

/** A block of draws in the scalar loops: counts, packing, X'WX, X'Wy, then each lane solved. */
function scalarBlock(
  sums: ClusterSums,
  stream: FastStream,
  packing: CountPacking,
  histPlan: XtxHistPlan | null,
): DrawBlock {
  const { k, metricCount: m, clusterCount: g } = sums;
  const { perDouble, shift, slots } = packing;
  const p = packedSize(k), km = k * m;
  const { rowCluster, rowColStart, rowCol, rowY } = sums;
  // Counts interleaved as counts[c * LANES + l].
  const counts = new Float64Array(g * LANES);
  const packed = new Float64Array(g * slots);
  const acc = new Float64Array(p * slots);
  const xtxL = new Float64Array(p * LANES);
  const xtyL = new Float64Array(km * LANES);
  const hist = new Float64Array(histPlan ? histPlan.bins * slots : 0);
  const scratch = new Float64Array(256);
  // The pair lists only where X'WX is summed from them (single-row sums derive them on read).
  const pairs = histPlan ? null : {
    start: sums.pairStart,
    index: sums.pairIndex,
    value: sums.pairValue.every((v) => v === 1) ? null : sums.pairValue,
  };
  const work = kernelWorkspace(k);
  return (lanes, coefficients, d0, status) => {
    counts.fill(0);
    for (let l = 0; l < lanes; l++) stream.drawCounts(counts, g, LANES, l);
    packCounts(counts, packed, g, packing);
    if (histPlan) {
      accumulateHist(histPlan, hist, packed, slots);
      reduceHist(histPlan, hist, slots, acc, scratch);
    } else {
      acc.fill(0);
      scatterPacked(acc, packed, slots, pairs!.start, pairs!.index, pairs!.value);
    }
    xtyL.fill(0);
    accumulateXty(xtyL, k, m, counts, rowCluster, rowColStart, rowCol, rowY);
    for (let h = 0; h < slots; h++) {
      for (let q = 0; q < p; q++) {
        let s = acc[q * slots + h]!;
        for (let u = 0; u < perDouble - 1; u++) {
          const hi = Math.floor(s / shift);
          xtxL[(h * perDouble + u) * p + q] = s - hi * shift;
          s = hi;
        }
        xtxL[(h * perDouble + perDouble - 1) * p + q] = s;
      }
    }
    for (let l = 0; l < lanes; l++) {
      const d = d0 + l;
      const xtx = work.xtx;
      for (let q = 0; q < p; q++) xtx[q] = xtxL[l * p + q]!;
      const out = d * m * k;
      for (let t = 0; t < km; t++) coefficients[out + t] = xtyL[t * LANES + l]!;
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
  };
}

/** Packs a block's counts `perDouble` lanes to a double, in base `shift` (exact integers). */
function packCounts(
  counts: Float64Array,
  packed: Float64Array,
  g: number,
  { perDouble, shift, slots }: CountPacking,
): void {
  for (let c = 0; c < g; c++) {
    const o = c * LANES, at = c * slots;
    if (perDouble === 4) {
      for (let h = 0; h < slots; h++) {
        const u = o + 4 * h;
        packed[at + h] = counts[u]! +
          shift * (counts[u + 1]! + shift * (counts[u + 2]! + shift * counts[u + 3]!));
      }
    } else if (perDouble === 2) {
      for (let h = 0; h < slots; h++) {
        packed[at + h] = counts[o + 2 * h]! + shift * counts[o + 2 * h + 1]!;
      }
    } else {
      for (let l = 0; l < LANES; l++) packed[o + l] = counts[o + l]!;
    }
  }
}

/**
 * X'Wy of eight draws into `xty[(mm * k + j) * LANES + lane]`.
 * Entry (metric, column) adds count x y over the rows where the column is
 * 1, in row order: that summation order is part of the byte-identical
 * result. One pass over the rows serves eight draws.
 */
function accumulateXty(
  xty: Float64Array,
  k: number,
  m: number,
  counts: Float64Array,
  rowCluster: Int32Array,
  rowColStart: Int32Array,
  rowCol: Int32Array,
  rowY: Float64Array,
): void {
  const n = rowCluster.length;
  for (let i = 0; i < n; i++) {
    const o = rowCluster[i]! * LANES;
    const w0 = counts[o]!, w1 = counts[o + 1]!, w2 = counts[o + 2]!, w3 = counts[o + 3]!;
    const w4 = counts[o + 4]!, w5 = counts[o + 5]!, w6 = counts[o + 6]!, w7 = counts[o + 7]!;
    if ((w0 | w1 | w2 | w3 | w4 | w5 | w6 | w7) === 0) continue;
    const e0 = rowColStart[i]!, e1 = rowColStart[i + 1]!;
    for (let mm = 0; mm < m; mm++) {
      const y = rowY[i * m + mm]!;
      const a0 = w0 * y, a1 = w1 * y, a2 = w2 * y, a3 = w3 * y;
      const a4 = w4 * y, a5 = w5 * y, a6 = w6 * y, a7 = w7 * y;
      const base = mm * k;
      for (let a = e0; a < e1; a++) {
        const t = (base + rowCol[a]!) * LANES;
        xty[t] = xty[t]! + a0;
        xty[t + 1] = xty[t + 1]! + a1;
        xty[t + 2] = xty[t + 2]! + a2;
        xty[t + 3] = xty[t + 3]! + a3;
        xty[t + 4] = xty[t + 4]! + a4;
        xty[t + 5] = xty[t + 5]! + a5;
        xty[t + 6] = xty[t + 6]! + a6;
        xty[t + 7] = xty[t + 7]! + a7;
      }
    }
  }
}
