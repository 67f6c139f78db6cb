/**
 * The options of the task bootstrap of a paired dataset, resolved once at
 * its door (`bootstrapDataset`, `bootstrapDatasetOnCores`, `runAnalysis`)
 * into a type with every field present, which the kernels, the interval and
 * the stability summaries read unchanged.
 *
 * @module
 */
import {
  type BootstrapOptions,
  resolveBootstrapOptions,
  type ResolvedBootstrapOptions,
} from "../../core/bootstrap_options.ts";
import { INTERVAL_NAMES, type IntervalType, resolveConvention } from "../../core/conventions.ts";
import { DEFAULTS } from "../../core/defaults.ts";
import type { PairedDataset } from "../../core/types.ts";

/** Options of `bootstrapDataset`: a bootstrap's (draws, seed, progress) and the task bootstrap's own. */
export interface TaskBootstrapOptions extends BootstrapOptions {
  /** Metrics to bootstrap. @default {all metrics of the dataset} */
  readonly metrics?: readonly string[];
  /** Metric whose coefficients drive selection stability. @default {"reward" if present, else the first metric} */
  readonly selectionMetric?: string;
  /** Active skill budget K for stability. @default {the first gate's budget_k} */
  readonly budgetK?: number;
  /**
   * Which interval goes into `ci`, in any case (`"BCa"`). `bca` also needs a
   * jackknife over tasks. The percentile interval is always reported as
   * `ci_percentile`.
   * @default {DEFAULTS.interval}
   */
  readonly interval?: IntervalType;
  /**
   * Columns whose variance is not estimable in the full-data fit of the
   * selection metric (lib/fit `varianceUndefinedColumns`): never selected in
   * the point selection or in any draw of the stability summary, as in
   * selection.json.
   * @default {[]}
   */
  readonly notEstimable?: readonly number[];
}

/** {@linkcode TaskBootstrapOptions} resolved against a dataset: every field present and checked. */
export interface ResolvedTaskBootstrapOptions extends ResolvedBootstrapOptions {
  readonly metrics: readonly string[];
  /** Null: no metric to summarise the selection's stability by. */
  readonly selectionMetric: string | null;
  readonly budgetK: number;
  readonly interval: IntervalType;
  /** See {@linkcode TaskBootstrapOptions}. */
  readonly notEstimable?: readonly number[];
}

/**
 * Fills in the defaults of {@linkcode TaskBootstrapOptions} (the draws and
 * seed through `resolveBootstrapOptions`) and checks them against the
 * dataset.
 *
 * @param dataset The paired dataset (its metrics and first gate's budget).
 * @param options As the caller gave them.
 * @returns The resolved options.
 * @throws {RangeError} On draws < 1, an unknown interval, a budget that is not
 *   a non-negative integer or a selection metric not among the metrics.
 *
 * @example
 * ```ts
 * import { resolveTaskBootstrapOptions } from "./task_bootstrap_options.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = { metrics: ["reward", "cost"], gates: [{ budget_k: 3 }] } as never;
 * const r = resolveTaskBootstrapOptions(dataset, { draws: 50, interval: "BCa" as never });
 * deepEqual([r.draws, r.seed, r.interval, r.selectionMetric, r.budgetK], [50, 20260927, "bca", "reward", 3]);
 * ```
 */
export function resolveTaskBootstrapOptions(
  dataset: Pick<PairedDataset, "metrics" | "gates">,
  options: TaskBootstrapOptions,
): ResolvedTaskBootstrapOptions {
  return taskBootstrapOptions(dataset, resolveBootstrapOptions(options), options);
}

/**
 * The task bootstrap's options from a bootstrap's already resolved ones
 * (`runAnalysis` resolves its draws once, 0 meaning none) and the task
 * bootstrap's own.
 *
 * @param dataset The paired dataset.
 * @param resolved Draws (at least 1), seed and progress, resolved.
 * @param options The task bootstrap's own options.
 * @returns The resolved options.
 * @throws {RangeError} As {@linkcode resolveTaskBootstrapOptions}.
 */
export function taskBootstrapOptions(
  dataset: Pick<PairedDataset, "metrics" | "gates">,
  resolved: ResolvedBootstrapOptions,
  options: Omit<TaskBootstrapOptions, keyof BootstrapOptions>,
): ResolvedTaskBootstrapOptions {
  const metrics = options.metrics ?? dataset.metrics;
  const interval = resolveConvention(
    "interval",
    INTERVAL_NAMES,
    options.interval,
    DEFAULTS.interval,
  );
  const selectionMetric = options.selectionMetric ??
    (metrics.includes("reward") ? "reward" : metrics[0] ?? null);
  const budgetK = options.budgetK ?? dataset.gates[0]?.budget_k ?? 0;
  if (!(Number.isInteger(budgetK) && budgetK >= 0)) {
    throw new RangeError(`Cannot bootstrap: budget K ${budgetK} is not a non-negative integer`);
  }
  if (selectionMetric !== null && !metrics.includes(selectionMetric)) {
    throw new RangeError(
      `Cannot bootstrap: selection metric "${selectionMetric}" is not among ${metrics.join(", ")}`,
    );
  }
  return {
    ...resolved,
    metrics,
    interval,
    selectionMetric,
    budgetK,
    ...(options.notEstimable === undefined ? {} : { notEstimable: options.notEstimable }),
  };
}
