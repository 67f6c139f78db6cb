/**
 * The per-row `tasks` array of contributions.json as a view over the
 * dataset's typed columns: no row object exists until one is read, and
 * {@linkcode jsonChunks} writes the array straight from the columns (at
 * 200,000 rows the row objects alone held about 200 MB).
 *
 * @module
 */

import type { PairedDataset } from "../core/types.ts";
import type { TaskRow } from "./types.ts";
import { JSON_PIECES } from "./json_stream.ts";

/** The columns of a {@linkcode PairedDataset} that {@linkcode taskRows} reads. */
export type TaskRowColumns =
  & Pick<
    PairedDataset,
    "n" | "k" | "metrics" | "design" | "masked" | "bare" | "delta" | "episodes" | "gateIndex"
  >
  & {
    readonly columns: readonly { readonly version_id: string }[];
    readonly gates: readonly { readonly gate_id: string; readonly checkpoint?: number }[];
    /** Pooled checkpoints: each row is labelled with its gate's `checkpoint_id` too. */
    readonly checkpoints?: readonly { readonly checkpoint_id: string }[];
  };

/**
 * The `tasks` rows of a paired dataset: one row per (gate, episode) with
 * the 0/1 design by version and, per metric, masked, bare and delta. The
 * result behaves as a read-only array (`length`, index access, iteration,
 * `JSON.stringify`, the array methods): a row is built from the columns
 * when read and not kept. `jsonChunks` streams it from the columns
 * directly, with the same bytes as `JSON.stringify` of the built rows.
 *
 * @param dataset Paired dataset (its columns are read, never copied).
 * @param options `pooled`: label each row with its `gate_id`; by default when
 *   the dataset pools several gates.
 * @returns A read-only array view of the rows.
 *
 * @example
 * ```ts
 * import { taskRows } from "./task_rows.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = {
 *   n: 2, k: 2, columns: [{ version_id: "a" }, { version_id: "b" }], metrics: ["reward"],
 *   design: Uint8Array.of(1, 0, 0, 1),
 *   masked: { reward: Float64Array.of(1, 0.5) }, bare: { reward: Float64Array.of(0, 0.5) },
 *   delta: { reward: Float64Array.of(1, 0) },
 *   episodes: [{ split: "val", task_id: "t1", sample_id: 0 }, { split: "val", task_id: "t2", sample_id: 0 }],
 *   gates: [{ gate_id: "g" }], gateIndex: Uint16Array.of(0, 0),
 * };
 * const rows = taskRows(dataset);
 * deepEqual(rows.length, 2);
 * deepEqual(rows[1], { split: "val", task_id: "t2", sample_id: 0, columns: { a: 0, b: 1 }, values: { reward: { masked: 0.5, bare: 0.5, delta: 0 } } });
 * deepEqual(rows.map((r) => r.task_id), ["t1", "t2"]);
 * ```
 */
export function taskRows(
  dataset: TaskRowColumns,
  options: { readonly pooled?: boolean } = {},
): readonly TaskRow[] {
  const { n, k, columns, metrics, design, episodes, gates, gateIndex } = dataset;
  const pooled = options.pooled ?? gates.length > 1;
  const versions = columns.map((c) => c.version_id);
  const masked = metrics.map((m) => dataset.masked[m]!);
  const bare = metrics.map((m) => dataset.bare[m]!);
  const delta = metrics.map((m) => dataset.delta[m]!);
  const checkpointOf = gateCheckpoints(dataset);
  const row = (i: number): TaskRow => {
    const e = episodes[i]!;
    const cols: Record<string, 0 | 1> = {};
    versions.forEach((v, j) => (cols[v] = design[i * k + j] ? 1 : 0));
    const values: Record<string, { masked: number; bare: number; delta: number }> = {};
    metrics.forEach((m, t) => {
      values[m] = { masked: masked[t]![i]!, bare: bare[t]![i]!, delta: delta[t]![i]! };
    });
    return {
      split: e.split,
      task_id: e.task_id,
      sample_id: e.sample_id,
      ...(pooled ? { gate_id: gates[gateIndex[i]!]!.gate_id } : {}),
      ...(checkpointOf === null ? {} : { checkpoint_id: checkpointOf[gateIndex[i]!]! }),
      columns: cols,
      values,
    };
  };
  // JSON.stringify(row, null, 2) at a given depth, from the columns.
  const pieces = (indent: string) => taskRowPieces(taskRowText(dataset, { pooled }), indent);
  const isIndex = (key: string | symbol): key is string =>
    typeof key === "string" && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < n;
  // The target is a holey array of length n (no elements), so Array.isArray,
  // JSON.stringify and the array methods see an array; reads go to `row`,
  // writes are refused (a TypeError in strict code).
  const target = new Array<TaskRow>(n);
  const refuse = () => false;
  return new Proxy(target, {
    set: refuse,
    deleteProperty: refuse,
    defineProperty: refuse,
    setPrototypeOf: refuse,
    get(t, key, receiver) {
      if (key === JSON_PIECES) return pieces;
      if (isIndex(key)) return row(Number(key));
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      return key === JSON_PIECES || isIndex(key) || Reflect.has(t, key);
    },
    ownKeys(t) {
      return [...Array.from({ length: n }, (_, i) => String(i)), ...Reflect.ownKeys(t)];
    },
    getOwnPropertyDescriptor(t, key) {
      if (isIndex(key)) {
        return { value: row(Number(key)), writable: false, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
  });
}

/**
 * What the `tasks` text of contributions.json is written from: plain
 * columns (arrays and typed arrays), so they can be posted to a worker.
 */
export interface TaskRowText {
  readonly n: number;
  readonly k: number;
  /** Version id per design column. */
  readonly versions: readonly string[];
  readonly metrics: readonly string[];
  /** n x k, row-major, 0/1. */
  readonly design: Uint8Array;
  /** Per metric (in `metrics` order), one value per row. */
  readonly masked: readonly Float64Array[];
  readonly bare: readonly Float64Array[];
  readonly delta: readonly Float64Array[];
  /** Per row: split, task id and sample id. */
  readonly split: readonly string[];
  readonly taskId: readonly string[];
  readonly sampleId: ArrayLike<number>;
  /** Gate ids (rows labelled by gate), or null when rows are not labelled. */
  readonly gateIds: readonly string[] | null;
  /** Per row the index of its gate in `gateIds`. */
  readonly gateIndex: ArrayLike<number>;
  /** Pooled checkpoints: per gate (by index) its checkpoint id; null otherwise. */
  readonly gateCheckpoints: readonly string[] | null;
}

/** Per gate its checkpoint id when checkpoints are pooled, else null. */
function gateCheckpoints(dataset: TaskRowColumns): string[] | null {
  const checkpoints = dataset.checkpoints;
  if (checkpoints === undefined) return null;
  return dataset.gates.map((g) => checkpoints[g.checkpoint ?? 0]!.checkpoint_id);
}

/**
 * The columns {@linkcode taskRowPieces} writes from, read out of a dataset.
 *
 * @param dataset Paired dataset.
 * @param options `pooled`: label each row with its `gate_id` (as {@linkcode taskRows}).
 * @returns Plain columns (the dataset's typed arrays themselves, not copies).
 */
export function taskRowText(
  dataset: TaskRowColumns,
  options: { readonly pooled?: boolean } = {},
): TaskRowText {
  const { n, k, columns, metrics, design, episodes, gates, gateIndex } = dataset;
  const pooled = options.pooled ?? gates.length > 1;
  return {
    n,
    k,
    versions: columns.map((c) => c.version_id),
    metrics,
    design,
    masked: metrics.map((m) => dataset.masked[m]!),
    bare: metrics.map((m) => dataset.bare[m]!),
    delta: metrics.map((m) => dataset.delta[m]!),
    split: episodes.map((e) => e.split),
    taskId: episodes.map((e) => e.task_id),
    sampleId: episodes.map((e) => e.sample_id),
    gateIds: pooled ? gates.map((g) => g.gate_id) : null,
    gateIndex,
    gateCheckpoints: gateCheckpoints(dataset),
  };
}

/**
 * The text of the `tasks` array, `JSON.stringify(rows, null, 2)` of
 * {@linkcode taskRows} nested at `indent`, one piece per row.
 *
 * @param data The columns.
 * @param indent Indentation of the line the array opens on.
 * @returns The pieces, in order.
 */
export function* taskRowPieces(
  data: TaskRowText,
  indent: string,
): Generator<string, void, undefined> {
  const { n, k, versions, metrics, design, masked, bare, delta, split, taskId, sampleId } = data;
  const { gateIds, gateIndex, gateCheckpoints: checkpoints } = data;
  if (n === 0) {
    yield "[]";
    return;
  }
  const i1 = indent + "  ", i2 = i1 + "  ", i3 = i2 + "  ", i4 = i3 + "  ";
  const columnKeys = versions.map((v) => `${i3}${JSON.stringify(v)}: `);
  const metricKeys = metrics.map((m) => `${i3}${JSON.stringify(m)}: {\n${i4}"masked": `);
  const num = (x: number) => (Number.isFinite(x) ? String(x) : "null");
  yield "[\n";
  for (let i = 0; i < n; i++) {
    let s = `${i > 0 ? ",\n" : ""}${i1}{\n${i2}"split": ${JSON.stringify(split[i])},\n${i2}` +
      `"task_id": ${JSON.stringify(taskId[i])},\n${i2}"sample_id": ${num(sampleId[i]!)},\n`;
    if (gateIds !== null) s += `${i2}"gate_id": ${JSON.stringify(gateIds[gateIndex[i]!])},\n`;
    if (checkpoints !== null) {
      s += `${i2}"checkpoint_id": ${JSON.stringify(checkpoints[gateIndex[i]!])},\n`;
    }
    if (k === 0) s += `${i2}"columns": {},\n`;
    else {
      s += `${i2}"columns": {\n`;
      for (let j = 0; j < k; j++) {
        s += `${j > 0 ? ",\n" : ""}${columnKeys[j]}${design[i * k + j] ? 1 : 0}`;
      }
      s += `\n${i2}},\n`;
    }
    if (metrics.length === 0) s += `${i2}"values": {}\n${i1}}`;
    else {
      s += `${i2}"values": {\n`;
      for (let t = 0; t < metrics.length; t++) {
        s += `${t > 0 ? ",\n" : ""}${metricKeys[t]}${num(masked[t]![i]!)},\n${i4}"bare": ${
          num(bare[t]![i]!)
        },\n${i4}"delta": ${num(delta[t]![i]!)}\n${i3}}`;
      }
      s += `\n${i2}}\n${i1}}`;
    }
    yield s;
  }
  yield `\n${indent}]`;
}
