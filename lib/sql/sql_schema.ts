/**
 * The SQL tables that `loadIntoDuckDb` creates: every column with its
 * kind, in table and column order, described once.
 *
 * @module
 */

/** Kind of a SQL column: Arrow Utf8, Float64, Int32 or Bool (NULL allowed in all). */
export type SqlColumnKind = "str" | "f64" | "i32" | "bool";

/** Every table's columns with their kinds, in load order (see docs/validation.md). */
export const SQL_COLUMN_KINDS = {
  runs: {
    run_id: "str",
    run_dir: "str",
    arm: "str",
    split: "str",
    repeats: "i32",
    n_tasks: "i32",
    checkpoint_id: "str",
    model: "str",
    endpoint: "str",
    send_seed: "bool",
    base_prompt_sha256: "str",
    environment_name: "str",
    environment_version: "str",
    runtime_protocol: "str",
    reward_version: "str",
    skill_bank: "str",
    sha256: "str",
  },
  attempts: {
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    status: "str",
    reward: "f64",
    success: "bool",
    job_seed: "f64",
    steps: "f64",
    prompt_tokens: "f64",
    completion_tokens: "f64",
    error: "str",
    n_injected: "i32",
    line: "i32",
  },
  rewards: {
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    component: "str",
    value: "f64",
  },
  injected: {
    run_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    attempt: "i32",
    version_id: "str",
  },
  gates: {
    gate_id: "str",
    gate_dir: "str",
    stage: "str",
    budget_k: "i32",
    mask_seed: "f64",
    p_present: "f64",
    bare_run_dir: "str",
    masked_run_id: "str",
  },
  versions: {
    gate_id: "str",
    slot_id: "str",
    version_id: "str",
    chunk_id: "str",
    role: "str",
    column_index: "i32",
  },
  assignments: {
    gate_id: "str",
    split: "str",
    task_id: "str",
    sample_id: "i32",
    slot_id: "str",
    version_id: "str",
  },
} as const satisfies Record<string, Record<string, SqlColumnKind>>;

/** Name of a table `loadIntoDuckDb` creates. */
export type SqlTableName = keyof typeof SQL_COLUMN_KINDS;

/**
 * Tables created by `loadIntoDuckDb`, with their column names in order
 * (see docs/validation.md).
 *
 * @example
 * ```ts
 * import { SQL_TABLES } from "./sql_schema.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(SQL_TABLES["rewards"], ["run_id", "split", "task_id", "sample_id", "attempt", "component", "value"]);
 * ```
 */
export const SQL_TABLES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(SQL_COLUMN_KINDS).map(([table, columns]) => [table, Object.keys(columns)]),
);

/** One column of a table's data: name, kind and one value per row (null for NULL). */
export interface SqlColumn {
  readonly name: string;
  readonly kind: SqlColumnKind;
  readonly values: readonly unknown[];
}

/** A table's data, column by column, ready for Arrow. */
export interface SqlTableData {
  readonly rows: number;
  readonly columns: readonly SqlColumn[];
}
