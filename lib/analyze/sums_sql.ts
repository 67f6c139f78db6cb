/**
 * The sums table (docs/FORMAT.md, "Sums tables"): per-task sufficient
 * statistics of the paired-delta OLS, one row per task `(split, task_id)`,
 * computed by an engine (DuckDB, Spark SQL) with one GROUP BY over a
 * paired table, so that `gate analyze --sums` analyses a history too large
 * to load. This file names its columns and writes the SQL that makes it.
 *
 * @module
 */

/** The `format` value of every row of a sums table (the schema version). */
export const SUMS_FORMAT = "gatelab.sums/v1";

/** Columns of a sums table that are not sums of products: the schema version, the task, its order, its rows. */
export const SUMS_KEY_COLUMNS = ["format", "split", "task_id", "first_row", "rows"] as const;

/** The design columns and metrics a sums table holds, in their order. */
export interface SumsLayout {
  /** Version ids, in design column order. */
  readonly versions: readonly string[];
  /** Metric names (`reward`, `r_<name>`), in order. */
  readonly metrics: readonly string[];
}

/** Name of the column holding sum c_v = (X'X)_vv (0/1 masks). */
export const xName = (v: string): string => `x:${v}`;
/** Name of the column holding sum c_a c_b = (X'X)_ab, a before b in design order. */
export const xxName = (a: string, b: string): string => `xx:${a}:${b}`;
/** Name of the column holding sum c_v y_m = (X'y_m)_v. */
export const xyName = (m: string, v: string): string => `xy:${m}:${v}`;
/** Name of the column holding sum y_m^2 = y_m'y_m. */
export const yyName = (m: string): string => `yy:${m}`;
/** Name of the column holding sum y_m (for the mean delta). */
export const ySumName = (m: string): string => `y:${m}`;

/**
 * Every column name of a sums table for `layout`, in the order the SQL
 * writes them: the key columns, then `x:` per version, `xx:` per pair
 * (upper triangle, row by row), then per metric `xy:` per version, `yy:`
 * and `y:`.
 *
 * @throws {RangeError} When two names coincide (version ids or metric names
 *   that contain `:` in a way that makes one name twice), or a list is empty
 *   or repeats an entry.
 *
 * @example
 * ```ts
 * import { sumsColumnNames } from "./sums_sql.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(sumsColumnNames({ versions: ["a.v1", "b.v1"], metrics: ["reward"] }).slice(5), [
 *   "x:a.v1", "x:b.v1", "xx:a.v1:b.v1", "xy:reward:a.v1", "xy:reward:b.v1", "yy:reward", "y:reward",
 * ]);
 * ```
 */
export function sumsColumnNames(layout: SumsLayout): string[] {
  const { versions, metrics } = layout;
  for (const [what, list] of [["version", versions], ["metric", metrics]] as const) {
    if (list.length === 0) throw new RangeError(`A sums table needs at least one ${what}`);
    if (new Set(list).size !== list.length) {
      throw new RangeError(`A sums table lists a ${what} twice`);
    }
  }
  const names: string[] = [...SUMS_KEY_COLUMNS, ...versions.map(xName)];
  for (let a = 0; a < versions.length; a++) {
    for (let b = a + 1; b < versions.length; b++) names.push(xxName(versions[a]!, versions[b]!));
  }
  for (const m of metrics) {
    names.push(...versions.map((v) => xyName(m, v)), yyName(m), ySumName(m));
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new RangeError(
        `The sums table's column ${name} would be made twice: version ids or metric names ` +
          "containing ':' make its names ambiguous",
      );
    }
    seen.add(name);
  }
  return names;
}

/** Options of {@linkcode sumsTableSql}. */
export interface SumsSqlOptions extends SumsLayout {
  /**
   * What the query reads: a table or view name, or a table function such as
   * `read_parquet('tasks.parquet', file_row_number = true)`.
   * @default {`read_parquet('tasks.parquet', file_row_number = true)`}
   */
  readonly source?: string;
  /**
   * The column that orders the source's rows (the fit's row order, which
   * numbers the tasks by first appearance). DuckDB's `read_parquet(...,
   * file_row_number = true)` gives `file_row_number`; in Spark SQL give a
   * column of your own.
   * @default {"file_row_number"}
   */
  readonly orderColumn?: string;
  /** Identifier quoting: `"` (DuckDB, PostgreSQL, standard SQL) or `` ` `` (Spark SQL). @default {"duckdb"} */
  readonly dialect?: "duckdb" | "spark";
}

/**
 * The SQL that computes a sums table from a paired table in gatelab's
 * layout (the `tasks` table `gate analyze` writes and `gate import table`
 * reads: `split`, `task_id`, `<metric>_masked`, `<metric>_bare` and one
 * 0/1 `mask:<version_id>` column per version; docs/import.md): one GROUP
 * BY (split, task_id), the tasks in the order of their first row. Each
 * response is `masked - bare`, the same double gatelab's delta is.
 *
 * @param options The versions and metrics, the source and its row order, the dialect.
 * @returns One SELECT statement (no trailing semicolon); wrap it in
 *   `COPY (...) TO 'sums.parquet' (FORMAT parquet)` in DuckDB.
 * @throws {RangeError} As {@linkcode sumsColumnNames}.
 *
 * @example
 * ```ts
 * import { sumsTableSql } from "./sums_sql.ts";
 * import { ok } from "node:assert/strict";
 * const sql = sumsTableSql({ versions: ["a.v1"], metrics: ["reward"] });
 * ok(sql.includes(`sum("mask:a.v1" * ("reward_masked" - "reward_bare")) AS "xy:reward:a.v1"`));
 * ok(sql.endsWith('GROUP BY split, task_id\nORDER BY "first_row"'));
 * ```
 */
export function sumsTableSql(options: SumsSqlOptions): string {
  const { versions, metrics } = options;
  sumsColumnNames(options); // the names' checks
  const spark = options.dialect === "spark";
  const q = (name: string) =>
    spark ? "`" + name.replaceAll("`", "``") + "`" : `"${name.replaceAll('"', '""')}"`;
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const order = q(options.orderColumn ?? "file_row_number");
  const source = options.source ?? "read_parquet('tasks.parquet', file_row_number = true)";
  const mask = (v: string) => q(`mask:${v}`);
  const delta = (m: string) => `(${q(`${m}_masked`)} - ${q(`${m}_bare`)})`;
  const count = (expression: string) => `CAST(sum(${expression}) AS BIGINT)`;
  const lines = [
    `${text(SUMS_FORMAT)} AS ${q("format")}`,
    "split",
    "task_id",
    `CAST(min(${order}) AS BIGINT) AS ${q("first_row")}`,
    `CAST(count(*) AS BIGINT) AS ${q("rows")}`,
    ...versions.map((v) => `${count(mask(v))} AS ${q(xName(v))}`),
  ];
  for (let a = 0; a < versions.length; a++) {
    for (let b = a + 1; b < versions.length; b++) {
      const [va, vb] = [versions[a]!, versions[b]!];
      lines.push(`${count(`${mask(va)} * ${mask(vb)}`)} AS ${q(xxName(va, vb))}`);
    }
  }
  for (const m of metrics) {
    for (const v of versions) lines.push(`sum(${mask(v)} * ${delta(m)}) AS ${q(xyName(m, v))}`);
    lines.push(`sum(${delta(m)} * ${delta(m)}) AS ${q(yyName(m))}`);
    lines.push(`sum(${delta(m)}) AS ${q(ySumName(m))}`);
  }
  return `SELECT\n  ${lines.join(",\n  ")}\nFROM ${source}\nGROUP BY split, task_id\n` +
    `ORDER BY ${q("first_row")}`;
}

/**
 * The versions and metrics of a paired table from its column names: every
 * `mask:<version_id>` column in order, and every metric with both a
 * `<metric>_masked` and a `<metric>_bare` column, in order.
 *
 * @example
 * ```ts
 * import { pairedLayout } from "./sums_sql.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(pairedLayout(["split", "task_id", "reward_masked", "reward_bare", "reward_delta", "mask:a.v1"]),
 *   { versions: ["a.v1"], metrics: ["reward"] });
 * ```
 */
export function pairedLayout(columns: readonly string[]): SumsLayout {
  const names = new Set(columns);
  return {
    versions: columns.filter((c) => c.startsWith("mask:")).map((c) => c.slice(5)),
    metrics: columns.filter((c) => c.endsWith("_masked") && names.has(`${c.slice(0, -7)}_bare`))
      .map((c) => c.slice(0, -7)),
  };
}
