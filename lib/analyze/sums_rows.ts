/**
 * Rows that stand for a sums table, for the task bootstrap. The bootstrap
 * kernel (lib/infer/bootstrap) runs on per-task sums that also list each
 * task's rows (X'WX from pair counts or mask histograms, X'Wy summed over
 * rows in row order), so a sums table is turned into rows whose per-task
 * X'X and X'y are the table's:
 *
 * - a task of one row is that row: its mask is the task's `x:` values
 *   (0/1) and its responses the task's `y:` sums, exactly. When every task
 *   is one row, tasks in `first_row` order are the rows of the row analysis
 *   in its order, so the draws are the same bits as the row analysis's;
 * - a task of several rows is split into at most that many 0/1 masks whose
 *   outer products sum to its X'X (a search over the masks its X'X allows),
 *   and their responses solve mask' y = X'y (Gaussian elimination with
 *   partial pivoting; free rows 0). The draws are then those of the row
 *   analysis up to rounding in X'Wy (different rows with the same sums).
 *
 * @module
 */
import { packedIndex } from "../math/packed.ts";
import type { DesignColumn, PairedDataset, RunRef } from "../core/types.ts";
import type { SumsTable } from "./sums_read.ts";

/** Search steps allowed per task when splitting its X'X into rows. */
export const SPLIT_STEPS = 200_000;

/** What {@linkcode sumsRows} could not split: the task (index in first_row order). */
export interface UnsplittableTask {
  readonly task: number;
}

/**
 * A paired dataset whose cluster sums are the sums table's (see the
 * module's note), for the bootstrap only: its `masked` is the response,
 * its `bare` zero, and it has no episodes.
 *
 * @param table A checked sums table.
 * @param columns The design columns (the table's versions, in order).
 * @param gate What stands for the gate: its id, stage and budget.
 * @returns The dataset, or the first task whose X'X could not be split into rows.
 *
 * @example One-row tasks are their rows
 * ```ts
 * import { sumsRows } from "./sums_rows.ts";
 * import { deepEqual } from "node:assert/strict";
 * const table = { file: "s.parquet", sha256: "", layout: { versions: ["a", "b"], metrics: ["reward"] },
 *   tasks: 2, split: ["val", "val"], taskId: ["t0", "t1"], rows: Float64Array.from([1, 1]),
 *   firstRow: Float64Array.from([0, 1]),
 *   xtx: [Float64Array.from([1, 1]), Float64Array.from([0, 1]), Float64Array.from([0, 1])],
 *   xty: [Float64Array.from([0.5, 0.25]), Float64Array.from([0, 0.25])],
 *   yty: [Float64Array.from([0.25, 0.0625])], ySum: [Float64Array.from([0.5, 0.25])] };
 * const columns = ["a", "b"].map((v) => ({ version_id: v, slot_id: v, chunk_id: v, role: "add" as const }));
 * const d = sumsRows(table, columns, { gate_id: "g", stage: "cold_start", budget_k: 2 });
 * if ("task" in d) throw new Error("unsplittable");
 * deepEqual([...d.design], [1, 0, 1, 1]);
 * deepEqual([...d.delta["reward"]!], [0.5, 0.25]);
 * ```
 */
export function sumsRows(
  table: SumsTable,
  columns: readonly DesignColumn[],
  gate: {
    readonly gate_id: string;
    readonly stage: "cold_start" | "online";
    readonly budget_k: number;
  },
): PairedDataset | UnsplittableTask {
  const { metrics } = table.layout;
  const k = columns.length, m = metrics.length, g = table.tasks;
  // Tasks of several rows are split first; one-row tasks are written straight into the arrays.
  const splits = new Map<number, { masks: number[][]; y: number[][] }>();
  let n = 0;
  for (let t = 0; t < g; t++) {
    if (table.rows[t] === 1) {
      n++;
      continue;
    }
    const split = splitTask(table, t);
    if (split === null) return { task: t };
    splits.set(t, split);
    n += split.masks.length;
  }
  const design = new Uint8Array(n * k), cluster = new Int32Array(n);
  const values = metrics.map(() => new Float64Array(n));
  const diagonal = Array.from({ length: k }, (_, j) => table.xtx[packedIndex(k, j, j)]!);
  for (let t = 0, i = 0; t < g; t++) {
    const split = splits.get(t);
    if (split === undefined) {
      for (let j = 0; j < k; j++) design[i * k + j] = diagonal[j]![t]!;
      for (let mm = 0; mm < m; mm++) values[mm]![i] = table.ySum[mm]![t]!;
      cluster[i++] = t;
      continue;
    }
    split.masks.forEach((mask, r) => {
      for (let j = 0; j < k; j++) design[i * k + j] = mask[j]!;
      for (let mm = 0; mm < m; mm++) values[mm]![i] = split.y[r]![mm]!;
      cluster[i++] = t;
    });
  }
  const delta: Record<string, Float64Array> = {}, bare: Record<string, Float64Array> = {};
  metrics.forEach((metric, mm) => {
    delta[metric] = values[mm]!;
    bare[metric] = new Float64Array(n);
  });
  const ref: RunRef = { run_id: "sums", run_dir: table.file, sha256: table.sha256 };
  return {
    baseline: ref,
    gates: [{ ...gate, gate_dir: table.file, mask_seed: null, p_present: null, masked: ref }],
    columns,
    metrics,
    n,
    k,
    design,
    masked: delta,
    bare,
    delta,
    episodes: [],
    gateIndex: new Uint16Array(n),
    cluster,
    clusterCount: g,
  };
}

/** Task t's rows: masks whose outer products sum to its X'X, responses solving their X'y. */
function splitTask(table: SumsTable, t: number): { masks: number[][]; y: number[][] } | null {
  const k = table.layout.versions.length, m = table.layout.metrics.length;
  const a = new Int32Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = i; j < k; j++) {
      const v = table.xtx[packedIndex(k, i, j)]![t]!;
      a[i * k + j] = v;
      a[j * k + i] = v;
    }
  }
  const masks = splitGram(a, k, table.rows[t]!);
  if (masks === null) return null;
  // Solve mask' y = X'y: k equations in the rows' responses, every metric at once.
  const r = masks.length;
  const rhs = Array.from(
    { length: k },
    (_, j) => Array.from({ length: m }, (_, mm) => table.xty[mm * k + j]![t]!),
  );
  const lhs = Array.from({ length: k }, (_, j) => masks.map((mask) => mask[j]!));
  const y = eliminate(lhs, rhs, r, m);
  return { masks, y };
}

/**
 * Splits an integer Gram matrix into at most `rows` 0/1 vectors whose outer
 * products sum to it (depth-first: the first column still present opens a
 * row; columns that must share it are forced in, the others tried in and
 * out); null when none is found within {@linkcode SPLIT_STEPS} steps.
 */
export function splitGram(a: Int32Array, k: number, rows: number): number[][] | null {
  let steps = 0;
  const out: number[][] = [];
  const valid = (): boolean => {
    for (let i = 0; i < k; i++) {
      if (a[i * k + i]! > rows - out.length) return false;
      for (let j = 0; j < k; j++) {
        const v = a[i * k + j]!;
        if (v < 0 || v > a[i * k + i]! || v > a[j * k + j]!) return false;
      }
    }
    return true;
  };
  const apply = (members: readonly number[], sign: number) => {
    for (const i of members) for (const j of members) a[i * k + j] = a[i * k + j]! + sign * 1;
  };
  const search = (): boolean => {
    if (++steps > SPLIT_STEPS) return false;
    let open = -1;
    for (let j = 0; j < k && open < 0; j++) if (a[j * k + j]! > 0) open = j;
    if (open < 0) return true;
    if (out.length >= rows) return false;
    const left = rows - out.length;
    const forced: number[] = [], optional: number[] = [];
    for (let j = 0; j < k; j++) {
      if (j === open) forced.push(j);
      else if (a[open * k + j]! === 0) continue;
      else if (a[open * k + j] === a[open * k + open] || a[j * k + j] === left) forced.push(j);
      else optional.push(j);
    }
    for (const i of forced) for (const j of forced) if (a[i * k + j]! === 0) return false;
    const chosen = [...forced];
    const choose = (at: number): boolean => {
      if (at === optional.length) {
        apply(chosen, -1);
        out.push(Array.from({ length: k }, (_, j) => (chosen.includes(j) ? 1 : 0)));
        if (valid() && search()) return true;
        out.pop();
        apply(chosen, 1);
        return false;
      }
      const j = optional[at]!;
      if (chosen.every((i) => a[i * k + j]! > 0)) {
        chosen.push(j);
        if (choose(at + 1)) return true;
        chosen.pop();
      }
      return steps <= SPLIT_STEPS && choose(at + 1);
    };
    return choose(0);
  };
  return search() ? out : null;
}

/** Least-norm-free solve of `lhs y = rhs` (k x r, consistent) by elimination with partial pivoting; free unknowns 0. */
function eliminate(lhs: number[][], rhs: number[][], r: number, m: number): number[][] {
  const rowsOf = lhs.length;
  const pivots: number[] = [];
  let row = 0;
  for (let col = 0; col < r && row < rowsOf; col++) {
    let best = row;
    for (let i = row + 1; i < rowsOf; i++) {
      if (Math.abs(lhs[i]![col]!) > Math.abs(lhs[best]![col]!)) best = i;
    }
    if (lhs[best]![col] === 0) continue;
    [lhs[row], lhs[best]] = [lhs[best]!, lhs[row]!];
    [rhs[row], rhs[best]] = [rhs[best]!, rhs[row]!];
    for (let i = 0; i < rowsOf; i++) {
      if (i === row || lhs[i]![col] === 0) continue;
      const f = lhs[i]![col]! / lhs[row]![col]!;
      for (let c = col; c < r; c++) lhs[i]![c] = lhs[i]![c]! - f * lhs[row]![c]!;
      for (let c = 0; c < m; c++) rhs[i]![c] = rhs[i]![c]! - f * rhs[row]![c]!;
    }
    pivots[row] = col;
    row++;
  }
  const y = Array.from({ length: r }, () => new Array<number>(m).fill(0));
  for (let i = 0; i < row; i++) {
    const col = pivots[i]!;
    for (let c = 0; c < m; c++) y[col]![c] = rhs[i]![c]! / lhs[i]![col]!;
  }
  return y;
}
