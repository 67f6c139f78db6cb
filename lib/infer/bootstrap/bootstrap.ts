/**
 * Task bootstrap of a paired gate dataset: standard errors, percentile (and
 * optional BCa) intervals per coefficient and metric, degenerate-draw
 * accounting, and selection stability under the gate's rule.
 *
 * @module
 */
import { releaseMemory } from "../../core/release_memory.ts";
import type { IntervalType } from "../../core/conventions.ts";
import { lowerQuantileSorted, QUANTILE_RULE } from "../../math/quantile.ts";
import type { DesignColumn, PairedDataset } from "../../core/types.ts";
import { compileSelection } from "../../select/select.ts";
import { SELECTION_RULE } from "../../select/selection_rule.ts";
import { pointFit } from "../../fit/point.ts";
import { choleskyPacked, choleskySolvePacked, packedSize } from "../../math/packed.ts";
import { bcaInterval } from "./bca.ts";
import { drawSummaries, scalarDrawSummaries } from "./_wasm_summary.ts";
import { bootstrapKernel, type BootstrapKernelResult } from "./bootstrap_kernel.ts";
import { bootstrapResponses, type ClusterSums, datasetClusterSums } from "./cluster_sums.ts";
import { bootstrapKernelParallel, STREAM_LAYOUT } from "./bootstrap_parallel.ts";
import {
  type ResolvedTaskBootstrapOptions,
  resolveTaskBootstrapOptions,
  type TaskBootstrapOptions,
} from "./task_bootstrap_options.ts";

/** How degenerate draws are handled; recorded in every output. */
export const DEGENERATE_POLICY =
  "A draw where a column is never present leaves that coefficient missing (NaN) in that draw " +
  "and solves the others without it; a draw with a singular X'WX leaves every coefficient " +
  "missing. Missing values are counted per coefficient (draws_missing) and excluded from that " +
  "coefficient's se and interval; the selection-stability summaries use only draws where every " +
  "coefficient of the selection metric exists. No draw is redrawn or dropped silently.";

/** The documented draw order (see bootstrap_kernel.ts). */
export const DRAW_ORDER =
  "one stream createPrng(seed) (xoshiro128**, lib/math/prng.ts); draw d = 0..B-1 makes G calls " +
  "of nextInt(G), G = number of tasks in first-seen order; each call adds one to that task's count";

/** Bootstrap summary of one coefficient. */
export interface CoefficientBootstrap {
  /** Full-data coefficient. */
  readonly estimate: number;
  /** Standard deviation of the draws, ddof = 1; null with fewer than 2 draws. */
  readonly se_bootstrap: number | null;
  /** The interval chosen by `interval` (percentile or BCa). */
  readonly ci: [number, number] | null;
  /** Percentile interval (lower empirical quantiles of the draws). */
  readonly ci_percentile: [number, number] | null;
  /** BCa interval; present only with interval "bca" (null where undefined). */
  readonly ci_bca?: [number, number] | null;
  /** Mean of the draws minus the estimate. */
  readonly bias: number | null;
  /** Draws in which the coefficient was identified. */
  readonly draws_used: number;
  /** Draws left out: singular design or the column absent. */
  readonly draws_missing: number;
}

/** Per-version selection stability. */
export interface VersionStability {
  /** The version. */
  readonly version_id: string;
  /** Share of usable draws in which the version was selected. */
  readonly selected_frequency: number;
  /** Share of usable draws in which it lost its REWRITE family (no rank). */
  readonly rewrite_loser_frequency: number;
  /** Rank among survivors (1 = highest alpha): quantiles over draws where it survived. */
  readonly rank_median: number | null;
  /** 5th percentile of the rank over the draws where it survived. */
  readonly rank_p05: number | null;
  /** 95th percentile of the rank over the same draws. */
  readonly rank_p95: number | null;
  /** Share of usable draws with rank <= K (rewrite losers count as not). */
  readonly p_rank_within_k: number;
  /** Whether the full-data selection selected it. */
  readonly selected_point: boolean;
  /** Rank in the full-data selection; null when it did not survive. */
  readonly rank_point: number | null;
}

/** Selection stability across draws. */
export interface SelectionStability {
  /** Metric whose coefficients drive the selection. */
  readonly metric: string;
  /** Budget K of the selection. */
  readonly budget_k: number;
  /** The selection rule applied to each draw. */
  readonly rule: string;
  /** Draws with an identified design. */
  readonly draws_used: number;
  /** Draws left out (singular design). */
  readonly draws_excluded: number;
  /** Full-data selection, in rank order. */
  readonly point_selection: readonly string[];
  /** Share of usable draws whose selected set equals the point selection (as a set). */
  readonly set_equal_frequency: number;
  /** Mean Jaccard similarity of a draw's selected set with the point selection. */
  readonly mean_jaccard: number;
  /** Quantile rule of the rank percentiles. */
  readonly rank_quantiles: string;
  /** Stability of each version, in column order. */
  readonly versions: readonly VersionStability[];
}

/** The `bootstrap` block of contributions.json: a {@linkcode BootstrapResult} without its raw draws. */
export type BootstrapJson = Omit<BootstrapResult, "kernel" | "kernelMetrics" | "kernelVersions">;

/** Result of {@linkcode bootstrapDataset}: JSON-ready fields plus the raw draws in `kernel`. */
export interface BootstrapResult {
  /** Always the task (cluster) bootstrap. */
  readonly method: "task_bootstrap";
  /** What is resampled: tasks, with all their rows. */
  readonly resample_unit: string;
  /** Bootstrap draws requested. */
  readonly draws: number;
  /** Seed of the draws. */
  readonly seed: number;
  /** How draws consume the random stream. */
  readonly draw_order: string;
  /** How the draws are split over workers (the same result for any number of them). */
  readonly stream_layout: string;
  /** Which interval `ci` holds. */
  readonly interval: IntervalType;
  /** Lower and upper quantile levels of the intervals. */
  readonly interval_levels: readonly [number, number];
  /** Quantile rule of the percentile interval. */
  readonly quantile_rule: string;
  /** Degrees-of-freedom correction of se_bootstrap. */
  readonly se_ddof: 1;
  /** How BCa's bias and acceleration are computed; null without BCa. */
  readonly bca_method: string | null;
  /** Draws that could not identify every coefficient, and the policy for them. */
  readonly degenerate: {
    readonly policy: string;
    readonly singular_draws: number;
    readonly draws_with_absent_column: number;
    readonly absent_per_version: Readonly<Record<string, number>>;
  };
  /** Per metric, the bootstrap summary of each coefficient. */
  readonly metrics: Readonly<
    Record<string, { readonly coefficients: Readonly<Record<string, CoefficientBootstrap>> }>
  >;
  /** Selection stability; null when the selection metric is absent. */
  readonly stability: SelectionStability | null;
  /** Raw draws (not for JSON); `coefficients[(d * metrics + m) * k + j]`. */
  readonly kernel: BootstrapKernelResult;
  /** Metric order of `kernel`. */
  readonly kernelMetrics: readonly string[];
  /** Column (version id) order of `kernel`. */
  readonly kernelVersions: readonly string[];
}

/**
 * Runs the task bootstrap on a paired dataset: tasks (clusters) are drawn
 * with replacement and bring all their rows (pooled rounds), jointly with
 * their masks and deltas; each draw refits the no-intercept OLS for every
 * metric with one shared Cholesky.
 *
 * @param dataset A validated paired dataset.
 * @param options draws, seed, metrics, selectionMetric, budgetK, interval, onProgress.
 * @returns Summaries per metric and coefficient, degenerate counts, stability, raw draws.
 * @throws {RangeError} On a bad option (unknown metric, draws < 1, K < 0) or a
 *   singular full-data design.
 *
 * @example
 * ```ts
 * import { bootstrapDataset } from "./bootstrap.ts";
 * import { ok, deepEqual } from "node:assert/strict";
 * const n = 60, k = 2;
 * const design = Uint8Array.from({ length: n * k }, (_, i) => ((i * 7) % 3 === 0 ? 1 : 0));
 * const delta = Float64Array.from({ length: n }, (_, i) => design[i * 2]! * 0.3 + ((i * 13) % 5) / 50);
 * const dataset = {
 *   baseline: { run_id: "b", run_dir: "b", sha256: "" }, gates: [], n, k, design,
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const },
 *             { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" as const }],
 *   metrics: ["reward"], masked: { reward: delta }, bare: { reward: new Float64Array(n) }, delta: { reward: delta },
 *   episodes: [], gateIndex: new Uint16Array(n), cluster: Int32Array.from({ length: n }, (_, i) => i), clusterCount: n,
 * };
 * const result = bootstrapDataset(dataset, { draws: 200, seed: 1, budgetK: 1 });
 * const a = result.metrics.reward!.coefficients.a!;
 * ok(a.ci![0] < a.estimate && a.estimate < a.ci![1]);
 * deepEqual(result.stability!.point_selection, ["a"]);
 * ```
 */
export function bootstrapDataset(
  dataset: PairedDataset,
  options: TaskBootstrapOptions = {},
): BootstrapResult {
  return runTaskBootstrap(dataset, resolveTaskBootstrapOptions(dataset, options));
}

/** {@linkcode bootstrapDataset} on resolved options, on this thread. */
function runTaskBootstrap(
  dataset: PairedDataset,
  options: ResolvedTaskBootstrapOptions,
): BootstrapResult {
  const prep = prepareBootstrap(dataset, options);
  const kernel = bootstrapKernel(prep.sums, {
    draws: options.draws,
    seed: options.seed,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return finishBootstrap(dataset, options, prep, kernel);
}

/**
 * {@linkcode bootstrapDataset} with the draws split across Web Workers
 * (`workers` contiguous blocks of draws; each worker replays the one
 * stream up to its first draw), so the result is byte-identical to the
 * single-thread one for the same seed whatever the number of workers.
 *
 * @param dataset A validated paired dataset.
 * @param options As {@linkcode bootstrapDataset}, plus `workers` (1 = this thread).
 * @returns The same result as {@linkcode bootstrapDataset}.
 */
export async function bootstrapDatasetParallel(
  dataset: PairedDataset,
  options: TaskBootstrapOptions & { readonly workers: number },
): Promise<BootstrapResult> {
  return await bootstrapParallel(
    dataset,
    resolveTaskBootstrapOptions(dataset, options),
    options.workers,
  );
}

/** {@linkcode bootstrapDatasetParallel} on resolved options. */
async function bootstrapParallel(
  dataset: PairedDataset,
  options: ResolvedTaskBootstrapOptions,
  workers: number,
): Promise<BootstrapResult> {
  const prep = prepareBootstrap(dataset, options);
  // How many threads ran is not part of the result: the draws are the same bytes either way.
  const { threadsRun: _threads, ...kernel } = await bootstrapKernelParallel(prep.sums, {
    draws: options.draws,
    seed: options.seed,
    workers,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return finishBootstrap(dataset, options, prep, kernel);
}

/**
 * Rows x draws from which {@linkcode bootstrapDatasetOnCores} splits the
 * draws across Web Workers (one per core, at most 8): below it, starting
 * workers costs more than it saves. The result is byte-identical either way.
 */
export const PARALLEL_MIN_WORK = 2_000_000;

/**
 * {@linkcode bootstrapDataset} on the available cores: in Web Workers
 * (at most 8) when the work is at least {@linkcode PARALLEL_MIN_WORK} rows x
 * draws and more than one core is available, else on this thread. A worker
 * that cannot run has its draws computed on this thread, with a one-line
 * warning on stderr (lib/infer/bootstrap/bootstrap_parallel.ts). The result
 * is the same either way.
 *
 * @param dataset A validated paired dataset.
 * @param options As {@linkcode bootstrapDataset}.
 * @returns The bootstrap result.
 * @throws {RangeError} As {@linkcode bootstrapDataset}.
 *
 * @example Demo gate A, 50 draws
 * ```ts
 * import { bootstrapDatasetOnCores } from "./bootstrap.ts";
 * import { validateGates } from "../../validate/validate_gates.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { dataset } = await validateGates(["data/demo/ckpt-a/gate-a"]);
 * const r = await bootstrapDatasetOnCores(dataset!, { draws: 50, seed: 1, budgetK: 10, selectionMetric: "reward" });
 * const b = r.metrics["reward"]!.coefficients["query-formulation.v1"]!;
 * deepEqual([b.se_bootstrap!.toFixed(4), b.ci!.map((x) => x.toFixed(4))], ["0.0360", ["0.0376", "0.1728"]]);
 * deepEqual([r.draws, r.seed, r.stability!.draws_used], [50, 1, 50]);
 * ```
 */
export async function bootstrapDatasetOnCores(
  dataset: PairedDataset,
  options: TaskBootstrapOptions = {},
): Promise<BootstrapResult> {
  return await runTaskBootstrapOnCores(dataset, resolveTaskBootstrapOptions(dataset, options));
}

/**
 * {@linkcode bootstrapDatasetOnCores} on options already resolved at a door
 * (`runAnalysis`), passed down unchanged.
 *
 * @param dataset A validated paired dataset.
 * @param options Resolved by {@linkcode resolveTaskBootstrapOptions}.
 * @returns The bootstrap result.
 */
export async function runTaskBootstrapOnCores(
  dataset: PairedDataset,
  options: ResolvedTaskBootstrapOptions,
): Promise<BootstrapResult> {
  const workers = Math.min(8, navigator.hardwareConcurrency ?? 1);
  if (workers > 1 && dataset.n * options.draws >= PARALLEL_MIN_WORK) {
    return await bootstrapParallel(dataset, options, workers);
  }
  return runTaskBootstrap(dataset, options);
}

/** The full-data fit and per-task sums every draw starts from. */
interface PreparedBootstrap {
  readonly sums: ClusterSums;
  readonly point: Float64Array;
  readonly tolerances: Float64Array;
}

function prepareBootstrap(
  dataset: PairedDataset,
  options: ResolvedTaskBootstrapOptions,
): PreparedBootstrap {
  // An unknown metric refused first, as the sums refuse it. Then the point estimates, their
  // factorisation of the design (about 400 MB at 1,000,000 rows and 16 columns, which met the
  // sums and the kernels' memory at the peak) collected before the sums are built.
  bootstrapResponses(dataset, options.metrics);
  const { coefficients: point, tolerances } = pointEstimates(dataset, options.metrics);
  releaseMemory(dataset.n);
  const sums = datasetClusterSums(dataset, options.metrics);
  return { sums, point, tolerances };
}

function finishBootstrap(
  dataset: PairedDataset,
  options: ResolvedTaskBootstrapOptions,
  prep: PreparedBootstrap,
  kernel: BootstrapKernelResult,
): BootstrapResult {
  const { draws, metrics, interval, selectionMetric, budgetK } = options;
  const { sums, point, tolerances } = prep;
  const { k } = sums;
  const m = metrics.length;
  const jackknife = interval === "bca" ? jackknifeEstimates(sums) : null;

  const ids = dataset.columns.map((c) => c.version_id);
  const absentPerVersion: Record<string, number> = {};
  let singular = 0, withAbsent = 0;
  for (let d = 0; d < draws; d++) {
    if (kernel.status[d] === 2) singular++;
    if (kernel.status[d] === 1) withAbsent++;
  }
  const metricsOut: Record<string, { coefficients: Record<string, CoefficientBootstrap> }> = {};
  // The gather, sort and squares in WebAssembly when the runtime has it (same bits).
  const summaries = drawSummaries(kernel.coefficients, draws, m * k) ??
    scalarDrawSummaries(kernel.coefficients, draws, m * k);
  for (let mm = 0; mm < m; mm++) {
    const coefficients: Record<string, CoefficientBootstrap> = {};
    for (let j = 0; j < k; j++) {
      const { sorted, sum } = summaries.column(mm * k + j);
      const used = sorted.length;
      if (mm === 0 && kernel.status.some((s) => s === 1)) {
        let absent = 0;
        for (let d = 0; d < draws; d++) {
          if (kernel.status[d] === 1 && Number.isNaN(kernel.coefficients[(d * m) * k + j]!)) {
            absent++;
          }
        }
        absentPerVersion[ids[j]!] = absent;
      }
      const mean = used > 0 ? sum / used : NaN;
      const ss = summaries.squares(mean);
      const estimate = point[mm * k + j]!;
      const percentile: [number, number] | null = used > 0
        ? [lowerQuantileSorted(sorted, 0.025), lowerQuantileSorted(sorted, 0.975)]
        : null;
      let bca: [number, number] | null = null;
      if (jackknife) {
        const jk = new Float64Array(sums.clusterCount);
        let ok = true;
        for (let g = 0; g < sums.clusterCount; g++) {
          const v = jackknife[(g * m + mm) * k + j]!;
          if (Number.isNaN(v)) ok = false;
          jk[g] = v;
        }
        bca = ok ? bcaInterval(sorted, estimate, jk) : null;
      }
      coefficients[ids[j]!] = {
        estimate,
        se_bootstrap: used >= 2 ? Math.sqrt(ss / (used - 1)) : null,
        ci: interval === "bca" ? bca : percentile,
        ci_percentile: percentile,
        ...(interval === "bca" ? { ci_bca: bca } : {}),
        bias: used > 0 ? mean - estimate : null,
        draws_used: used,
        draws_missing: draws - used,
      };
    }
    metricsOut[metrics[mm]!] = { coefficients };
  }
  const stability = selectionMetric === null ? null : selectionStability(
    dataset.columns,
    kernel,
    metrics.indexOf(selectionMetric),
    point.subarray(
      metrics.indexOf(selectionMetric) * k,
      (metrics.indexOf(selectionMetric) + 1) * k,
    ),
    {
      metric: selectionMetric,
      budgetK,
      tolerance: tolerances[metrics.indexOf(selectionMetric)]!,
      ...(options.notEstimable === undefined ? {} : { notEstimable: options.notEstimable }),
    },
  );
  return {
    method: "task_bootstrap",
    resample_unit: "task (split, task_id), with replacement; a drawn task brings all its rows " +
      "(every pooled round) with their masks C, masked R and bare B",
    draws,
    seed: options.seed,
    draw_order: DRAW_ORDER,
    stream_layout: STREAM_LAYOUT,
    interval,
    interval_levels: [0.025, 0.975],
    quantile_rule: QUANTILE_RULE,
    se_ddof: 1,
    bca_method: interval === "bca"
      ? "BCa (Efron 1987): z0 = Phi^-1(share of draws below the estimate); acceleration from a " +
        "leave-one-task-out jackknife; adjusted levels read with the same quantile rule"
      : null,
    degenerate: {
      policy: DEGENERATE_POLICY,
      singular_draws: singular,
      draws_with_absent_column: withAbsent,
      absent_per_version: absentPerVersion,
    },
    metrics: metricsOut,
    stability,
    kernel,
    kernelMetrics: metrics,
    kernelVersions: ids,
  };
}

/**
 * The draws of one coefficient (NaN where degenerate), e.g. for a histogram
 * in a notebook.
 *
 * @param result A bootstrap result.
 * @param metric Metric name.
 * @param versionId Version id of the column.
 * @returns A new Float64Array of length `result.draws`.
 * @throws {RangeError} If the metric or version is unknown.
 *
 * @example
 * ```ts
 * import { bootstrapDataset, coefficientDraws } from "./bootstrap.ts";
 * import { deepEqual } from "node:assert/strict";
 * const n = 40, y = Float64Array.from({ length: n }, (_, i) => (i % 5) / 10);
 * const d = { baseline: { run_id: "b", run_dir: "b", sha256: "" }, gates: [], n, k: 1, design: new Uint8Array(n).fill(1),
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const }], metrics: ["reward"],
 *   masked: { reward: y }, bare: { reward: new Float64Array(n) }, delta: { reward: y }, episodes: [],
 *   gateIndex: new Uint16Array(n), cluster: Int32Array.from({ length: n }, (_, i) => i), clusterCount: n };
 * const r = bootstrapDataset(d, { draws: 30, seed: 1 });
 * deepEqual(coefficientDraws(r, "reward", "a").length, 30);
 * ```
 */
export function coefficientDraws(
  result: BootstrapResult,
  metric: string,
  versionId: string,
): Float64Array {
  const m = result.kernelMetrics.indexOf(metric);
  const j = result.kernelVersions.indexOf(versionId);
  if (m < 0 || j < 0) {
    throw new RangeError(`Cannot read draws: no coefficient "${versionId}" of metric "${metric}"`);
  }
  const { k, metricCount, draws, coefficients } = result.kernel;
  const out = new Float64Array(draws);
  for (let d = 0; d < draws; d++) out[d] = coefficients[(d * metricCount + m) * k + j]!;
  return out;
}

/** The JSON-ready part of a {@linkcode BootstrapResult} (drops the raw draws). */
export function bootstrapToJson(result: BootstrapResult): BootstrapJson {
  const { kernel: _kernel, kernelMetrics: _metrics, kernelVersions: _versions, ...rest } = result;
  return rest;
}

/**
 * Full-data OLS coefficients of every metric (metric-major, `m * k`) and
 * each solve's tie tolerance, from the core factorisation (lib/fit), so
 * they equal contributions.json's estimates to the last bit.
 *
 * @throws {RangeError} If the full design is rank deficient (a column never present included).
 */
export function pointEstimates(
  dataset: PairedDataset,
  metrics: readonly string[],
): { coefficients: Float64Array; tolerances: Float64Array } {
  const fit = pointFit(
    dataset.design,
    [dataset.n, dataset.k],
    metrics.map((m) => dataset.delta[m]!),
  );
  if (!fit) {
    throw new RangeError(
      "Cannot estimate coefficients: the design is rank deficient (or a column is never present)",
    );
  }
  return fit;
}

/**
 * Leave-one-task-out coefficients: entry `(g * m + metric) * k + j` is the
 * estimate without task g (NaN where that fit is degenerate).
 */
export function jackknifeEstimates(sums: ClusterSums): Float64Array {
  const { k, metricCount: m, clusterCount: g } = sums;
  const p = packedSize(k);
  const out = new Float64Array(g * m * k);
  const xtx = new Float64Array(p);
  const absent = new Uint8Array(k);
  for (let c = 0; c < g; c++) {
    xtx.set(sums.xtx);
    for (let e = sums.pairStart[c]!; e < sums.pairStart[c + 1]!; e++) {
      xtx[sums.pairIndex[e]!] = xtx[sums.pairIndex[e]!]! - sums.pairValue[e]!;
    }
    const base = c * m * k;
    for (let mm = 0; mm < m; mm++) {
      for (let j = 0; j < k; j++) out[base + mm * k + j] = sums.xty[mm * k + j]!;
    }
    for (let e = sums.colStart[c]!; e < sums.colStart[c + 1]!; e++) {
      const j = sums.colIndex[e]!;
      for (let mm = 0; mm < m; mm++) {
        out[base + mm * k + j] = out[base + mm * k + j]! - sums.colValue[e * m + mm]!;
      }
    }
    if (!choleskyPacked(xtx, k, absent)) {
      out.fill(NaN, base, base + m * k);
      continue;
    }
    for (let mm = 0; mm < m; mm++) choleskySolvePacked(xtx, k, absent, out, base + mm * k);
  }
  return out;
}

/**
 * Selection stability of one metric's draws under the gate's rule
 * (lib/select `compileSelection`).
 *
 * @param columns Design columns.
 * @param kernel Raw bootstrap draws.
 * @param metricIndex Index of the selection metric in the kernel's metrics.
 * @param point Full-data coefficients of that metric.
 * @param options metric name, budget K, and the tie tolerance of the full-data solve (lib/fit
 *   `coefficientTolerance`; default 0, exact comparisons), used for the point and every draw.
 * @returns Frequencies, rank distributions and set agreement.
 */
export function selectionStability(
  columns: readonly DesignColumn[],
  kernel: BootstrapKernelResult,
  metricIndex: number,
  point: ArrayLike<number>,
  options: {
    readonly metric: string;
    readonly budgetK: number;
    readonly tolerance?: number;
    /** Columns never selected (not estimable in the full data), in the point and every draw. */
    readonly notEstimable?: readonly number[];
  },
): SelectionStability {
  const { k, metricCount: m, draws } = kernel;
  const { budgetK } = options;
  const rule = compileSelection(columns, {
    tolerance: options.tolerance ?? 0,
    ...(options.notEstimable === undefined ? {} : { notEstimable: options.notEstimable }),
  });
  const notEstimable = new Set(options.notEstimable ?? []);
  const ranks = new Int32Array(k), order = new Int32Array(k);
  const pointSel = rule.rank(point, budgetK, ranks, order);
  const pointRanks = Int32Array.from(ranks);
  const pointSet = new Uint8Array(k);
  for (let r = 0; r < pointSel.selected; r++) pointSet[order[r]!] = 1;
  const pointSelection = Array.from(
    order.subarray(0, pointSel.selected),
    (j) => columns[j]!.version_id,
  );

  const selectedCount = new Int32Array(k),
    loserCount = new Int32Array(k),
    withinK = new Int32Array(k);
  const rankDraws: Int32Array[] = Array.from({ length: k }, () => new Int32Array(draws));
  const rankUsed = new Int32Array(k);
  const alpha = new Float64Array(k);
  let used = 0, setEqual = 0, jaccardSum = 0;
  for (let d = 0; d < draws; d++) {
    const base = (d * m + metricIndex) * k;
    let ok = true;
    for (let j = 0; j < k; j++) {
      const v = kernel.coefficients[base + j]!;
      if (Number.isNaN(v)) ok = false;
      alpha[j] = v;
    }
    if (!ok) continue;
    used++;
    const { selected } = rule.rank(alpha, budgetK, ranks, order);
    let inter = 0;
    for (let r = 0; r < selected; r++) {
      const j = order[r]!;
      selectedCount[j] = selectedCount[j]! + 1;
      if (pointSet[j]) inter++;
    }
    const union = selected + pointSel.selected - inter;
    if (inter === selected && inter === pointSel.selected) setEqual++;
    jaccardSum += union === 0 ? 1 : inter / union;
    for (let j = 0; j < k; j++) {
      const r = ranks[j]!;
      if (r === 0) {
        // Unranked: a REWRITE loser, unless never ranked at all (not estimable).
        if (!notEstimable.has(j)) loserCount[j] = loserCount[j]! + 1;
        continue;
      }
      rankDraws[j]![rankUsed[j]!] = r;
      rankUsed[j] = rankUsed[j]! + 1;
      if (r <= budgetK) withinK[j] = withinK[j]! + 1;
    }
  }
  const share = (x: number) => (used > 0 ? x / used : NaN);
  const versions = columns.map((c, j): VersionStability => {
    const sorted = rankDraws[j]!.subarray(0, rankUsed[j]!).sort();
    const q = (p: number) => (sorted.length > 0 ? lowerQuantileSorted(sorted, p) : null);
    return {
      version_id: c.version_id,
      selected_frequency: share(selectedCount[j]!),
      rewrite_loser_frequency: share(loserCount[j]!),
      rank_median: q(0.5),
      rank_p05: q(0.05),
      rank_p95: q(0.95),
      p_rank_within_k: share(withinK[j]!),
      selected_point: pointSet[j] === 1,
      rank_point: pointRanks[j] === 0 ? null : pointRanks[j]!,
    };
  });
  return {
    metric: options.metric,
    budget_k: budgetK,
    rule: SELECTION_RULE,
    draws_used: used,
    draws_excluded: draws - used,
    point_selection: pointSelection,
    set_equal_frequency: share(setEqual),
    mean_jaccard: share(jaccardSum),
    rank_quantiles:
      `p05, median, p95 of the rank over draws where the version survived, ${QUANTILE_RULE}`,
    versions,
  };
}
