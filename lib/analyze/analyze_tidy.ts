/**
 * The tidy tables of `gate analyze` (docs/FORMAT.md, "Tidy tables"):
 * `coefficients` (one row per metric x version), `tasks` (one row per
 * paired row), `selection` (one row per version) and, with
 * `--save-draws`, `draws` (one row per draw x metric x version). Every
 * number is the one contributions.json or selection.json holds.
 *
 * @module
 */
import {
  type TidyColumn,
  tidyFromRows,
  type TidyKind,
  type TidyTable,
} from "../tidy/tidy_table.ts";
import type { ContributionsOutput, SelectionOutput } from "./types.ts";
import { type TaskRowColumns, type TaskRowText, taskRowText } from "./task_rows.ts";
import type { SelectionStatus } from "../select/select.ts";

/** Raw bootstrap draws: `coefficients[(d * metrics.length + m) * versions.length + j]`, NaN where degenerate. */
export interface BootstrapDraws {
  /** Metric order of `coefficients`. */
  readonly metrics: readonly string[];
  /** Version order of `coefficients`. */
  readonly versions: readonly string[];
  /** Number of draws. */
  readonly draws: number;
  /** The estimates, draw-major, then metric, then version. */
  readonly coefficients: Float64Array;
}

export { MAX_SAVED_DRAWS } from "../core/defaults.ts";

/**
 * The tidy tables `gate analyze` writes, by name, in `gate sql`'s load
 * order: the analysis bundle's `tidy` (lib/analyze/bundle.ts), and the
 * tables `gate sql` reads from an analysis output.
 *
 * @example
 * ```ts
 * import { ANALYSIS_TIDY_TABLES } from "./analyze_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(ANALYSIS_TIDY_TABLES, ["coefficients", "tasks", "selection", "draws"]);
 * ```
 */
export const ANALYSIS_TIDY_TABLES = ["coefficients", "tasks", "selection", "draws"] as const;

/** How `selection.reason` explains each status (the rule of selection.json's conventions). */
export const SELECTION_REASONS: Readonly<Record<SelectionStatus, string>> = {
  selected: "positive alpha within the top budget_k survivors",
  rewrite_loser: "lower alpha than its REWRITE family's winner",
  non_positive: "alpha not above tie_tolerance",
  budget_excluded: "survivor ranked below budget_k",
  not_estimable:
    "variance not estimable (a leverage-1 row, or present in one task only): never selected",
};

/** Columns of the `coefficients` table and their kinds, in order. */
export const COEFFICIENT_COLUMNS = {
  metric: "str",
  version_id: "str",
  slot_id: "str",
  chunk_id: "str",
  role: "str",
  estimate: "f64",
  se_hc3: "f64",
  cov_type: "str",
  se: "f64",
  z: "f64",
  p: "f64",
  se_cluster: "f64",
  z_cluster: "f64",
  p_cluster: "f64",
  se_bootstrap: "f64",
  interval: "str",
  ci_low: "f64",
  ci_high: "f64",
  amce: "f64",
  amce_gap: "f64",
  status: "str",
  rank: "i32",
} as const satisfies Record<string, TidyKind>;

/**
 * `coefficients`: one row per metric (contributions.json order) and
 * version (column order). `se`, `z`, `p` are the chosen covariance's
 * (`cov_type`; the JSON's `se_robust`, `t`, `p`); `status` and `rank` come
 * from selection.json and are filled on the selection metric's rows only.
 *
 * @param contributions contributions.json.
 * @param selection selection.json, or null (exploratory: no selection).
 * @returns The table.
 *
 * @example
 * ```ts
 * import { coefficientsTable } from "./analyze_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const c = { conventions: { cov_type: "hc3" }, columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" }],
 *   metrics: { reward: { coefficients: { a: { estimate: 0.3, se_hc3: 0.1, se_robust: 0.1, t: 3, p: 0.0027,
 *     se_cluster: null, t_cluster: null, p_cluster: null, amce: 0.3, amce_gap: 0 } } } } };
 * const t = coefficientsTable(c as never, null);
 * deepEqual([t.rows, t.columns.find((x) => x.name === "z")!.values[0]], [1, 3]);
 * ```
 */
export function coefficientsTable(
  contributions: Pick<ContributionsOutput, "conventions" | "columns" | "metrics" | "bootstrap">,
  selection: Pick<SelectionOutput, "metric" | "decisions"> | null,
): TidyTable {
  const decisions = new Map(selection?.decisions.map((d) => [d.version_id, d]) ?? []);
  const interval = contributions.bootstrap?.interval ?? null;
  const rows: Record<string, unknown>[] = [];
  for (const [metric, out] of Object.entries(contributions.metrics)) {
    for (const column of contributions.columns) {
      const c = out.coefficients[column.version_id]!;
      const d = metric === selection?.metric ? decisions.get(column.version_id) : undefined;
      rows.push({
        metric,
        version_id: column.version_id,
        slot_id: column.slot_id,
        chunk_id: column.chunk_id,
        role: column.role,
        estimate: c.estimate,
        se_hc3: c.se_hc3,
        cov_type: contributions.conventions.cov_type,
        se: c.se_robust,
        z: c.t,
        p: c.p,
        se_cluster: c.se_cluster,
        z_cluster: c.t_cluster,
        p_cluster: c.p_cluster,
        se_bootstrap: c.se_bootstrap,
        interval: c.ci === undefined ? null : interval,
        ci_low: c.ci?.[0],
        ci_high: c.ci?.[1],
        amce: c.amce,
        amce_gap: c.amce_gap,
        status: d?.status,
        rank: d?.rank,
      });
    }
  }
  return tidyFromRows("coefficients", COEFFICIENT_COLUMNS, rows);
}

/**
 * `selection`: one row per decision of selection.json (column order).
 *
 * @param selection selection.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { selectionTable } from "./analyze_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = selectionTable({ metric: "reward", budget_k: 1, decisions: [
 *   { slot_id: "a", version_id: "a", role: "add", alpha: 0.3, rank: 1, status: "selected", retired: false }] } as never);
 * deepEqual(t.columns.map((c) => c.values[0]), ["reward", "a", "a", "add", 0.3, "selected", 1, false, 1,
 *   "positive alpha within the top budget_k survivors"]);
 * ```
 */
export function selectionTable(
  selection: Pick<SelectionOutput, "metric" | "budget_k" | "decisions">,
): TidyTable {
  return tidyFromRows(
    "selection",
    {
      metric: "str",
      version_id: "str",
      slot_id: "str",
      role: "str",
      alpha: "f64",
      status: "str",
      rank: "i32",
      retired: "bool",
      budget_k: "i32",
      reason: "str",
    },
    selection.decisions.map((d) => ({
      metric: selection.metric,
      version_id: d.version_id,
      slot_id: d.slot_id,
      role: d.role,
      alpha: d.alpha,
      status: d.status,
      rank: d.rank,
      retired: d.retired,
      budget_k: selection.budget_k,
      reason: SELECTION_REASONS[d.status],
    })),
  );
}

/**
 * `tasks`: one row per paired row (contributions.json's `tasks`, in
 * order): `round` (the row's gate id), with pooled checkpoints
 * `checkpoint_id` (the checkpoint of the row's gate), `split`, `task_id`, `sample_id`,
 * per metric `<metric>_masked`, `<metric>_bare`, `<metric>_delta`, the
 * mask as `injected` (the version ids present, in column order) and one
 * 0/1 column `mask:<version_id>` per version. Column names match the
 * canonical input columns of `gate import table`.
 *
 * @param dataset The analysed dataset (the columns contributions.json's rows are written from).
 * @returns The table.
 *
 * @example
 * ```ts
 * import { tasksTable } from "./analyze_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = tasksTable({ n: 1, k: 2, metrics: ["reward"], design: Uint8Array.from([1, 0]),
 *   masked: { reward: Float64Array.from([1]) }, bare: { reward: Float64Array.from([0.5]) }, delta: { reward: Float64Array.from([0.5]) },
 *   episodes: [{ split: "val", task_id: "t", sample_id: 0 }], gateIndex: new Uint16Array(1),
 *   columns: [{ version_id: "a.v1" }, { version_id: "b.v1" }], gates: [{ gate_id: "g" }] });
 * deepEqual(t.columns.map((c) => [c.name, c.values[0]]), [["round", "g"], ["split", "val"], ["task_id", "t"],
 *   ["sample_id", 0], ["reward_masked", 1], ["reward_bare", 0.5], ["reward_delta", 0.5], ["injected", ["a.v1"]],
 *   ["mask:a.v1", 1], ["mask:b.v1", 0]]);
 * ```
 */
export function tasksTable(dataset: TaskRowColumns): TidyTable {
  return tasksTableOfText(taskRowText(dataset, { pooled: true }));
}

/**
 * {@linkcode tasksTable} of the dataset's columns as `taskRowText` takes
 * them (with `pooled: true`): plain arrays and typed arrays, so a worker
 * can build the table from a posted copy.
 *
 * @param text The dataset's columns (`taskRowText(dataset, { pooled: true })`).
 * @returns The table.
 *
 * @example
 * ```ts
 * import { tasksTable, tasksTableOfText } from "./analyze_tidy.ts";
 * import { taskRowText } from "./task_rows.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = { n: 1, k: 1, metrics: ["reward"], design: Uint8Array.from([1]),
 *   masked: { reward: Float64Array.from([1]) }, bare: { reward: Float64Array.from([0.5]) }, delta: { reward: Float64Array.from([0.5]) },
 *   episodes: [{ split: "val", task_id: "t", sample_id: 0 }], gateIndex: new Uint16Array(1),
 *   columns: [{ version_id: "a.v1" }], gates: [{ gate_id: "g" }] };
 * deepEqual(tasksTableOfText(structuredClone(taskRowText(dataset, { pooled: true }))), tasksTable(dataset));
 * ```
 */
export function tasksTableOfText(text: TaskRowText): TidyTable {
  const { n, k, versions, design, gateIds, gateIndex } = text;
  const columns: TidyColumn[] = [
    { name: "round", kind: "str", values: Array.from(gateIndex, (g) => gateIds![g]!) },
    // Pooled checkpoints only: the checkpoint of the row's gate (whose bare run it is paired with).
    ...(text.gateCheckpoints === null ? [] : [{
      name: "checkpoint_id",
      kind: "str" as const,
      values: Array.from(gateIndex, (g) => text.gateCheckpoints![g]!),
    }]),
    { name: "split", kind: "str", values: text.split },
    { name: "task_id", kind: "str", values: text.taskId },
    { name: "sample_id", kind: "i32", values: text.sampleId },
  ];
  text.metrics.forEach((m, t) => {
    columns.push({ name: `${m}_masked`, kind: "f64", values: text.masked[t]! });
    columns.push({ name: `${m}_bare`, kind: "f64", values: text.bare[t]! });
    columns.push({ name: `${m}_delta`, kind: "f64", values: text.delta[t]! });
  });
  // Rows with the same mask share one list (at most 2^k of them; a list a row held about 200
  // MB at 1,000,000 rows and 16 columns while tasks.parquet was encoded).
  const injected = new Array<string[]>(n);
  const lists = new Map<number | string, string[]>();
  for (let i = 0; i < n; i++) {
    let mask: number | string = 0;
    if (k <= 30) { for (let j = 0; j < k; j++) mask = mask * 2 + (design[i * k + j] ? 1 : 0); }
    else mask = String.fromCharCode(...design.subarray(i * k, (i + 1) * k));
    let present = lists.get(mask);
    if (present === undefined) {
      present = [];
      for (let j = 0; j < k; j++) if (design[i * k + j]) present.push(versions[j]!);
      lists.set(mask, present);
    }
    injected[i] = present;
  }
  columns.push({ name: "injected", kind: "str_list", values: injected });
  versions.forEach((v, j) => {
    const bits = new Int32Array(n);
    for (let i = 0; i < n; i++) bits[i] = design[i * k + j] ? 1 : 0;
    columns.push({ name: `mask:${v}`, kind: "i32", values: bits });
  });
  return { name: "tasks", rows: n, columns };
}

/**
 * `draws`: one row per bootstrap draw (0-based, in draw order), metric and
 * version; `estimate` is null where the draw left the coefficient
 * undefined (contributions.json `bootstrap.degenerate`).
 *
 * @param draws The raw draws.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { drawsTable } from "./analyze_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = drawsTable({ metrics: ["reward"], versions: ["a", "b"], draws: 2, coefficients: Float64Array.from([1, 2, 3, NaN]) });
 * deepEqual(t.columns.map((c) => Array.from(c.values as ArrayLike<unknown>)), [[0, 0, 1, 1], ["reward", "reward", "reward", "reward"], ["a", "b", "a", "b"], [1, 2, 3, NaN]]);
 * ```
 */
export function drawsTable(draws: BootstrapDraws): TidyTable {
  const { metrics, versions, coefficients } = draws;
  const per = metrics.length * versions.length;
  const rows = draws.draws * per;
  const draw = new Int32Array(rows);
  const metric = new Array<string>(rows);
  const version = new Array<string>(rows);
  for (let r = 0; r < rows; r++) {
    draw[r] = Math.floor(r / per);
    metric[r] = metrics[Math.floor(r / versions.length) % metrics.length]!;
    version[r] = versions[r % versions.length]!;
  }
  return {
    name: "draws",
    rows,
    columns: [
      { name: "draw", kind: "i32", values: draw },
      { name: "metric", kind: "str", values: metric },
      { name: "version_id", kind: "str", values: version },
      { name: "estimate", kind: "f64", values: coefficients.subarray(0, rows) },
    ],
  };
}
