/**
 * Power-planning inputs from a past gate analysis (`contributions.json`):
 * tasks N, columns M, the share of present cells p, the residual SD of the
 * paired-delta fit and the estimated coefficients.
 *
 * @module
 */
import type { Issue, Result } from "../core/issue.ts";
import { GatelabError } from "../core/issue.ts";
import type { ContributionsJson } from "../contract/outputs/mod.ts";
import { factorDesign } from "../fit/factor.ts";
import { fitOls } from "../fit/ols.ts";
import { DEFAULTS } from "../core/defaults.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Row = NonNullable<ContributionsJson["tasks"]>[number];
/** @ignore */
type Coefficient = ContributionsJson["metrics"][string]["coefficients"][string];

/**
 * What {@linkcode powerInputsFromContributions} reads of contributions.json
 * (a file read back is checked first with lib/contract's `ContributionsSchema`).
 */
export interface PowerFromInput {
  /** Paired rows. */
  readonly n_pairs: number;
  /** Distinct tasks; absent in a hand-made document, then n_pairs counts. */
  readonly n_tasks?: number;
  /** Design columns, in column order (their version ids). */
  readonly columns: readonly Pick<ContributionsJson["columns"][number], "version_id">[];
  /** Every paired row: its design and each metric's delta. */
  readonly tasks: readonly {
    readonly columns: Row["columns"];
    readonly values: Readonly<Record<string, Pick<Row["values"][string], "delta">>>;
  }[];
  /** Estimated coefficient of each version, per metric. */
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<Record<string, Pick<Coefficient, "estimate">>>;
    }>
  >;
}

/** What {@linkcode powerInputsFromContributions} extracts. */
export interface PowerInputs {
  /** Distinct tasks N. */
  readonly tasks: number;
  /** Design columns M. */
  readonly columns: number;
  /** Mean presence rate of the task columns. */
  readonly pPresent: number;
  /** Residual SD of the no-intercept refit. */
  readonly residSd: number;
  /** Version id of each column, in column order. */
  readonly versionIds: readonly string[];
  /** Estimated coefficients of the metric, in column order. */
  readonly estimates: readonly number[];
  /** Metric the inputs come from. */
  readonly metric: string;
  /** How each input was derived, in words. */
  readonly how: string;
}

/**
 * Reads N (`n_tasks`, the distinct tasks: pooled rounds are not counted as
 * extra tasks; `n_pairs` when `n_tasks` is absent), M (`columns`), p (mean of the 0/1 task columns),
 * the residual SD (refit of the metric's per-task deltas without intercept:
 * sqrt(RSS / (n - M))) and the coefficient estimates from contributions.json
 * (its shape checked by its schema). What the schema cannot know is a
 * `plan_invalid` issue: no task rows, a metric the analysis does not hold,
 * a design that cannot be refitted.
 *
 * @param doc Parsed contributions.json.
 * @param options metric (default "reward"), file name for issues.
 * @returns The inputs or the issues.
 *
 * @example
 * ```ts
 * import { powerInputsFromContributions } from "./power_from.ts";
 * import { ok } from "node:assert/strict";
 * const tasks = ([[1, 0, 0.3], [0, 1, 0.1], [1, 1, 0.5], [0, 0, 0.05], [1, 0, 0.2]] as const).map(([a, b, d]) =>
 *   ({ columns: { a, b }, values: { reward: { delta: d } } }));
 * const r = powerInputsFromContributions({ n_pairs: 5, columns: [{ version_id: "a" }, { version_id: "b" }], tasks,
 *   metrics: { reward: { coefficients: { a: { estimate: 0.2 }, b: { estimate: 0.1 } } } } });
 * ok(r.ok && r.value.tasks === 5 && Math.abs(r.value.pPresent - 0.5) < 1e-12);
 * ```
 */
export function powerInputsFromContributions(
  doc: PowerFromInput,
  options: { readonly metric?: string; readonly file?: string } = {},
): Result<PowerInputs> {
  const metric = options.metric ?? DEFAULTS.metric;
  const file = options.file ?? "contributions.json";
  const issues: Issue[] = [];
  const bad = (path: string, message: string) =>
    issues.push({ code: "plan_invalid", file, path, message });
  const { columns, tasks } = doc;
  if (tasks.length === 0) bad("tasks", "expected the per-task rows");
  if (issues.length > 0) return { ok: false, issues };
  const ids = columns.map((c) => c.version_id);
  const m = ids.length, n = tasks.length;
  const x = new Float64Array(n * m), y = new Float64Array(n);
  let present = 0;
  tasks.forEach((t, i) => {
    const delta = t.values[metric]?.delta;
    if (delta === undefined) {
      bad(`tasks.${i}.values.${metric}.delta`, `the analysis has no metric "${metric}"`);
      return;
    }
    y[i] = delta;
    ids.forEach((id, j) => {
      const v = t.columns[id];
      if (v === undefined) bad(`tasks.${i}.columns.${id}`, "expected 0 or 1");
      else {
        x[i * m + j] = v;
        present += v;
      }
    });
  });
  const coefficients = doc.metrics[metric]?.coefficients;
  const estimates = ids.map((id) => coefficients?.[id]?.estimate);
  if (estimates.some((e) => e === undefined)) {
    bad(`metrics.${metric}.coefficients`, "expected an estimate per column");
  }
  if (issues.length > 0) return { ok: false, issues };
  let fit = null;
  try {
    fit = n > m ? fitOls(factorDesign(x, [n, m]), y) : null;
  } catch (error) {
    if (!(error instanceof GatelabError)) throw error;
  }
  if (!fit) {
    bad(
      "tasks",
      `cannot refit ${metric}: ${
        n <= m ? "no residual degrees of freedom" : "the design is rank deficient"
      }`,
    );
    return { ok: false, issues };
  }
  // Pooled rounds put several rows on one task; those rows are not independent tasks, so N is
  // the number of distinct tasks (n_tasks) when the analysis records it.
  const nTasks = doc.n_tasks ?? doc.n_pairs;
  return {
    ok: true,
    issues: [],
    value: {
      tasks: nTasks,
      columns: m,
      pPresent: present / (n * m),
      residSd: Math.sqrt(fit.ssr / (n - m)),
      versionIds: ids,
      estimates: estimates as number[],
      metric,
      how: "tasks = n_tasks (distinct tasks; with pooled rounds n_pairs counts rows, and rows " +
        "of one task are not independent tasks); columns = len(columns); p_present = mean of the 0/1 task columns; " +
        `resid_sd = sqrt(RSS / (n - M)) of the no-intercept refit of tasks[].values.${metric}.delta; ` +
        `effects default to metrics.${metric}.coefficients[].estimate`,
    },
  };
}
