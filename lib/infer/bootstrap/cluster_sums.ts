/**
 * Per-task sufficient statistics of the paired-delta OLS, the input of the
 * bootstrap kernel. Because the design is 0/1, a task's X'X contribution
 * is a short list of (packed index, count) pairs and its X'y contribution a
 * short list of (column, per-metric sums): zeros are never stored.
 *
 * @module
 */
import type { PairedDataset } from "../../core/types.ts";
import { packedIndex, packedSize } from "../../math/packed.ts";

/**
 * Sparse per-cluster sums in CSR form. Cluster g's X'X entries are
 * `pairIndex/pairValue[pairStart[g] .. pairStart[g+1])` (packed upper
 * indices); its X'y entries are `colIndex[colStart[g] .. colStart[g+1])`
 * with values `colValue[ptr * metricCount + m]`.
 */
export interface ClusterSums {
  /** Number of design columns. */
  readonly k: number;
  readonly metricCount: number;
  readonly clusterCount: number;
  readonly pairStart: Int32Array;
  readonly pairIndex: Int32Array;
  readonly pairValue: Float64Array;
  readonly colStart: Int32Array;
  readonly colIndex: Int32Array;
  readonly colValue: Float64Array;
  /** Full-sample packed X'X (every cluster once). */
  readonly xtx: Float64Array;
  /** Full-sample X'y, metric-major: `xty[m * k + j]`. */
  readonly xty: Float64Array;
  /** Rows per cluster. */
  readonly rows: Int32Array;
  /**
   * The rows again, in row order, for the bootstrap's one pass per draw
   * block: row i belongs to cluster `rowCluster[i]`, its present columns
   * are `rowCol[rowColStart[i] .. rowColStart[i+1])` (ascending) and its
   * responses are `rowY[i * metricCount + m]`.
   */
  readonly rowCluster: Int32Array;
  readonly rowColStart: Int32Array;
  readonly rowCol: Int32Array;
  readonly rowY: Float64Array;
}

/**
 * Builds per-cluster sparse sums of X'X and X'y for the given response
 * columns (one per metric). When every cluster has one row (one paired row
 * per task, the common case at scale), the per-cluster lists repeat the row
 * lists, so they are not stored: they are derived from the rows on first
 * read and kept (about 1 GB at 1,000,000 tasks with 16 columns and seven
 * metrics that the bootstrap's kernel, reading the rows, never needs).
 *
 * @param design Row-major n x k 0/1 design.
 * @param responses One Float64Array of length n per metric.
 * @param cluster Cluster (task) of each row, 0..clusterCount-1.
 * @param options k and clusterCount.
 * @returns The sums.
 * @throws {RangeError} if a cluster id is out of range or lengths disagree.
 *
 * @example Two tasks, one pooled over two rows
 * ```ts
 * import { buildClusterSums } from "./cluster_sums.ts";
 * import { deepEqual } from "node:assert/strict";
 * const design = Uint8Array.from([1, 0, 1, 1, 0, 1]); // 3 rows x 2 columns
 * const y = Float64Array.from([1, 2, 3]);
 * const s = buildClusterSums(design, [y], Int32Array.from([0, 0, 1]), { k: 2, clusterCount: 2 });
 * deepEqual([...s.xtx], [2, 1, 2]);   // [x11, x12, x22]
 * deepEqual([...s.xty], [3, 5]);
 * deepEqual([...s.rows], [2, 1]);
 * ```
 *
 * @example One row per task: the same lists, derived from the rows
 * ```ts
 * import { buildClusterSums } from "./cluster_sums.ts";
 * import { deepEqual } from "node:assert/strict";
 * const design = Uint8Array.from([1, 1, 0, 1]); // 2 rows x 2 columns
 * const s = buildClusterSums(design, [Float64Array.of(1, 2)], Int32Array.of(1, 0), { k: 2, clusterCount: 2 });
 * deepEqual([[...s.pairStart], [...s.pairIndex], [...s.pairValue]], [[0, 1, 4], [2, 0, 1, 2], [1, 1, 1, 1]]);
 * deepEqual([[...s.colStart], [...s.colIndex], [...s.colValue]], [[0, 1, 3], [1, 0, 1], [2, 1, 1]]);
 * deepEqual([[...s.xtx], [...s.xty]], [[1, 1, 2], [1, 3]]);
 * ```
 */
export function buildClusterSums(
  design: Uint8Array,
  responses: readonly Float64Array[],
  cluster: Int32Array,
  options: { readonly k: number; readonly clusterCount: number },
): ClusterSums {
  const { k, clusterCount: g } = options;
  const n = cluster.length;
  const m = responses.length;
  if (design.length !== n * k) {
    throw new RangeError(
      `Cannot build cluster sums: design has ${design.length} cells, expected ${n} x ${k}`,
    );
  }
  for (const r of responses) {
    if (r.length !== n) {
      throw new RangeError(
        `Cannot build cluster sums: a response has ${r.length} rows, expected ${n}`,
      );
    }
  }
  const rows = rowsPerCluster(cluster, g);
  // In shared memory, so the bootstrap's workers read these arrays instead of each
  // receiving a copy (about 1 GB at 1,000,000 tasks).
  const base = {
    k,
    metricCount: m,
    clusterCount: g,
    rows: shared(Int32Array, rows),
    rowCluster: shared(Int32Array, cluster),
    ...rowLists(design, responses, k),
  };
  if (rows.every((r) => r === 1)) return singleRowSums(base);
  const lists = clusterLists(design, responses, cluster, rows, k);
  return { ...base, ...lists };
}

/** Rows of each cluster; throws on a cluster id outside 0..g-1. */
function rowsPerCluster(cluster: Int32Array, g: number): Int32Array {
  const rows = new Int32Array(g);
  for (let i = 0; i < cluster.length; i++) {
    const c = cluster[i]!;
    if (!(c >= 0 && c < g)) {
      throw new RangeError(
        `Cannot build cluster sums: row ${i} has cluster ${c} outside 0..${g - 1}`,
      );
    }
    rows[c] = rows[c]! + 1;
  }
  return rows;
}

/** The rows in row order: present columns (ascending) and responses, in shared memory. */
function rowLists(
  design: Uint8Array,
  responses: readonly Float64Array[],
  k: number,
): Pick<ClusterSums, "rowColStart" | "rowCol" | "rowY"> {
  const n = design.length / k, m = responses.length;
  const rowColStart = sharedArray(Int32Array, n + 1);
  for (let row = 0; row < n; row++) {
    let count = 0;
    for (let j = 0; j < k; j++) if (design[row * k + j] !== 0) count++;
    rowColStart[row + 1] = rowColStart[row]! + count;
  }
  const rowCol = sharedArray(Int32Array, rowColStart[n]!);
  const rowY = sharedArray(Float64Array, n * m);
  for (let row = 0, e = 0; row < n; row++) {
    for (let j = 0; j < k; j++) if (design[row * k + j] !== 0) rowCol[e++] = j;
    for (let mm = 0; mm < m; mm++) rowY[row * m + mm] = responses[mm]![row]!;
  }
  return { rowColStart, rowCol, rowY };
}

/** The per-cluster lists and the full-sample sums, as {@linkcode ClusterSums} holds them. */
type ClusterLists = Pick<
  ClusterSums,
  "pairStart" | "pairIndex" | "pairValue" | "colStart" | "colIndex" | "colValue" | "xtx" | "xty"
>;

/** The rows' fields of {@linkcode ClusterSums}, from which single-row sums derive the rest. */
type RowSums = Omit<ClusterSums, keyof ClusterLists>;

/** Sums built by {@linkcode singleRowSums} (their lists derived on first read). */
const singleRow = new WeakSet<object>();

/**
 * Sums whose clusters have one row each: the full-sample X'X and X'y summed
 * here (clusters in order, as {@linkcode clusterLists} adds them), the
 * per-cluster lists derived from the rows on first read and kept. They are
 * not enumerable, so a worker is posted the rows alone; it calls
 * {@linkcode reviveClusterSums}.
 */
function singleRowSums(base: RowSums): ClusterSums {
  const { k, metricCount: m, clusterCount: g, rowCluster, rowColStart, rowCol, rowY } = base;
  const rowOf = new Int32Array(g);
  for (let i = 0; i < g; i++) rowOf[rowCluster[i]!] = i;
  const xtx = new Float64Array(packedSize(k)), xty = new Float64Array(m * k);
  for (let c = 0; c < g; c++) {
    const row = rowOf[c]!, e0 = rowColStart[row]!, e1 = rowColStart[row + 1]!;
    for (let a = e0; a < e1; a++) {
      const i = rowCol[a]!;
      for (let b = a; b < e1; b++) xtx[packedIndex(k, i, rowCol[b]!)]! += 1;
      for (let mm = 0; mm < m; mm++) xty[mm * k + i] = xty[mm * k + i]! + rowY[row * m + mm]!;
    }
  }
  let lists: Omit<ClusterLists, "xtx" | "xty"> | undefined;
  const derived = () => (lists ??= singleRowLists(base, rowOf));
  const sums = { ...base, xtx, xty };
  for (const key of ["pairStart", "pairIndex", "pairValue", "colStart", "colIndex", "colValue"]) {
    Object.defineProperty(sums, key, {
      get: () => derived()[key as keyof typeof lists],
      enumerable: false,
    });
  }
  singleRow.add(sums);
  return sums as ClusterSums;
}

/**
 * Entries of the pair lists (`pairStart[clusterCount]`), without deriving
 * the lists of single-row sums: each row's present columns c add c (c + 1) / 2.
 *
 * @param sums Per-task sums.
 * @returns The number of (cluster, packed X'X entry) pairs.
 */
export function pairListLength(sums: ClusterSums): number {
  if (!singleRow.has(sums)) return sums.pairStart[sums.clusterCount]!;
  const { rowColStart } = sums;
  let total = 0;
  for (let i = 0; i + 1 < rowColStart.length; i++) {
    const c = rowColStart[i + 1]! - rowColStart[i]!;
    total += (c * (c + 1)) / 2;
  }
  return total;
}

/** The per-cluster lists of single-row clusters: each its row's pairs and columns. */
function singleRowLists(
  base: RowSums,
  rowOf: Int32Array,
): Omit<ClusterLists, "xtx" | "xty"> {
  const { k, metricCount: m, clusterCount: g, rowColStart, rowCol, rowY } = base;
  const pairStart = sharedArray(Int32Array, g + 1), colStart = sharedArray(Int32Array, g + 1);
  for (let c = 0; c < g; c++) {
    const row = rowOf[c]!, present = rowColStart[row + 1]! - rowColStart[row]!;
    pairStart[c + 1] = pairStart[c]! + (present * (present + 1)) / 2;
    colStart[c + 1] = colStart[c]! + present;
  }
  const pairIndex = sharedArray(Int32Array, pairStart[g]!);
  const pairValue = sharedArray(Float64Array, pairStart[g]!).fill(1);
  const colIndex = sharedArray(Int32Array, colStart[g]!);
  const colValue = sharedArray(Float64Array, colStart[g]! * m);
  for (let c = 0, p = 0, f = 0; c < g; c++) {
    const row = rowOf[c]!, e0 = rowColStart[row]!, e1 = rowColStart[row + 1]!;
    // Ascending columns give ascending packed indices (row-major upper triangle).
    for (let a = e0; a < e1; a++) {
      for (let b = a; b < e1; b++) pairIndex[p++] = packedIndex(k, rowCol[a]!, rowCol[b]!);
      colIndex[f] = rowCol[a]!;
      // 0 + y, as a cluster's sum from zero is (-0 becomes +0).
      for (let mm = 0; mm < m; mm++) colValue[f * m + mm] = 0 + rowY[row * m + mm]!;
      f++;
    }
  }
  return { pairStart, pairIndex, pairValue, colStart, colIndex, colValue };
}

/**
 * The sums as a worker receives them (posted, structured-cloned): single-row
 * sums arrive without their derived lists, which this puts back (derived
 * again on first read); other sums are returned as they are.
 *
 * @param sums Sums posted from another thread.
 * @returns Sums with every field of {@linkcode ClusterSums}.
 */
export function reviveClusterSums(sums: ClusterSums): ClusterSums {
  if ((sums as Partial<ClusterSums>).pairStart !== undefined) return sums;
  const { xtx, xty, ...base } = sums;
  const revived = singleRowSums(base);
  revived.xtx.set(xtx);
  revived.xty.set(xty);
  return revived;
}

/** Two passes over each cluster's rows: the lists' sizes, then the lists and sums. */
function clusterLists(
  design: Uint8Array,
  responses: readonly Float64Array[],
  cluster: Int32Array,
  rows: Int32Array,
  k: number,
): ClusterLists {
  const g = rows.length, n = cluster.length, m = responses.length;
  // Rows of each cluster, in row order.
  const rowStart = new Int32Array(g + 1);
  for (let c = 0; c < g; c++) rowStart[c + 1] = rowStart[c]! + rows[c]!;
  const fill = rowStart.slice(0, g);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = cluster[i]!;
    order[fill[c]!] = i;
    fill[c] = fill[c]! + 1;
  }
  const touch = clusterToucher(design, responses, rowStart, order, k);
  const pairStart = sharedArray(Int32Array, g + 1), colStart = sharedArray(Int32Array, g + 1);
  // First the sizes, so each array is allocated once at its length (growing lists of numbers
  // held about twice the final arrays at 1,000,000 tasks), then the sums.
  for (let c = 0; c < g; c++) {
    const { pairs, cols } = touch(c, false);
    pairStart[c + 1] = pairStart[c]! + pairs;
    colStart[c + 1] = colStart[c]! + cols;
  }
  const pairIndex = sharedArray(Int32Array, pairStart[g]!);
  const pairValue = sharedArray(Float64Array, pairStart[g]!);
  const colIndex = sharedArray(Int32Array, colStart[g]!);
  const colValue = sharedArray(Float64Array, colStart[g]! * m);
  const xtx = new Float64Array(packedSize(k)), xty = new Float64Array(m * k);
  for (let c = 0; c < g; c++) {
    const { pairs, cols, pairsTouched, colsTouched, denseXtx, denseXty } = touch(c, true);
    let e = pairStart[c]!;
    for (let u = 0; u < pairs; u++) {
      const idx = pairsTouched[u]!;
      pairIndex[e] = idx;
      pairValue[e++] = denseXtx[idx]!;
      xtx[idx] = xtx[idx]! + denseXtx[idx]!;
      denseXtx[idx] = 0;
    }
    let f = colStart[c]!;
    for (let u = 0; u < cols; u++) {
      const j = colsTouched[u]!;
      colIndex[f] = j;
      for (let mm = 0; mm < m; mm++) {
        const v = denseXty[j * m + mm]!;
        colValue[f * m + mm] = v;
        xty[mm * k + j] = xty[mm * k + j]! + v;
        denseXty[j * m + mm] = 0;
      }
      f++;
    }
  }
  return { pairStart, pairIndex, pairValue, colStart, colIndex, colValue, xtx, xty };
}

/**
 * `touch(c, sum)`: the pairs and columns cluster c touches, sorted, into
 * `pairsTouched[0 .. pairs)` and `colsTouched[0 .. cols)`; with `sum`, its
 * pair counts and response sums also go to `denseXtx` and `denseXty` (the
 * caller reads and zeroes them). The scratch is reused from call to call.
 */
function clusterToucher(
  design: Uint8Array,
  responses: readonly Float64Array[],
  rowStart: Int32Array,
  order: Int32Array,
  k: number,
) {
  const m = responses.length, p = packedSize(k);
  const denseXtx = new Float64Array(p);
  const denseXty = new Float64Array(k * m);
  const touchedPair = new Uint8Array(p);
  const touchedCol = new Uint8Array(k);
  // Scratch lists in typed arrays: sorted by the native numeric sort (a comparator called
  // from the sort ran in the interpreter in a fresh process, about 10 ms at 400 tasks).
  const present = new Int32Array(k);
  const pairsTouched = new Int32Array(p), colsTouched = new Int32Array(k);
  const out = { pairs: 0, cols: 0, pairsTouched, colsTouched, denseXtx, denseXty };
  return (c: number, sum: boolean) => {
    let pairCount = 0, colCount = 0;
    for (let t = rowStart[c]!; t < rowStart[c + 1]!; t++) {
      const row = order[t]!;
      let presentCount = 0;
      for (let j = 0; j < k; j++) if (design[row * k + j] !== 0) present[presentCount++] = j;
      for (let a = 0; a < presentCount; a++) {
        const i = present[a]!;
        if (!touchedCol[i]) {
          touchedCol[i] = 1;
          colsTouched[colCount++] = i;
        }
        if (sum) {
          for (let mm = 0; mm < m; mm++) {
            denseXty[i * m + mm] = denseXty[i * m + mm]! + responses[mm]![row]!;
          }
        }
        for (let b = a; b < presentCount; b++) {
          const idx = packedIndex(k, i, present[b]!);
          if (!touchedPair[idx]) {
            touchedPair[idx] = 1;
            pairsTouched[pairCount++] = idx;
          }
          if (sum) denseXtx[idx] = denseXtx[idx]! + 1;
        }
      }
    }
    pairsTouched.subarray(0, pairCount).sort();
    colsTouched.subarray(0, colCount).sort();
    for (let u = 0; u < pairCount; u++) touchedPair[pairsTouched[u]!] = 0;
    for (let u = 0; u < colCount; u++) touchedCol[colsTouched[u]!] = 0;
    out.pairs = pairCount;
    out.cols = colCount;
    return out;
  };
}

/** A zero-filled array of `length` on a SharedArrayBuffer. */
function sharedArray<T extends Int32Array | Float64Array>(
  type: { new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/** A copy of `values` on a SharedArrayBuffer (posted to a worker, it is shared, not copied). */
function shared<T extends Int32Array | Float64Array>(
  type: { new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number },
  values: ArrayLike<number>,
): T {
  const out = sharedArray(type, values.length);
  out.set(values);
  return out;
}

/**
 * Cluster sums of a {@linkcode PairedDataset} for the named metrics
 * (default: all, in dataset order).
 *
 * @throws {RangeError} if a metric is not in the dataset.
 */
export function datasetClusterSums(
  dataset: PairedDataset,
  metrics: readonly string[] = dataset.metrics,
): ClusterSums {
  const responses = bootstrapResponses(dataset, metrics);
  return buildClusterSums(dataset.design, responses, dataset.cluster, {
    k: dataset.k,
    clusterCount: dataset.clusterCount,
  });
}

/**
 * The delta columns of the named metrics, as the bootstrap reads them.
 *
 * @param dataset The dataset.
 * @param metrics Metric names.
 * @returns One column per metric, in the order given.
 * @throws {RangeError} if a metric is not in the dataset.
 */
export function bootstrapResponses(
  dataset: Pick<PairedDataset, "delta" | "metrics">,
  metrics: readonly string[],
): Float64Array[] {
  return metrics.map((name) => {
    const column = dataset.delta[name];
    if (!column) {
      throw new RangeError(
        `Cannot bootstrap metric "${name}": the dataset has metrics ${dataset.metrics.join(", ")}`,
      );
    }
    return column;
  });
}
