import type { Issue } from "../core/issue.ts";
import type { ImportMapping } from "./mapping.ts";
import type { SourceTable } from "./table.ts";
import { numberValue } from "./rows.ts";

/**
 * A paired table (gatelab's own `tasks` table, docs/FORMAT.md "Tidy
 * tables") unfolded into the attempt layout `gate import table` reads: one
 * bare and one masked attempt per paired row, the bare attempt written once
 * per episode (pooled rounds repeat it), with where each unfolded row and
 * column came from, so an issue names the paired table's row and column.
 */
export interface UnpairedTable {
  /** The attempt table: `arm`, one column per metric, the rest as read. */
  readonly table: SourceTable;
  /** The mapping to read it with: the unfolded `arm` column, its own values. */
  readonly mapping: ImportMapping;
  /** One-based row of the paired table for each unfolded row (index = unfolded row - 1). */
  readonly rowOf: readonly number[];
  /** The paired table's column for an unfolded row's column (`reward` to `reward_bare`). */
  readonly columnOf: (row: number, column: string) => string;
  /** The metrics found, in column order (each from `<metric>_masked` and `<metric>_bare`). */
  readonly metrics: readonly string[];
  /**
   * The issues of the paired rows (their rows are left out of `table`), so
   * the caller reports them with those of the unfolded attempts.
   */
  readonly issues: readonly Issue[];
}

const SUFFIXES = ["_masked", "_bare", "_delta"] as const;
/** The contract's primary metric, a trace's `reward` field (a name, not an option's default). */
const CONTRACT_PRIMARY = "reward";

/**
 * Whether a table is in the paired layout: no arm column (the mapping's, or
 * `arm`) and both `<primary>_masked` and `<primary>_bare` columns, where
 * the primary metric is the mapping's `primary` (or `columns.reward`), else
 * `reward`.
 *
 * @param table The table as read.
 * @param mapping The import mapping.
 * @returns True for the paired layout.
 *
 * @example
 * ```ts
 * import { isPairedTable } from "./paired.ts";
 * import { equal } from "node:assert/strict";
 * const table = {
 *   file: "tasks.csv", format: "csv" as const, rows: 0, data: {},
 *   columns: ["round", "task_id", "reward_masked", "reward_bare", "reward_delta", "mask:q.v1"],
 * };
 * equal(isPairedTable(table, { format: "gatelab.import-map/v1" }), true);
 * equal(isPairedTable({ ...table, columns: ["task_id", "arm", "reward"] }, { format: "gatelab.import-map/v1" }), false);
 * ```
 */
export function isPairedTable(table: SourceTable, mapping: ImportMapping): boolean {
  const has = new Set(table.columns);
  const primary = mapping.primary ?? mapping.columns?.reward ?? CONTRACT_PRIMARY;
  return !has.has(mapping.columns?.arm ?? "arm") && has.has(`${primary}_masked`) &&
    has.has(`${primary}_bare`);
}

/**
 * Unfolds a paired table (one row per paired row: `<metric>_masked`,
 * `<metric>_bare`, optional `<metric>_delta`, the mask as `mask:<version>`
 * columns and/or an `injected` list) into one bare and one masked attempt
 * per row. The bare attempt has no round, an all-0 mask and no injected
 * ids; an episode's bare attempt is written at its first row, and every
 * later row of the episode (another round) must repeat its bare values.
 * Every problem is an issue naming the paired table's file, row and column:
 * a metric value that is not a finite number on either arm
 * (`reward_incomplete`), a delta that is not masked - bare exactly
 * (`schema_error`), bare values that differ between rows of one episode
 * (`duplicate_completed`), a `_masked` column without its `_bare` column
 * or the reverse (`schema_error`).
 *
 * @param table A table for which {@linkcode isPairedTable} holds.
 * @param mapping The import mapping.
 * @returns The unfolded table and the paired rows' issues, or the issues of the header.
 *
 * @example
 * ```ts
 * import { unpairTable } from "./paired.ts";
 * import { deepEqual } from "node:assert/strict";
 * const u = unpairTable({
 *   file: "tasks.csv", format: "csv", rows: 1,
 *   columns: ["task_id", "reward_masked", "reward_bare", "reward_delta", "mask:q.v1"],
 *   data: { task_id: ["t1"], reward_masked: [1], reward_bare: [0.75], reward_delta: [0.25], "mask:q.v1": [1] },
 * }, { format: "gatelab.import-map/v1" });
 * if (!u.ok) throw new Error("unexpected issues");
 * deepEqual(u.value.table.data["arm"], ["bare", "masked"]);
 * deepEqual(u.value.table.data["reward"], [0.75, 1]);
 * deepEqual(u.value.table.data["mask:q.v1"], [0, 1]);
 * deepEqual(u.value.columnOf(1, "reward"), "reward_bare");
 * ```
 */
export function unpairTable(
  table: SourceTable,
  mapping: ImportMapping,
): { ok: true; value: UnpairedTable } | { ok: false; issues: Issue[] } {
  const file = table.file;
  const columns = pairedColumns(table, mapping);
  if (!columns.ok) return columns;
  const { metrics, rest, keyColumns, roundColumn, injectedColumn, maskColumns } = columns;
  const has = new Set(table.columns);
  const named = mapping.columns ?? {};
  const issues: Issue[] = [];
  const out: Record<string, unknown[]> = { arm: [] };
  for (const m of metrics) out[m] = [];
  for (const c of rest) out[c] = [];
  const rowOf: number[] = [];
  const firstBare = new Map<string, number>();
  const cell = (c: string, i: number) => table.data[c]![i] ?? null;
  for (let i = 0; i < table.rows; i++) {
    const row = i + 1;
    const values: Record<string, { masked: number; bare: number }> = {};
    let complete = true;
    for (const m of metrics) {
      const pair = { masked: NaN, bare: NaN };
      for (const arm of ["masked", "bare"] as const) {
        const column = `${m}_${arm}`;
        const x = numberValue(cell(column, i));
        if (typeof x === "number" && Number.isFinite(x)) pair[arm] = x;
        else {
          complete = false;
          const other = arm === "masked" ? "bare" : "masked";
          issues.push({
            code: "reward_incomplete",
            message: `${column} ${show(cell(column, i))} is not a finite number (${m}_${other} ${
              show(cell(`${m}_${other}`, i))
            }); a paired row needs both arms' values`,
            file,
            line: row,
            path: column,
          });
        }
      }
      values[m] = pair;
      const deltaColumn = `${m}_delta`;
      if (!has.has(deltaColumn) || Number.isNaN(pair.masked) || Number.isNaN(pair.bare)) continue;
      const delta = numberValue(cell(deltaColumn, i));
      const want = pair.masked - pair.bare;
      if (delta !== null && !(typeof delta === "number" && Object.is(delta, want))) {
        issues.push({
          code: "schema_error",
          message: `${deltaColumn} ${show(cell(deltaColumn, i))} is not ${m}_masked - ${m}_bare (${
            String(want)
          })`,
          file,
          line: row,
          path: deltaColumn,
        });
      }
    }
    if (!complete) continue;
    const key = JSON.stringify(keyColumns.map((c) => keyText(cell(c, i))));
    const first = firstBare.get(key);
    if (first === undefined) {
      firstBare.set(key, i);
      out["arm"]!.push("bare");
      for (const m of metrics) out[m]!.push(values[m]!.bare);
      for (const c of rest) {
        out[c]!.push(
          maskColumns.has(c) ? 0 : c === injectedColumn ? null : c === roundColumn ? null : (
            keyColumns.includes(c) ? cell(c, i) : null
          ),
        );
      }
      rowOf.push(row);
    } else {
      for (const m of metrics) {
        const was = numberValue(cell(`${m}_bare`, first));
        if (Object.is(was, values[m]!.bare)) continue;
        issues.push({
          code: "duplicate_completed",
          message: `${m}_bare ${String(values[m]!.bare)} differs from row ${first + 1} (${
            String(was)
          }) of the same episode: one episode has one bare rollout, repeated in every round`,
          file,
          line: row,
          path: `${m}_bare`,
        });
      }
    }
    out["arm"]!.push("masked");
    for (const m of metrics) out[m]!.push(values[m]!.masked);
    for (const c of rest) out[c]!.push(cell(c, i));
    rowOf.push(row);
  }
  const arms = out["arm"]!;
  const { arm_values: _ignored, ...rest_mapping } = mapping;
  return {
    ok: true,
    value: {
      table: {
        file,
        format: table.format,
        columns: ["arm", ...metrics, ...rest],
        rows: arms.length,
        data: out,
      },
      mapping: { ...rest_mapping, columns: { ...named, arm: "arm" } },
      rowOf,
      columnOf: (row, column) => {
        const arm = arms[row - 1];
        if (column === "arm" || arm === undefined) return column;
        return metrics.includes(column) ? `${column}_${arm}` : column;
      },
      metrics,
      issues,
    },
  };
}

/** The columns of a paired table: its metrics, its key columns, the rest as read. */
interface PairedColumns {
  readonly metrics: readonly string[];
  /** The columns other than the metrics' `_masked`, `_bare` and `_delta`. */
  readonly rest: readonly string[];
  /** The episode's columns present: split, task, sample, checkpoint. */
  readonly keyColumns: readonly string[];
  readonly roundColumn: string;
  readonly injectedColumn: string;
  readonly maskColumns: ReadonlySet<string>;
}

/**
 * The metrics of a paired table (each `<metric>_masked` with its
 * `<metric>_bare`, and `<metric>_delta` when present) and its other
 * columns; a half pair, or a column named like an unfolded one, is an issue.
 */
function pairedColumns(
  table: SourceTable,
  mapping: ImportMapping,
): ({ ok: true } & PairedColumns) | { ok: false; issues: Issue[] } {
  const file = table.file;
  const issues: Issue[] = [];
  const has = new Set(table.columns);
  const metrics: string[] = [];
  const consumed = new Set<string>();
  for (const c of table.columns) {
    for (const suffix of SUFFIXES) {
      if (!c.endsWith(suffix)) continue;
      const m = c.slice(0, -suffix.length);
      if (m === "" || metrics.includes(m)) continue;
      const masked = `${m}_masked`, bare = `${m}_bare`;
      if (has.has(masked) && has.has(bare)) {
        metrics.push(m);
        for (const s of SUFFIXES) if (has.has(m + s)) consumed.add(m + s);
      } else if (suffix !== "_delta") {
        const other = suffix === "_masked" ? bare : masked;
        issues.push({
          code: "schema_error",
          message:
            `column "${c}" has no "${other}": a paired table gives each metric as <metric>_masked and <metric>_bare`,
          file,
          path: c,
        });
      }
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const named = mapping.columns ?? {};
  const rest = table.columns.filter((c) => !consumed.has(c));
  for (const c of rest.filter((c) => c === "arm" || metrics.includes(c))) {
    issues.push({
      code: "schema_error",
      message:
        `column "${c}" is also the name of an unfolded column (${c}_masked and ${c}_bare, or the arm): rename it`,
      file,
      path: c,
    });
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    metrics,
    rest,
    keyColumns: (["split", "task_id", "sample_id", "checkpoint_id"] as const)
      .map((f) => named[f] ?? f).filter((c) => has.has(c)),
    roundColumn: named.round ?? "round",
    injectedColumn: named.injected ?? "injected",
    maskColumns: new Set([
      ...table.columns.filter((c) => c.startsWith("mask:")),
      ...Object.values(named.mask ?? {}),
    ]),
  };
}

/**
 * A key column's cell as text for finding an episode's rows: a list or an
 * object by its JSON, so two of them never fall together as `[object
 * Object]` (the attempt rows then refuse them as ids that are not text).
 */
function keyText(v: unknown): string {
  if (v === null || typeof v !== "object") return String(v);
  try {
    return `\u0001${JSON.stringify(v, (_k, x) => typeof x === "bigint" ? String(x) : x)}`;
  } catch {
    return `\u0001${String(v)}`;
  }
}

function show(v: unknown): string {
  if (v === null || v === undefined || v === "") return "(empty)";
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}
