/**
 * Reading a sums table (docs/FORMAT.md, "Sums tables") into typed arrays,
 * with every check that can be made on sums alone: the schema version,
 * each column present with its type, every value finite, the counts
 * integers within their bounds, the pair columns those of the `x:`
 * versions (a consistent k), a lower-triangle column equal to its upper
 * one, tasks unique, and a one-row task equal to one row's products. A
 * failed check is one {@linkcode SumsTableError} naming the file and field.
 *
 * @module
 */
import { packedIndex, packedSize } from "../math/packed.ts";
import { readSumsParquet } from "./sums_parquet.ts";
import type { SourceTable } from "../import/table.ts";
import {
  SUMS_FORMAT,
  sumsColumnNames,
  type SumsLayout,
  xName,
  xxName,
  xyName,
  ySumName,
  yyName,
} from "./sums_sql.ts";

/** Tasks a sums table may hold (rows of the file). */
export const MAX_SUMS_TASKS = 2_000_000;

/** A sums table that cannot be analysed: the file, the field (column) and what is wrong. */
export class SumsTableError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
    readonly code: "schema_error" | "parse_error" | "io_error" | "usage_error" = "schema_error",
  ) {
    super(`${file}${field === "" ? "" : ` ${field}`}  ${problem}`);
    this.name = "SumsTableError";
  }
}

/** A checked sums table, its tasks in `first_row` order. */
export interface SumsTable {
  /** The file as given. */
  readonly file: string;
  /** sha256 of its bytes. */
  readonly sha256: string;
  /** Versions and metrics, in order. */
  readonly layout: SumsLayout;
  /** Number of tasks G. */
  readonly tasks: number;
  /** Split of each task. */
  readonly split: readonly string[];
  /** Id of each task. */
  readonly taskId: readonly string[];
  /** Rows of each task. */
  readonly rows: Float64Array;
  /** Position of each task's first row in the source table. */
  readonly firstRow: Float64Array;
  /**
   * The packed upper X'X (diagonal included) entry by entry: `xtx[q][t]` is
   * entry q (`packedIndex(k, i, j)`) of task t.
   */
  readonly xtx: readonly Float64Array[];
  /** X'y entry by entry: `xty[mm * k + j][t]` (metric mm, version j, task t). */
  readonly xty: readonly Float64Array[];
  /** y'y per metric: `yty[mm][t]`. */
  readonly yty: readonly Float64Array[];
  /** The sum of y per metric: `ySum[mm][t]`. */
  readonly ySum: readonly Float64Array[];
}

type Column = readonly unknown[] | Float64Array;

/**
 * Reads and checks a sums table (Parquet).
 *
 * @param file The file.
 * @returns The table, tasks ordered by `first_row`.
 * @throws {SumsTableError} On the first failed check.
 */
export async function readSumsTable(file: string): Promise<SumsTable> {
  const table = await readSumsParquet(file, MAX_SUMS_TASKS);
  if ("code" in table) {
    const code = table.code === "io_error" || table.code === "parse_error" ||
        table.code === "usage_error"
      ? table.code
      : "schema_error";
    throw new SumsTableError(file, "", table.message, code);
  }
  const fail = (field: string, problem: string): never => {
    throw new SumsTableError(file, field, problem);
  };
  if (table.rows === 0) fail("", "holds no task (no rows)");
  const columns = new Set(table.columns);
  const column = (name: string): Column => {
    const data = table.data[name];
    if (data === undefined) return fail(name, "missing column");
    return data;
  };
  const format = column("format");
  for (let r = 0; r < table.rows; r++) {
    if (format[r] !== SUMS_FORMAT) {
      fail("format", `row ${r + 1} is ${JSON.stringify(format[r])}, expected "${SUMS_FORMAT}"`);
    }
  }
  const layout = layoutOf(table.columns, fail);
  const expected = sumsColumnNamesOr(layout, fail);
  const expectedSet = new Set(expected);
  for (const name of expected) if (!columns.has(name)) missing(name, layout, fail);
  const k = layout.versions.length;
  const index = new Map(layout.versions.map((v, j) => [v, j]));
  for (const name of table.columns) {
    if (expectedSet.has(name) || !/^(x|xx|xy|yy|y):/.test(name)) continue;
    const lower = lowerPair(name, layout.versions, index);
    if (lower === null) {
      fail(
        name,
        `unexpected column: not a sum of the ${k} versions named by the x: columns and the ` +
          `${layout.metrics.length} metrics named by the yy: columns (inconsistent k)`,
      );
    }
    const [a, b] = lower!;
    const upper = numbers(table, xxName(a, b), fail), other = numbers(table, name, fail);
    for (let r = 0; r < table.rows; r++) {
      if (upper[r] !== other[r]) {
        fail(
          name,
          `row ${r + 1} is ${other[r]}, ${xxName(a, b)} ${upper[r]}: X'X is not symmetric`,
        );
      }
    }
  }
  return fill(table, layout, fail);
}

/** The versions (from the `x:` columns) and metrics (from the `yy:` columns), in file order. */
function layoutOf(names: readonly string[], fail: (f: string, p: string) => never): SumsLayout {
  const versions = names.filter((n) => n.startsWith("x:")).map((n) => n.slice(2));
  const metrics = names.filter((n) => n.startsWith("yy:")).map((n) => n.slice(3));
  if (versions.length === 0) {
    fail("x:<version_id>", "missing column: no x: column names a design column");
  }
  if (metrics.length === 0) fail("yy:<metric>", "missing column: no yy: column names a metric");
  return { versions, metrics };
}

function sumsColumnNamesOr(layout: SumsLayout, fail: (f: string, p: string) => never): string[] {
  try {
    return sumsColumnNames(layout);
  } catch (error) {
    return fail("", error instanceof Error ? error.message : String(error));
  }
}

function missing(name: string, layout: SumsLayout, fail: (f: string, p: string) => never): never {
  const k = layout.versions.length;
  if (name.startsWith("xx:")) {
    return fail(
      name,
      `missing column: the ${k} x: columns need ${(k * (k - 1)) / 2} xx: pair columns ` +
        "(the upper triangle of X'X; inconsistent k)",
    );
  }
  return fail(name, "missing column");
}

/** `[a, b]` when `name` is `xx:b:a` with b after a in design order (a lower-triangle entry). */
function lowerPair(
  name: string,
  versions: readonly string[],
  index: ReadonlyMap<string, number>,
): [string, string] | null {
  if (!name.startsWith("xx:")) return null;
  for (const b of versions) {
    const prefix = `xx:${b}:`;
    if (!name.startsWith(prefix)) continue;
    const a = name.slice(prefix.length);
    if (index.has(a) && index.get(a)! < index.get(b)!) return [a, b];
  }
  return null;
}

/** A numeric column: every value a finite number. */
function numbers(
  table: { readonly rows: number; readonly data: Readonly<Record<string, Column>> },
  name: string,
  fail: (f: string, p: string) => never,
): Float64Array {
  const data = table.data[name]!;
  const known = checked.get(data);
  if (known) return known;
  const out = data instanceof Float64Array ? data : new Float64Array(table.rows);
  for (let r = 0; r < table.rows; r++) {
    const v = data[r];
    if (typeof v !== "number") {
      fail(name, `row ${r + 1} is ${v === null ? "missing" : `not a number (${typeof v})`}`);
    }
    if (!Number.isFinite(v)) fail(name, `row ${r + 1} is ${v}: not a finite number`);
    out[r] = v as number;
  }
  checked.set(data, out);
  return out;
}

/** Columns already checked as numbers, by their data. */
const checked = new WeakMap<object, Float64Array>();

/** A count column: non-negative integers. */
function counts(
  table: { readonly rows: number; readonly data: Readonly<Record<string, Column>> },
  name: string,
  fail: (f: string, p: string) => never,
  min = 0,
): Float64Array {
  const out = numbers(table, name, fail);
  for (let r = 0; r < table.rows; r++) {
    const v = out[r]!;
    if (!(Number.isSafeInteger(v) && v >= min)) {
      fail(name, `row ${r + 1} is ${v}: not an integer >= ${min}`);
    }
  }
  return out;
}

function ids(
  table: { readonly rows: number; readonly data: Readonly<Record<string, Column>> },
  name: string,
  fail: (f: string, p: string) => never,
): string[] {
  const data = table.data[name]!;
  return Array.from({ length: table.rows }, (_, r) => {
    const v = data[r];
    if (typeof v === "string") return v;
    if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
    return fail(name, `row ${r + 1} is ${v === null ? "missing" : "not text"}`);
  });
}

/** The typed arrays, tasks in first_row order, with the per-task bounds checked. */
function fill(
  table: SourceTable,
  layout: SumsLayout,
  fail: (f: string, p: string) => never,
): SumsTable {
  const { versions, metrics } = layout;
  const k = versions.length, g = table.rows;
  const split = ids(table, "split", fail), taskId = ids(table, "task_id", fail);
  const rows = counts(table, "rows", fail, 1), firstRow = counts(table, "first_row", fail);
  const order = taskOrder(split, taskId, firstRow, fail);
  versions.forEach((a, i) => {
    const diag = counts(table, xName(a), fail);
    for (let r = 0; r < g; r++) {
      if (diag[r]! > rows[r]!) {
        fail(xName(a), `row ${r + 1} is ${diag[r]}, more than its ${rows[r]} rows`);
      }
    }
    for (let j = i + 1; j < k; j++) {
      const name = xxName(a, versions[j]!);
      const pair = counts(table, name, fail);
      const other = numbers(table, xName(versions[j]!), fail);
      for (let r = 0; r < g; r++) {
        if (pair[r]! > Math.min(diag[r]!, other[r]!)) {
          fail(name, `row ${r + 1} is ${pair[r]}, more than x: of one of its versions`);
        }
        if (rows[r] === 1 && pair[r] !== diag[r]! * other[r]!) {
          fail(
            name,
            `row ${r + 1} is ${pair[r]}: a one-row task's product of its two x: values is ${
              diag[r]! * other[r]!
            }`,
          );
        }
      }
    }
  });
  const cols = versions.map((v) => numbers(table, xName(v), fail));
  metrics.forEach((metric) => {
    const yy = numbers(table, yyName(metric), fail), ys = numbers(table, ySumName(metric), fail);
    for (let r = 0; r < g; r++) {
      if (yy[r]! < 0) fail(yyName(metric), `row ${r + 1} is ${yy[r]}: a sum of squares is >= 0`);
    }
    versions.forEach((v, j) => {
      const xy = numbers(table, xyName(metric, v), fail);
      for (let r = 0; r < g; r++) {
        // Cauchy-Schwarz on the task's rows: (sum c y)^2 <= (sum c^2)(sum y^2), up to rounding.
        if (xy[r]! * xy[r]! > cols[j]![r]! * yy[r]! * (1 + 1e-9) + 1e-300) {
          fail(
            xyName(metric, v),
            `row ${r + 1} is ${xy[r]}: its square exceeds ${xName(v)} x ${yyName(metric)} ` +
              "(not the sums of one task's rows)",
          );
        }
        if (
          rows[r] === 1 &&
          Math.abs(xy[r]! - cols[j]![r]! * ys[r]!) > 1e-12 * Math.max(1, Math.abs(ys[r]!))
        ) {
          fail(
            xyName(metric, v),
            `row ${r + 1} is ${xy[r]}: a one-row task's ${xName(v)} x ${ySumName(metric)} is ${
              cols[j]![r]! * ys[r]!
            }`,
          );
        }
      }
    });
  });
  const sorted = <T>(values: readonly T[]) => order.map((r) => values[r]!);
  const { xtx, xty, yty, ySum } = packTasks(table, layout, order, cols, fail);
  return {
    file: table.file,
    sha256: table.sha256!,
    layout,
    tasks: g,
    split: sorted(split),
    taskId: sorted(taskId),
    rows: Float64Array.from(order, (r) => rows[r]!),
    firstRow: Float64Array.from(order, (r) => firstRow[r]!),
    xtx,
    xty,
    yty,
    ySum,
  };
}

/** The file rows in first_row order; refuses a shared first_row or a task given twice. */
function taskOrder(
  split: readonly string[],
  taskId: readonly string[],
  firstRow: Float64Array,
  fail: (f: string, p: string) => never,
): number[] {
  const g = split.length;
  const order = Array.from({ length: g }, (_, r) => r).sort((a, b) => firstRow[a]! - firstRow[b]!);
  const seenTask = new Map<string, number>();
  for (let r = 0; r < g; r++) {
    if (r > 0 && firstRow[order[r]!] === firstRow[order[r - 1]!]) {
      fail(
        "first_row",
        `rows ${order[r - 1]! + 1} and ${order[r]! + 1} share ${firstRow[order[r]!]}`,
      );
    }
    const key = JSON.stringify([split[r], taskId[r]]);
    const before = seenTask.get(key);
    if (before !== undefined) {
      fail("task_id", `rows ${before + 1} and ${r + 1} are both task ${split[r]}/${taskId[r]}`);
    }
    seenTask.set(key, r);
  }
  return order;
}

/**
 * Entry by entry, tasks in first_row order: the file's own columns when
 * its rows are in that order already (an engine's ORDER BY), else each
 * column permuted once.
 */
function packTasks(
  table: SourceTable,
  layout: SumsLayout,
  order: readonly number[],
  cols: readonly Float64Array[],
  fail: (f: string, p: string) => never,
): Pick<SumsTable, "xtx" | "xty" | "yty" | "ySum"> {
  const { versions, metrics } = layout;
  const k = versions.length, p = packedSize(k);
  const inOrder = order.every((r, t) => r === t);
  const sorted = (column: Float64Array) =>
    inOrder ? column : Float64Array.from(order, (r) => column[r]!);
  const xtx: Float64Array[] = new Array(p);
  for (let i = 0; i < k; i++) {
    xtx[packedIndex(k, i, i)] = sorted(cols[i]!);
    for (let j = i + 1; j < k; j++) {
      xtx[packedIndex(k, i, j)] = sorted(
        numbers(table, xxName(versions[i]!, versions[j]!), fail),
      );
    }
  }
  return {
    xtx,
    xty: metrics.flatMap((metric) =>
      versions.map((v) => sorted(numbers(table, xyName(metric, v), fail)))
    ),
    yty: metrics.map((metric) => sorted(numbers(table, yyName(metric), fail))),
    ySum: metrics.map((metric) => sorted(numbers(table, ySumName(metric), fail))),
  };
}
