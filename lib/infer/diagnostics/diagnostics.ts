/**
 * Misfit diagnostics of the additive paired-delta model: AMCE beside each
 * coefficient, a pairwise interaction screen with HC3 Wald F tests and a
 * Holm correction, and residuals against the number of chunks present.
 *
 * Under interactions the OLS coefficient is not the average marginal
 * effect of a version under the random mask distribution; these numbers
 * show when that matters.
 *
 * @module
 */
import { releaseMemory } from "../../core/release_memory.ts";
import type { PairedDataset } from "../../core/types.ts";
import { clusterCovariance } from "../../fit/covariance.ts";
import { type DesignFactorization, factorDesign, solveLeastSquares } from "../../fit/factor.ts";
import { planProductColumns, productColumnTests } from "../../fit/product_column.ts";
import { JOINT_WALD_STEPS, jointWald } from "./joint_wald.ts";
import type { ProgressCallback } from "../../core/progress.ts";
import { fSurvival } from "../../math/distributions.ts";
import { rowsMean, rowsSampleVariance } from "./group_moments.ts";
import { DEFAULTS } from "../../core/defaults.ts";

/** AMCE of one version beside its coefficient. */
export interface AmceRow {
  /** The version. */
  readonly version_id: string;
  /** Its OLS coefficient (contributions.json's estimate). */
  readonly beta: number;
  /** mean delta with the version present minus mean delta with its slot absent. */
  readonly amce: number | null;
  /**
   * Standard error of the AMCE: Welch sqrt(s1^2/n1 + s0^2/n0) (ddof 1) when every task has one
   * row; CR1 clustered by task when rows are pooled (several rows per task).
   */
  readonly amce_se: number | null;
  /** beta - amce. */
  readonly gap: number | null;
  /** Rows with the version present. */
  readonly n_present: number;
  /** Rows with its slot absent (no version of the slot present). */
  readonly n_slot_absent: number;
}

/** One pair of the interaction screen. */
export interface InteractionPair {
  /** First version of the pair. */
  readonly a: string;
  /** Second version of the pair. */
  readonly b: string;
  /** Rows with both present. */
  readonly n_both: number;
  /** False when the product column cannot be estimated (too few rows with both, or collinear). */
  readonly testable: boolean;
  /** Coefficient of the product column in y = C beta + gamma (C_a C_b). */
  readonly gamma: number | null;
  /** Standard error of gamma under the screen's covariance (HC3 or CR1). */
  readonly se: number | null;
  /** Wald F = gamma^2 / Var(gamma), df (1, df2). */
  readonly f: number | null;
  /** p-value of f; null when not testable. */
  readonly p_value: number | null;
  /** Holm-adjusted p-value over the testable pairs. */
  readonly p_holm: number | null;
  /** True when p_holm is below alpha. */
  readonly flagged: boolean;
}

/** Joint Wald test of all testable products at once. */
export interface JointInteractionTest {
  /** Testable pairs in the joint test. */
  readonly pairs: number;
  /** Wald F statistic. */
  readonly f: number;
  /** Numerator degrees of freedom (the number of pairs). */
  readonly df1: number;
  /** Denominator degrees of freedom (see df2_rule). */
  readonly df2: number;
  /** p-value of f. */
  readonly p_value: number;
}

/** Result of {@linkcode interactionScreen}. */
export interface InteractionScreen {
  /** Metric screened. */
  readonly metric: string;
  /** Covariance of the Wald tests: HC3, or CR1 clustered by task when rows are pooled. */
  readonly covariance: "HC3" | "CR1";
  /** Denominator degrees of freedom: n - columns (HC3) or clusters - 1 (CR1). */
  readonly df2_rule: string;
  /** The test, in words. */
  readonly test: string;
  /** Multiplicity correction of the pairwise p-values. */
  readonly correction: "holm";
  /** Level of the Holm-adjusted p-values. */
  readonly alpha: number;
  /** Every pair of versions that can co-occur, in column order. */
  readonly pairs: readonly InteractionPair[];
  /** null when the joint model has no residual degrees of freedom or is singular. */
  readonly joint: JointInteractionTest | null;
  /** Flagged pairs as `a x b`, smallest adjusted p first. */
  readonly flagged: readonly string[];
}

/** Residual summary for one number of chunks present. */
export interface ResidualByCount {
  /** Number of chunks present in the row. */
  readonly count: number;
  /** Rows with that count. */
  readonly n: number;
  /** Mean residual of those rows. */
  readonly mean: number;
  /** Standard deviation, ddof 1; null for n < 2. */
  readonly sd: number | null;
}

function metricColumn(dataset: PairedDataset, metric: string): Float64Array {
  const y = dataset.delta[metric];
  if (!y) {
    throw new RangeError(
      `Cannot diagnose metric "${metric}": the dataset has ${dataset.metrics.join(", ")}`,
    );
  }
  return y;
}

/** The main-effects fit every diagnostic reuses: one factorisation, one solve. */
interface MainFit {
  readonly factor: DesignFactorization;
  readonly coefficients: Float64Array;
  readonly residuals: Float64Array;
}

const MAIN_FITS = new WeakMap<PairedDataset, Map<string, MainFit>>();
const FACTORS = new WeakMap<PairedDataset, DesignFactorization>();

/**
 * Lets the diagnostics of `dataset` reuse a main-effects fit its caller has
 * already made (gate analyze fits every metric before the diagnostics), so
 * the design is factorised once and each metric solved once. The fit must be
 * the one the diagnostics would make: `factor` from `factorDesign(design,
 * [n, k])` with the default options, `coefficients` from
 * `solveLeastSquares(factor, delta[metric])` and `residuals` y_i - x_i'b
 * summed over j ascending (as lib/fit `fitOls` computes them).
 *
 * @param dataset The dataset the fit belongs to.
 * @param metric The metric fitted.
 * @param fit The factorisation, coefficients and residuals.
 *
 * @example The AMCE table then reads the given coefficients
 * ```ts
 * import { amceTable, shareMainFit } from "./diagnostics.ts";
 * import { factorDesign } from "../../fit/factor.ts";
 * import { fitOls } from "../../fit/ols.ts";
 * import { deepEqual } from "node:assert/strict";
 * const design = Uint8Array.from([1, 0, 0, 1, 1, 1, 0, 0]);
 * const y = Float64Array.from([0.2, 0.1, 0.3, 0]);
 * const d = { n: 4, k: 2, design, delta: { reward: y }, metrics: ["reward"], clusterCount: 4,
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const },
 *             { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" as const }] };
 * const factor = factorDesign(design, [4, 2]);
 * const fit = fitOls(factor, y);
 * shareMainFit(d as never, "reward", { factor, coefficients: fit.coefficients, residuals: fit.residuals });
 * deepEqual(amceTable(d as never).map((r) => r.beta), [...fit.coefficients]);
 * ```
 */
export function shareMainFit(
  dataset: PairedDataset,
  metric: string,
  fit: {
    readonly factor: DesignFactorization;
    readonly coefficients: Float64Array;
    readonly residuals: Float64Array;
  },
): void {
  const { factor, coefficients, residuals } = fit;
  if (factor.n !== dataset.n || factor.k !== dataset.k || residuals.length !== dataset.n) {
    throw new RangeError(
      `Cannot share the fit: ${factor.n} x ${factor.k} does not match the dataset's ${dataset.n} x ${dataset.k}`,
    );
  }
  FACTORS.set(dataset, factor);
  const byMetric = MAIN_FITS.get(dataset) ?? new Map<string, MainFit>();
  byMetric.set(metric, { factor, coefficients, residuals });
  MAIN_FITS.set(dataset, byMetric);
}

/**
 * Drops the main-effects fits, the factorisation and the AMCE groups kept
 * for `dataset` (by {@linkcode shareMainFit} or a diagnostic). They are kept
 * as long as the dataset lives; `runAnalysis` (lib/analyze) is done with
 * them once its diagnostics are made, and the bootstrap allocates after it:
 * at 1,000,000 rows and 16 columns the factorisation alone (the design, its
 * Householder vectors and the influence columns) holds about 390 MB, and the
 * AMCE groups (each column's rows with it present and with its slot empty)
 * about 62 MB. A later diagnostic of the dataset makes them again, with the
 * same result.
 *
 * @param dataset The dataset.
 *
 * @example
 * ```ts
 * import { amceTable, forgetMainFits } from "./diagnostics.ts";
 * import { deepEqual } from "node:assert/strict";
 * const d = { n: 4, k: 2, design: Uint8Array.of(1, 0, 0, 1, 1, 1, 1, 0), metrics: ["reward"],
 *   delta: { reward: Float64Array.of(1, 2, 3, 1.5) },
 *   columns: ["a", "b"].map((v) => ({ version_id: v, slot_id: v, chunk_id: v, role: "add" as const })) };
 * const before = amceTable(d as never);
 * forgetMainFits(d as never);
 * deepEqual(amceTable(d as never), before);
 * ```
 */
export function forgetMainFits(dataset: PairedDataset): void {
  MAIN_FITS.delete(dataset);
  FACTORS.delete(dataset);
  AMCE_GROUPS.delete(dataset);
}

/**
 * Drops the AMCE groups kept for `dataset` (each column's rows with it present and with its
 * slot empty, about 62 MB at 1,000,000 rows and 16 columns): `runAnalysis` (lib/analyze) is
 * done with them once every metric's AMCE is made, before the diagnostics allocate theirs. A
 * later AMCE of the dataset makes them again, with the same result.
 *
 * @param dataset The dataset.
 */
export function forgetAmceGroups(dataset: PairedDataset): void {
  AMCE_GROUPS.delete(dataset);
}

function mainFit(dataset: PairedDataset, metric: string): MainFit {
  const cached = MAIN_FITS.get(dataset)?.get(metric);
  if (cached) return cached;
  let factor = FACTORS.get(dataset);
  if (!factor) {
    try {
      factor = factorDesign(dataset.design, [dataset.n, dataset.k]);
    } catch {
      throw new RangeError("Cannot diagnose: the design is rank deficient");
    }
    FACTORS.set(dataset, factor);
  }
  const y = metricColumn(dataset, metric);
  const coefficients = solveLeastSquares(factor, y);
  const { n, k, x } = factor;
  const residuals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let fitted = 0;
    for (let j = 0; j < k; j++) fitted += x[i * k + j]! * coefficients[j]!;
    residuals[i] = y[i]! - fitted;
  }
  const fit = { factor, coefficients, residuals };
  const byMetric = MAIN_FITS.get(dataset) ?? new Map<string, MainFit>();
  byMetric.set(metric, fit);
  MAIN_FITS.set(dataset, byMetric);
  return fit;
}

/**
 * AMCE of every version beside its OLS coefficient. A version's AMCE is
 * the mean delta over rows where it is present minus the mean delta over
 * rows where its slot is absent (no version of the slot present); for a
 * plain chunk that is present against absent. Rows of pooled rounds count
 * as rows in the means; the standard error is Welch's when every task has
 * one row and CR1 clustered by task when rows are pooled (rows of one task
 * share a bare run, so they are not independent).
 *
 * @param dataset Paired dataset.
 * @param options metric (default "reward" or the first metric).
 * @returns One row per column, in column order.
 *
 * @example
 * ```ts
 * import { amceTable } from "./diagnostics.ts";
 * import { ok } from "node:assert/strict";
 * const design = Uint8Array.from([1, 0, 0, 1, 1, 1, 0, 0]);
 * const y = Float64Array.from([0.2, 0.1, 0.3, 0]);
 * const d = { n: 4, k: 2, design, delta: { reward: y }, metrics: ["reward"],
 *   columns: [{ version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const },
 *             { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" as const }] };
 * const rows = amceTable(d as never);
 * ok(Math.abs(rows[0]!.amce! - (0.25 - 0.05)) < 1e-12);
 * ```
 */
export function amceTable(
  dataset: PairedDataset,
  options: { readonly metric?: string } = {},
): AmceRow[] {
  const metric = options.metric ?? defaultMetric(dataset);
  const y = metricColumn(dataset, metric);
  const { n, columns } = dataset;
  const fit = mainFit(dataset, metric);
  const groups = amceGroups(dataset);
  const pooled = dataset.clusterCount < n;
  return columns.map((c, j) => {
    const group = groups[j]!;
    const n1 = group.present.length, n0 = group.absent.length;
    const beta = fit.coefficients[j]!;
    if (n1 === 0 || n0 === 0) {
      return {
        version_id: c.version_id,
        beta,
        amce: null,
        amce_se: null,
        gap: null,
        n_present: n1,
        n_slot_absent: n0,
      };
    }
    // simple-statistics' mean and sampleVariance, read at the rows in place (same bits).
    const m1 = rowsMean(y, group.present), m0 = rowsMean(y, group.absent);
    let se: number;
    if (pooled) {
      se = clusteredDifferenceSe(dataset, group, y);
    } else {
      // Sample variances, ddof 1 (simple-statistics: two-pass, no sum-of-squares cancellation).
      const v1 = n1 > 1 ? rowsSampleVariance(y, group.present, m1) : NaN;
      const v0 = n0 > 1 ? rowsSampleVariance(y, group.absent, m0) : NaN;
      se = Math.sqrt(v1 / n1 + v0 / n0);
    }
    const amce = m1 - m0;
    return {
      version_id: c.version_id,
      beta,
      amce,
      amce_se: Number.isFinite(se) ? se : null,
      gap: beta - amce,
      n_present: n1,
      n_slot_absent: n0,
    };
  });
}

/**
 * The rows of one column's two AMCE groups, which depend on the design
 * alone and so serve every metric; for pooled rows also the design of the
 * clustered difference (see {@linkcode clusteredDifferenceSe}), made when
 * first needed.
 */
interface AmceGroup {
  /** Rows with the column present (its entry is 1), ascending. */
  readonly present: Int32Array;
  /** Rows with no column of its slot nonzero, ascending. */
  readonly absent: Int32Array;
  /** The clustered difference's design, once made. */
  difference?: ClusteredDifference;
}

const AMCE_GROUPS = new WeakMap<PairedDataset, AmceGroup[]>();

const PRESENT = 1, SLOT_ABSENT = 2;

/**
 * code[j] for the row at design[row..row+k): PRESENT when its entry is 1, SLOT_ABSENT when no
 * column of its slot is nonzero, else 0.
 */
function rowGroups(
  design: ArrayLike<number>,
  row: number,
  k: number,
  slotOf: Int32Array,
  occupied: Uint8Array,
  code: Uint8Array,
): void {
  occupied.fill(0);
  for (let j = 0; j < k; j++) if (design[row + j] !== 0) occupied[slotOf[j]!] = 1;
  for (let j = 0; j < k; j++) {
    code[j] = design[row + j] === 1 ? PRESENT : occupied[slotOf[j]!] === 0 ? SLOT_ABSENT : 0;
  }
}

/** Every column's AMCE groups, in column order (two passes over the rows). */
function amceGroups(dataset: PairedDataset): AmceGroup[] {
  const cached = AMCE_GROUPS.get(dataset);
  if (cached) return cached;
  const { n, k, design, columns } = dataset;
  const slotIndex = new Map<string, number>();
  const slotOf = new Int32Array(k);
  columns.forEach((c, j) => {
    if (!slotIndex.has(c.slot_id)) slotIndex.set(c.slot_id, slotIndex.size);
    slotOf[j] = slotIndex.get(c.slot_id)!;
  });
  const slots = slotIndex.size;
  // Each row's group of every column (rowGroups), counted in one pass over the rows and listed
  // in a second (rows ascending in every list).
  const occupied = new Uint8Array(slots), code = new Uint8Array(k);
  const present = new Int32Array(k), absent = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    rowGroups(design, i * k, k, slotOf, occupied, code);
    for (let j = 0; j < k; j++) {
      if (code[j] === PRESENT) present[j]!++;
      else if (code[j] === SLOT_ABSENT) absent[j]!++;
    }
  }
  const groups = columns.map((_, j): AmceGroup => ({
    present: new Int32Array(present[j]!),
    absent: new Int32Array(absent[j]!),
  }));
  present.fill(0);
  absent.fill(0);
  for (let i = 0; i < n; i++) {
    rowGroups(design, i * k, k, slotOf, occupied, code);
    for (let j = 0; j < k; j++) {
      if (code[j] === PRESENT) groups[j]!.present[present[j]!++] = i;
      else if (code[j] === SLOT_ABSENT) groups[j]!.absent[absent[j]!++] = i;
    }
  }
  AMCE_GROUPS.set(dataset, groups);
  return groups;
}

/** values[rows[t]] for every t. */
function gather(values: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length);
  for (let t = 0; t < rows.length; t++) out[t] = values[rows[t]!]!;
  return out;
}

/** The design of one column's clustered difference: the rows of either group, ascending. */
interface ClusteredDifference {
  /** The rows of either group, ascending. */
  readonly rows: Int32Array;
  /** [present, slot absent] of each of those rows, row-major r x 2. */
  readonly x: Uint8Array;
  /** The task of each row, renumbered 0.. in order of first appearance. */
  readonly groups: Int32Array;
  /** Number of tasks. */
  readonly clusters: number;
  /** Factorisation of x. */
  readonly factor: DesignFactorization;
}

function clusteredDifference(dataset: PairedDataset, group: AmceGroup): ClusteredDifference {
  if (group.difference) return group.difference;
  const { present, absent } = group;
  const { cluster } = dataset;
  const r = present.length + absent.length;
  const rows = new Int32Array(r);
  const x = new Uint8Array(r * 2), groups = new Int32Array(r);
  const remap = new Map<number, number>();
  let a = 0, b = 0;
  for (let t = 0; t < r; t++) {
    const fromPresent = b >= absent.length || (a < present.length && present[a]! < absent[b]!);
    const i = fromPresent ? present[a++]! : absent[b++]!;
    rows[t] = i;
    x[t * 2 + (fromPresent ? 0 : 1)] = 1;
    const g = cluster[i]!;
    if (!remap.has(g)) remap.set(g, remap.size);
    groups[t] = remap.get(g)!;
  }
  const factor = factorDesign(x, [r, 2]);
  group.difference = { rows, x, groups, clusters: remap.size, factor };
  return group.difference;
}

/**
 * CR1 standard error of a difference of two group means when rows are
 * clustered by task: the no-intercept OLS of y on [present, slot absent]
 * over the rows of either group (its coefficients are the two means),
 * clustered by task with the core's CR1 (G/(G-1) x (N-1)/(N-2)), and
 * Var(m1 - m0) = V11 + V00 - 2 V10. NaN when it is undefined (fewer than two
 * tasks, or no residual degrees of freedom).
 */
function clusteredDifferenceSe(
  dataset: PairedDataset,
  group: AmceGroup,
  y: Float64Array,
): number {
  const { rows, x, groups, clusters, factor: f } = clusteredDifference(dataset, group);
  const ys = gather(y, rows);
  const b = solveLeastSquares(f, ys);
  const e = ys.map((v, t) => v - x[t * 2]! * b[0]! - x[t * 2 + 1]! * b[1]!);
  const v = clusterCovariance(f, e, groups, clusters);
  return Math.sqrt(v[0]! + v[3]! - 2 * v[1]!);
}

/**
 * Holm step-down adjusted p-values (Holm 1979): sort ascending,
 * p_(i) * (m - i + 1), running maximum, capped at 1.
 *
 * @example
 * ```ts
 * import { holmAdjust } from "./diagnostics.ts";
 * import { deepEqual } from "node:assert/strict";
 * // statsmodels multipletests([0.01, 0.04, 0.03], method="holm")[1] = [0.03, 0.06, 0.06]
 * deepEqual(holmAdjust([0.01, 0.04, 0.03]).map((p) => Number(p.toFixed(12))), [0.03, 0.06, 0.06]);
 * ```
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]!);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach((i, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[i]!));
    out[i] = running;
  });
  return out;
}

/**
 * Interaction screen: for every pair of columns in different slots, refit
 * the paired-delta OLS with the pair's product column added and test its
 * coefficient with a Wald F test (df 1, df2); Holm-adjust over the testable
 * pairs and flag those with adjusted p below `alpha`. Then one joint Wald F
 * test of all testable products at once (df q, df2). The covariance is HC3
 * (df2 = n - columns) for one row per task, and CR1 clustered by task
 * (df2 = tasks - 1, as statsmodels `cov_type="cluster"`) when rounds are
 * pooled (rows of one task share a bare run). A pair is not testable when
 * it never co-occurs or the augmented design is singular.
 *
 * @param dataset Paired dataset.
 * @param options metric, alpha, covariance (see {@linkcode InteractionScreenOptions}).
 * @returns Per-pair tests, the joint test and the flagged pairs.
 */
export function interactionScreen(
  dataset: PairedDataset,
  options: InteractionScreenOptions = {},
): InteractionScreen {
  const metric = options.metric ?? defaultMetric(dataset);
  const alpha = options.alpha ?? DEFAULTS.alpha;
  const covariance = screenCovariance(dataset, options.covariance ?? "auto");
  const step = screenSteps(options.onProgress);
  const main = mainFit(dataset, metric);
  step();
  const { k, columns } = dataset;
  const tests = planProductColumns(
    main.factor,
    main.residuals,
    covariance === "HC3"
      ? { type: "hc3" }
      : { type: "cr1", cluster: dataset.cluster, clusterCount: dataset.clusterCount },
  );
  const raw: {
    a: number;
    b: number;
    nBoth: number;
    gamma: number;
    se: number;
    f: number;
    pv: number;
    ok: boolean;
  }[] = [];
  const candidates: { a: number; b: number }[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      if (columns[a]!.slot_id !== columns[b]!.slot_id) candidates.push({ a, b });
    }
  }
  step();
  const results = productColumnTests(tests, candidates);
  step();
  for (let index = 0; index < candidates.length; index++) {
    const { a, b } = candidates[index]!;
    const { nBoth, gamma, variance, df2 } = results[index]!;
    if (!(variance > 0) || !Number.isFinite(variance) || df2 <= 0) {
      raw.push({ a, b, nBoth, gamma: NaN, se: NaN, f: NaN, pv: NaN, ok: false });
      continue;
    }
    const f = (gamma * gamma) / variance;
    raw.push({
      a,
      b,
      nBoth,
      gamma,
      se: Math.sqrt(variance),
      f,
      pv: fSurvival(f, 1, df2),
      ok: true,
    });
  }
  const testable = raw.filter((r) => r.ok);
  const adjusted = holmAdjust(testable.map((r) => r.pv));
  const holm = new Map(testable.map((r, i) => [r, adjusted[i]!]));
  const pairs: InteractionPair[] = raw.map((r) => {
    const ph = holm.get(r);
    return {
      a: columns[r.a]!.version_id,
      b: columns[r.b]!.version_id,
      n_both: r.nBoth,
      testable: r.ok,
      gamma: r.ok ? r.gamma : null,
      se: r.ok ? r.se : null,
      f: r.ok ? r.f : null,
      p_value: r.ok ? r.pv : null,
      p_holm: ph ?? null,
      flagged: ph !== undefined && ph < alpha,
    };
  });
  const flagged = pairs
    .filter((q) => q.flagged)
    .sort((u, v) => u.p_holm! - v.p_holm!)
    .map((q) => `${q.a} x ${q.b}`);
  const screen: InteractionScreen = {
    metric,
    covariance,
    df2_rule: covariance === "HC3" ? "n - columns" : "clusters - 1",
    test: `Wald F on the product coefficient(s) with the ${covariance} covariance`,
    correction: "holm",
    alpha,
    pairs,
    joint: jointTest(dataset, main, testable, covariance, step),
    flagged,
  };
  step.end();
  return screen;
}

/**
 * The steps {@linkcode InteractionScreenOptions.onProgress} counts: the main
 * fit, the product columns' plan, the pairs' tests, the joint test's
 * product columns and its {@linkcode JOINT_WALD_STEPS} passes.
 */
export const SCREEN_STEPS = 4 + JOINT_WALD_STEPS;

/** A step counter over {@linkcode SCREEN_STEPS}; `end()` reports the whole (steps skipped included). */
function screenSteps(onProgress: ProgressCallback | undefined): (() => void) & { end(): void } {
  let done = 0;
  const step = () => {
    done = Math.min(SCREEN_STEPS, done + 1);
    if (done < SCREEN_STEPS) onProgress?.(done, SCREEN_STEPS);
  };
  return Object.assign(step, { end: () => onProgress?.(SCREEN_STEPS, SCREEN_STEPS) });
}

/** Options of {@linkcode interactionScreen}. */
export interface InteractionScreenOptions {
  /** Metric to screen. @default {"reward" if present, else the first metric} */
  readonly metric?: string;
  /** Level of the Holm-adjusted p-values. @default {DEFAULTS.alpha} */
  readonly alpha?: number;
  /**
   * `hc3`, `cr1` (clustered by task), or `auto`: CR1 when some task has
   * several rows (pooled rounds), otherwise HC3.
   * @default {"auto"}
   */
  readonly covariance?: "auto" | "hc3" | "cr1";
  /** Progress over the screen's {@linkcode SCREEN_STEPS} steps, told as each ends. */
  readonly onProgress?: ProgressCallback;
}

function screenCovariance(dataset: PairedDataset, choice: "auto" | "hc3" | "cr1"): "HC3" | "CR1" {
  if (choice === "hc3") return "HC3";
  if (choice === "cr1") return "CR1";
  return dataset.clusterCount < dataset.n ? "CR1" : "HC3";
}

function jointTest(
  dataset: PairedDataset,
  main: MainFit,
  pairs: readonly { a: number; b: number }[],
  covariance: "HC3" | "CR1",
  step: () => void,
): JointInteractionTest | null {
  const { n, k, design } = dataset;
  const q = pairs.length;
  const p = k + q;
  if (q === 0 || n - p <= 0) return null;
  // The pairs' tests left their garbage: collected before the products (q bytes a row).
  releaseMemory(n);
  const z = new Uint8Array(n * q); // products of 0/1 columns: 1 byte each, not 8
  const pa = Int32Array.from(pairs, (pr) => pr.a), pb = Int32Array.from(pairs, (pr) => pr.b);
  for (let i = 0; i < n; i++) {
    const row = i * k, at = i * q;
    for (let t = 0; t < q; t++) z[at + t] = design[row + pa[t]!]! & design[row + pb[t]!]!;
  }
  step();
  const df2 = covariance === "HC3" ? n - p : dataset.clusterCount - 1;
  if (covariance === "CR1" && q > df2) return null; // the clustered covariance has rank <= G - 1
  const { cluster, clusterCount } = dataset;
  const wald = jointWald(main, { z, q, products: pairs }, {
    covariance: covariance === "HC3" ? "hc3" : "cr1",
    cluster,
    clusterCount,
    onStep: step,
  });
  if (!wald) return null;
  const f = wald.statistic / q;
  return { pairs: q, f, df1: q, df2, p_value: fSurvival(f, q, df2) };
}

/**
 * Residuals of the main-effects fit grouped by the number of columns
 * present in the row (0, 1, 2, ...): n, mean and sd (ddof 1). A trend in
 * the mean suggests saturation or synergy the additive model misses.
 *
 * @param dataset Paired dataset.
 * @param options metric (default "reward").
 * @returns One row per observed count, ascending.
 */
export function residualsByCount(
  dataset: PairedDataset,
  options: { readonly metric?: string } = {},
): ResidualByCount[] {
  const metric = options.metric ?? defaultMetric(dataset);
  const { n, k, design } = dataset;
  const fit = mainFit(dataset, metric);
  // Each row's count, then the rows of each count in row order (simple-statistics' mean and
  // sample variance read at those rows in place: the same bits as on a list of their residuals).
  const counts = new Float64Array(n);
  const groups = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let j = 0; j < k; j++) count += design[i * k + j]!;
    counts[i] = count;
    groups.set(count, (groups.get(count) ?? 0) + 1);
  }
  const rowsOf = new Map<number, { rows: Int32Array; filled: number }>();
  for (const [count, size] of groups) rowsOf.set(count, { rows: new Int32Array(size), filled: 0 });
  for (let i = 0; i < n; i++) {
    const group = rowsOf.get(counts[i]!)!;
    group.rows[group.filled++] = i;
  }
  return [...rowsOf.entries()].sort((a, b) => a[0] - b[0]).map(([count, { rows }]) => {
    const mean = rowsMean(fit.residuals, rows);
    return {
      count,
      n: rows.length,
      mean,
      // ddof 1; simple-statistics' sampleStandardDeviation is the root of its sampleVariance.
      sd: rows.length > 1 ? Math.sqrt(rowsSampleVariance(fit.residuals, rows, mean)) : null,
    };
  });
}

/** All misfit diagnostics of one metric. */
export interface MisfitDiagnostics {
  /** Metric diagnosed. */
  readonly metric: string;
  /** AMCE beside the OLS coefficient, one row per column. */
  readonly amce: readonly AmceRow[];
  /** The pairwise interaction screen and its joint test. */
  readonly interactions: InteractionScreen;
  /** Residuals by number of chunks present, ascending. */
  readonly residuals_by_count: readonly ResidualByCount[];
}

/**
 * AMCE table, interaction screen and residuals by count for one metric.
 *
 * @param dataset Paired dataset.
 * @param options metric (default "reward"), alpha of the screen (default 0.05).
 * @returns The three diagnostics.
 * @throws {RangeError} On an unknown metric or a rank-deficient design.
 * @example The demo's Gate A
 * ```ts
 * import { datasetOrThrow, misfitDiagnostics, validateGates } from "../../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const d = misfitDiagnostics(gateA);
 * const first = d.amce[0]!;
 * deepEqual([d.metric, d.amce.length, first.version_id, first.n_present], ["reward", 14, "query-formulation.v1", 195]);
 * deepEqual([first.beta.toFixed(4), first.amce?.toFixed(4)], ["0.1076", "0.0711"]);
 * ```
 */
export function misfitDiagnostics(
  dataset: PairedDataset,
  options: InteractionScreenOptions = {},
): MisfitDiagnostics {
  const metric = options.metric ?? defaultMetric(dataset);
  return {
    metric,
    amce: amceTable(dataset, { metric }),
    interactions: interactionScreen(dataset, { ...options, metric }),
    residuals_by_count: residualsByCount(dataset, { metric }),
  };
}

function defaultMetric(dataset: PairedDataset): string {
  return dataset.metrics.includes("reward") ? "reward" : dataset.metrics[0]!;
}
