/**
 * `gate analyze --sums`: the analysis of a sums table (docs/FORMAT.md,
 * "Sums tables"; docs/performance.md, "Past one machine"). What sums
 * determine is computed as the row analysis computes it: the coefficients,
 * the residual sum of squares, the task-clustered CR1 errors, the selection
 * and the task bootstrap (on rows that stand for the sums, lib/analyze
 * sums_rows.ts; the same draws as the row analysis's). What needs the rows
 * themselves is listed in `not_made`, the way an import lists the checks
 * its unrecorded fields prevent.
 *
 * @module
 */
import type { DesignColumn } from "../core/types.ts";
import type { ImportMapping } from "../import/mapping.ts";
import type { IntervalType } from "../core/conventions.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { generatorMeta } from "../core/meta.ts";
import { ESTIMATOR } from "../contract/outputs/common.ts";
import { selectVersions } from "../select/select.ts";
import {
  type BootstrapJson,
  bootstrapToJson,
  runTaskBootstrapOnCores,
} from "../infer/bootstrap/bootstrap.ts";
import { taskBootstrapOptions } from "../infer/bootstrap/task_bootstrap_options.ts";
import { resolveBootstrapOptions } from "../core/bootstrap_options.ts";
import { clusterTest, fitSums, type SumsMetricFit } from "./sums_fit.ts";
import { packedIndex } from "../math/packed.ts";
import { type SumsTable, SumsTableError } from "./sums_read.ts";
import { SUMS_FORMAT, xName } from "./sums_sql.ts";
import { sumsRows } from "./sums_rows.ts";

/** The `format` of sums_analysis.json. */
export const SUMS_ANALYSIS_FORMAT = "gatelab.sums-analysis/v1";

/** The outputs and checks of a row analysis that a sums table cannot give, and why. */
export const NOT_MADE: readonly { readonly output: string; readonly message: string }[] = [
  {
    output: "validation",
    message: "pairing checks of bare vs masked runs (coverage, duplicates, provenance, seeds, " +
      "injected = planned mask, reward == r_strict): the sums hold no run; make them where " +
      "the rows are (gate validate, gate import)",
  },
  {
    output: "se_hc3",
    message: "HC3 (and every --cov type's) standard errors, t and p: they weight each row by " +
      "its leverage; CR1 by task is given instead",
  },
  {
    output: "not_estimable.leverage",
    message: "a version determined by a leverage-1 row cannot be detected (one present in one " +
      "task only is)",
  },
  {
    output: "diagnostics",
    message: "diagnostics.json: the interaction screen, residuals by number of chunks present " +
      "and the AMCE need each row's mask and residual",
  },
  { output: "tasks", message: "the per-task rows table (tasks.parquet): the sums replace it" },
  {
    output: "masked_mean, bare_mean",
    message: "the means of the masked and bare rewards: the sums hold their difference only",
  },
  {
    output: "ledger",
    message: "the proposal ledger line: no bare run's checkpoint to name",
  },
];

/** Options of {@linkcode analyzeSums}. */
export interface SumsAnalysisOptions {
  /** The metric the selection ranks by. */
  readonly metric: string;
  /** The budget K (default: the number of design columns, as an import's default). */
  readonly budgetK?: number;
  /** Bootstrap draws; 0 skips the bootstrap. */
  readonly draws: number;
  /** Bootstrap seed. */
  readonly seed: number;
  /** Which interval `ci` holds. */
  readonly interval?: IntervalType;
  /** The command line, recorded in `generator`. */
  readonly command: string;
  /** Progress of the bootstrap. */
  readonly onProgress?: ProgressCallback;
  /** Roles, budget and stage from a mapping file (`--map`). */
  readonly declared?: SumsGateDeclaration | null;
}

/** One coefficient of sums_analysis.json. */
export interface SumsCoefficient {
  readonly estimate: number;
  readonly se_hc3: null;
  readonly se_cluster: number | null;
  readonly t_cluster: number | null;
  readonly p_cluster: number | null;
  readonly se_bootstrap?: number | null;
  readonly ci?: readonly [number, number] | null;
}

/** sums_analysis.json. */
export interface SumsAnalysisDocument {
  /** `gatelab.sums-analysis/v1`. */
  readonly format: "gatelab.sums-analysis/v1";
  /** The sums table the analysis came from. */
  readonly source: {
    readonly kind: "sums";
    readonly file: string;
    readonly sha256: string;
    readonly format: "gatelab.sums/v1";
    readonly tasks: number;
    readonly rows: number;
  };
  /** The estimator (contributions.json's). */
  readonly estimator: typeof ESTIMATOR;
  /** How each number is computed from sums. */
  readonly conventions: Readonly<Record<string, string>>;
  /** Paired rows the sums stand for. */
  readonly n_pairs: number;
  /** Tasks. */
  readonly n_tasks: number;
  /** Design columns. */
  readonly columns: readonly DesignColumn[];
  /** Per metric its fit (contributions.json's fields that sums give; the others null). */
  readonly metrics: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The selection rule on the selection metric (selection.json's fields). */
  readonly selection: {
    readonly metric: string;
    readonly budget_k: number;
    readonly tie_tolerance: number;
    readonly selected: readonly string[];
    readonly decisions: readonly unknown[];
  };
  /** The task bootstrap (contributions.json's `bootstrap`); absent with 0 draws. */
  readonly bootstrap?: BootstrapJson;
  /** The checks and outputs a sums table cannot give. */
  readonly not_made: readonly { readonly output: string; readonly message: string }[];
  /** Tool, version, command. */
  readonly generator: { readonly tool: string; readonly version: string; readonly command: string };
}

/** What a mapping file (gatelab.import-map/v1, docs/import.md) gives a sums analysis. */
export interface SumsGateDeclaration {
  /** The mapping file, for messages. */
  readonly file: string;
  /** Slot, chunk and role of versions (the mapping's `versions`). */
  readonly versions?: ImportMapping["versions"];
  /** The gate's budget K. */
  readonly budget_k?: number;
  /** The gate's stage. */
  readonly stage?: "cold_start" | "online";
}

/**
 * The design columns of a sums table: each version's slot, chunk and role
 * from the mapping's `versions`, else as `gate import` defaults them (slot
 * `s` of a version `s.vN`, else its own; chunk = slot; a single-version
 * slot an ADD candidate).
 *
 * @throws {SumsTableError} When a slot has several versions without their
 *   roles (a REWRITE family), or the mapping names a version the table lacks.
 *
 * @example
 * ```ts
 * import { sumsColumns } from "./sums_analysis.ts";
 * import { deepEqual } from "node:assert/strict";
 * const table = { file: "s.parquet", layout: { versions: ["q.v1", "q.v2", "a.v1"], metrics: ["reward"] } };
 * const map = { file: "m.json", versions: { "q.v1": { role: "old" as const }, "q.v2": { role: "new" as const } } };
 * deepEqual(sumsColumns(table, map).map((c) => [c.slot_id, c.role]), [["q", "old"], ["q", "new"], ["a", "add"]]);
 * ```
 */
export function sumsColumns(
  table: Pick<SumsTable, "file" | "layout">,
  declared: SumsGateDeclaration | null = null,
): DesignColumn[] {
  const { versions } = table.layout;
  const given = declared?.versions ?? {};
  for (const v of Object.keys(given)) {
    if (!versions.includes(v)) {
      throw new SumsTableError(
        declared!.file,
        `versions.${v}`,
        `names a version the sums table ${table.file} has no x: column for`,
        "schema_error",
      );
    }
  }
  const slotOf = (v: string) => given[v]?.slot ?? /^(.+)\.v\d+$/.exec(v)?.[1] ?? v;
  const perSlot = new Map<string, string[]>();
  for (const v of versions) perSlot.set(slotOf(v), [...(perSlot.get(slotOf(v)) ?? []), v]);
  return versions.map((v): DesignColumn => {
    const slot = slotOf(v);
    const family = perSlot.get(slot)!;
    const role = given[v]?.role ?? (family.length === 1 ? "add" : undefined);
    if (role === undefined) {
      throw new SumsTableError(
        table.file,
        xName(v),
        `versions ${family.join(", ")} share slot ${slot}: give their roles (old, new) in a ` +
          "mapping's versions (--map, docs/import.md)",
      );
    }
    return { version_id: v, slot_id: slot, chunk_id: given[v]?.chunk_id ?? slot, role };
  });
}

/**
 * Analyses a sums table.
 *
 * @param table A checked sums table.
 * @param options Selection metric and budget, the bootstrap's draws, seed and interval.
 * @returns The document of sums_analysis.json.
 * @throws {SumsTableError} When the summed design does not identify every version, or the
 *   table names no such metric.
 */
export async function analyzeSums(
  table: SumsTable,
  options: SumsAnalysisOptions,
): Promise<SumsAnalysisDocument> {
  const { metrics, versions } = table.layout;
  if (!metrics.includes(options.metric)) {
    throw new SumsTableError(
      table.file,
      `yy:${options.metric}`,
      `missing column: --metric ${options.metric} is not among the table's metrics (${
        metrics.join(", ")
      })`,
    );
  }
  const columns = sumsColumns(table, options.declared ?? null);
  const solved = fitSums(table);
  if (solved.kind === "singular") {
    throw new SumsTableError(
      table.file,
      xName(solved.version),
      solved.never_present
        ? "is 0 in every task: the version is never present, so it cannot be estimated"
        : "the summed X'X is singular: the design does not identify this version",
    );
  }
  const fits = solved.metrics;
  const budgetK = options.budgetK ?? options.declared?.budget_k ?? columns.length;
  const fit = fits[options.metric]!;
  // A version present in one task only has no estimable variance (selection.json's rule).
  const notEstimable: number[] = [];
  const k = versions.length;
  versions.forEach((_, j) => {
    let tasks = 0;
    const d = packedIndex(k, j, j);
    const present = table.xtx[d]!;
    for (let t = 0; t < table.tasks; t++) if (present[t]! > 0) tasks++;
    if (tasks <= 1) notEstimable.push(j);
  });
  let selection;
  try {
    selection = selectVersions(columns, fit.estimate, budgetK, {
      tolerance: fit.tolerance,
      notEstimable,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new SumsTableError(options.declared?.file ?? table.file, "versions", error.message);
  }
  const bootstrap = options.draws > 0
    ? await sumsBootstrap(table, columns, { ...options, budgetK, notEstimable })
    : undefined;
  return {
    format: SUMS_ANALYSIS_FORMAT,
    source: {
      kind: "sums",
      file: table.file,
      sha256: table.sha256,
      format: SUMS_FORMAT,
      tasks: table.tasks,
      rows: fit.n,
    },
    estimator: ESTIMATOR,
    conventions: CONVENTIONS,
    n_pairs: fit.n,
    n_tasks: table.tasks,
    columns,
    metrics: metricOutputs(fits, versions, bootstrap, new Set(notEstimable)),
    selection: {
      metric: options.metric,
      budget_k: budgetK,
      tie_tolerance: fit.tolerance,
      selected: selection.selected,
      decisions: selection.decisions,
    },
    ...(bootstrap === undefined ? {} : { bootstrap }),
    not_made: NOT_MADE,
    generator: generatorMeta(options.command),
  };
}

/** How the numbers of sums_analysis.json are computed. */
const CONVENTIONS: Readonly<Record<string, string>> = {
  source: 'per-task sums of a sums table (docs/FORMAT.md, "Sums tables"), not rows',
  cov_type: "CR1",
  estimate: "solve of the summed X'X beta = X'y (Cholesky)",
  ssr: "sum of y'y - beta' sum of X'y, at least 0",
  se_cluster: "CR1 by task: c A^-1 (sum_g s_g s_g') A^-1, s_g = X_g'y_g - X_g'X_g beta, " +
    "A = X'X, c = G/(G-1) x (N-1)/(N-K)",
  p_cluster: "two-sided, standard normal",
  roles: "the --map mapping's versions, else slot s of a version s.vN and an ADD candidate " +
    "(as gate import's default)",
  budget_k: "--budget-k, else the mapping's budget_k, else the number of design columns " +
    "(as gate import's default)",
  bootstrap: "the task bootstrap on rows standing for the sums: a one-row task is its row, " +
    "so with one row per task the draws are the row analysis's, bit for bit",
};

function metricOutputs(
  fits: Readonly<Record<string, SumsMetricFit>>,
  versions: readonly string[],
  bootstrap: BootstrapJson | undefined,
  notEstimable: ReadonlySet<number>,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [metric, fit] of Object.entries(fits)) {
    const coefficients: Record<string, SumsCoefficient> = {};
    versions.forEach((v, j) => {
      const se = notEstimable.has(j) ? NaN : fit.se_cluster[j]!;
      const test = clusterTest(fit.estimate[j]!, se);
      const b = bootstrap?.metrics[metric]?.coefficients[v];
      coefficients[v] = {
        estimate: fit.estimate[j]!,
        se_hc3: null,
        se_cluster: Number.isFinite(se) ? se : null,
        t_cluster: test.t,
        p_cluster: test.p,
        ...(b === undefined ? {} : {
          se_bootstrap: notEstimable.has(j) ? null : b.se_bootstrap,
          ci: notEstimable.has(j) ? null : b.ci,
        }),
      };
    });
    out[metric] = {
      n: fit.n,
      k: fit.k,
      df_resid: fit.df_resid,
      resid_se: Number.isFinite(fit.resid_se) ? fit.resid_se : null,
      ssr: fit.ssr,
      r2_uncentered: Number.isFinite(fit.r2_uncentered) ? fit.r2_uncentered : null,
      masked_mean: null,
      bare_mean: null,
      delta_mean: fit.delta_mean,
      coefficients,
    };
  }
  return out;
}

/** The task bootstrap of the table, on rows that stand for its sums. */
async function sumsBootstrap(
  table: SumsTable,
  columns: readonly DesignColumn[],
  options: SumsAnalysisOptions & { readonly budgetK: number; readonly notEstimable: number[] },
): Promise<BootstrapJson> {
  const gate = {
    gate_id: "sums",
    stage: options.declared?.stage ?? ("cold_start" as const),
    budget_k: options.budgetK,
  };
  const dataset = sumsRows(table, columns, gate);
  if ("task" in dataset) {
    const t = dataset.task;
    throw new SumsTableError(
      table.file,
      "rows",
      `task ${table.split[t]}/${table.taskId[t]}: its X'X could not be split into ` +
        `${table.rows[t]} rows of 0/1 masks for the bootstrap (--bootstrap 0 analyses it without)`,
    );
  }
  const drawing = resolveBootstrapOptions({
    draws: options.draws,
    seed: options.seed,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  }, { minDraws: 0 });
  const resolved = taskBootstrapOptions(dataset, drawing, {
    ...(options.interval === undefined ? {} : { interval: options.interval }),
    metrics: dataset.metrics,
    budgetK: options.budgetK,
    selectionMetric: options.metric,
  });
  try {
    const result = await runTaskBootstrapOnCores(
      dataset,
      options.notEstimable.length === 0
        ? resolved
        : { ...resolved, notEstimable: options.notEstimable },
    );
    return bootstrapToJson(result);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new SumsTableError(table.file, "", `cannot bootstrap: ${error.message}`);
    }
    throw error;
  }
}
