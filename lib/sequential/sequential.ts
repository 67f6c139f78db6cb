/**
 * The sequential re-analysis of a paired-delta gate: the no-intercept OLS
 * on every prefix of the ordered rows, each coefficient's anytime-valid
 * confidence sequence and e-value, their running intersection and running
 * maximum, and when each version's sign and the selection settle. No I/O.
 *
 * @module
 */

import type { z } from "npm:zod@4.6.7";
import type { PairedDataset } from "../core/types.ts";
import type { SequentialJson, SequentialVersionSchema } from "../contract/outputs/sequential.ts";
import { generatorMeta } from "../core/meta.ts";
import { type CompiledSelection, compileSelection } from "../select/select.ts";
import { ESTIMATOR } from "../contract/outputs/common.ts";
import { anytimeValid } from "./avlm.ts";
import { type PrefixFit, prefixFits } from "./prefix_fits.ts";
import type { SequentialOrder } from "./order.ts";
import { DEFAULTS } from "../core/defaults.ts";
import { Z975 } from "../math/normal.ts";

/** One version's paths over the prefixes (arrays aligned with `n`; null where undefined): its schema, `SequentialVersionSchema`, documents the fields. */
export type SequentialVersion = z.output<typeof SequentialVersionSchema>;

/** One metric's sequential paths. */
export type SequentialMetric = SequentialDocument["metrics"][string];

/**
 * sequential.json (docs/FORMAT.md, Extensions: sequential): the type its
 * zod schema, `SequentialSchema`, gives, so the writer, the tables, the
 * figures and the report read one declaration.
 */
export type SequentialDocument = SequentialJson;

/** Options of {@linkcode sequentialAnalysis}. */
export interface SequentialOptions {
  /** Order name recorded in the output. @default {"run"} */
  readonly order?: SequentialOrder;
  /** Seed of a random order (recorded). @default {DEFAULTS.seed} */
  readonly seed?: number;
  /** Error level of the confidence sequences. @default {DEFAULTS.alpha} */
  readonly alpha?: number;
  /** Mixture precision phi. @default {1} */
  readonly phi?: number;
  /** Report every b-th prefix (N always included). @default {1} */
  readonly every?: number;
  /** Command line recorded as generator.command. @default {"sequential"} */
  readonly command?: string;
}

/** {@linkcode SequentialOptions} resolved: every field present and checked. */
export type ResolvedSequentialOptions = Required<SequentialOptions>;

/**
 * Fills in the defaults of {@linkcode SequentialOptions} and checks them,
 * once, at the door (`sequentialAnalysis`, `sequentialOfGate`).
 *
 * @param options As the caller gave them.
 * @returns The resolved options.
 * @throws {RangeError} When alpha is outside (0, 1), phi <= 0 or every is not a positive integer.
 *
 * @example
 * ```ts
 * import { resolveSequentialOptions } from "./sequential.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(resolveSequentialOptions({ order: "random" }), {
 *   order: "random", seed: 20260927, alpha: 0.05, phi: 1, every: 1, command: "sequential",
 * });
 * throws(() => resolveSequentialOptions({ alpha: 1 }), /alpha 1 is outside \(0, 1\)/);
 * ```
 */
export function resolveSequentialOptions(options: SequentialOptions): ResolvedSequentialOptions {
  const resolved = {
    order: options.order ?? "run",
    seed: options.seed ?? DEFAULTS.seed,
    alpha: options.alpha ?? DEFAULTS.alpha,
    phi: options.phi ?? 1,
    every: options.every ?? 1,
    command: options.command ?? "sequential",
  };
  const { alpha, phi, every } = resolved;
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(`Cannot run sequentially: alpha ${alpha} is outside (0, 1)`);
  }
  if (!(phi > 0)) throw new RangeError(`Cannot run sequentially: phi ${phi} is not positive`);
  if (!(Number.isSafeInteger(every) && every >= 1)) {
    throw new RangeError(`Cannot run sequentially: every ${every} is not a positive integer`);
  }
  return resolved;
}

/**
 * Sequential re-analysis of a validated gate in a given row order.
 *
 * @param dataset The paired dataset (validated).
 * @param rowIndex Row indices in analysis order (a permutation of 0..n-1).
 * @param options See {@linkcode SequentialOptions}.
 * @returns sequential.json's contents.
 * @throws {RangeError} When n < k + 2, an option is out of range (see
 *   {@linkcode resolveSequentialOptions}) or the order is not a permutation.
 */
export function sequentialAnalysis(
  dataset: PairedDataset,
  rowIndex: ArrayLike<number>,
  options: SequentialOptions = {},
): SequentialDocument {
  return sequentialResolved(dataset, rowIndex, resolveSequentialOptions(options));
}

/**
 * {@linkcode sequentialAnalysis} on options resolved at the door
 * (`sequentialOfGate` resolves them before ordering the rows).
 *
 * @param dataset The paired dataset (validated).
 * @param rowIndex Row indices in analysis order.
 * @param options Resolved by {@linkcode resolveSequentialOptions}.
 * @returns sequential.json's contents.
 * @throws {RangeError} When n < k + 2 or the order is not a permutation.
 */
export function sequentialResolved(
  dataset: PairedDataset,
  rowIndex: ArrayLike<number>,
  options: ResolvedSequentialOptions,
): SequentialDocument {
  const { n: N, k, metrics } = dataset;
  const { alpha, phi, every } = options;
  if (rowIndex.length !== N || new Set(Array.from(rowIndex)).size !== N) {
    throw new RangeError("Cannot run sequentially: the row order is not a permutation of the rows");
  }
  if (N < k + 2) {
    throw new RangeError(`Cannot run sequentially: ${N} rows are fewer than ${k} columns + 2`);
  }
  const frame = sequentialFrame(dataset, rowIndex, options);
  const out: Record<string, SequentialMetric> = {};
  metrics.forEach((metric, mi) => {
    out[metric] = metricSequence(frame, mi);
  });
  return {
    format: "gatelab.sequential/v1",
    order: options.order,
    seed: options.order === "random" ? options.seed : null,
    alpha,
    phi,
    every,
    estimator: ESTIMATOR,
    conventions: sequentialConventions(),
    rows: N,
    columns: k,
    budget_k: frame.budgetK,
    rollouts_total: frame.saved(0),
    row_order: Array.from(rowIndex, (i) => ({
      ...dataset.episodes[i]!,
      gate_id: dataset.gates[dataset.gateIndex[i]!]!.gate_id,
    })),
    metrics: out,
    baseline: dataset.baseline,
    gates: dataset.gates.map((g) => ({
      gate_id: g.gate_id,
      gate_dir: g.gate_dir,
      masked: g.masked,
    })),
    generator: generatorMeta(options.command),
  };
}

/** What every metric's sequence reads: the prefixes, their fits, the selection rule. */
interface SequentialFrame {
  readonly dataset: PairedDataset;
  readonly options: ResolvedSequentialOptions;
  /** Prefix sizes: k + 2, k + 2 + every, ..., and always N. */
  readonly prefixes: readonly number[];
  /** The OLS of every metric on each prefix of the ordered rows. */
  readonly fits: readonly PrefixFit[];
  /** Rollouts saved by stopping after the first n ordered rows. */
  readonly saved: (n: number) => number;
  readonly rule: CompiledSelection;
  readonly budgetK: number;
}

function sequentialFrame(
  dataset: PairedDataset,
  rowIndex: ArrayLike<number>,
  options: ResolvedSequentialOptions,
): SequentialFrame {
  const { n: N, k, columns, metrics } = dataset;
  const prefixes: number[] = [];
  for (let n = k + 2; n < N; n += options.every) prefixes.push(n);
  prefixes.push(N);
  const design = new Float64Array(N * k);
  for (let i = 0; i < N; i++) {
    const src = rowIndex[i]!;
    for (let j = 0; j < k; j++) design[i * k + j] = dataset.design[src * k + j]!;
  }
  const responses = metrics.map((m) => Float64Array.from(rowIndex, (i) => dataset.delta[m]![i]!));
  return {
    dataset,
    options,
    prefixes,
    fits: prefixFits(design, k, responses, prefixes),
    saved: rolloutsSaved(dataset, rowIndex),
    rule: compileSelection(columns),
    budgetK: dataset.gates[0]!.budget_k,
  };
}

/** One metric: every version's sequence, the selection at each prefix and when it settles. */
function metricSequence(frame: SequentialFrame, mi: number): SequentialMetric {
  const { dataset: { k, columns }, fits, prefixes, saved, rule, budgetK } = frame;
  const versions: Record<string, SequentialVersion> = {};
  columns.forEach((column, j) => {
    versions[column.version_id] = versionSequence(frame, mi, j);
  });
  const ranks = new Int32Array(k), chosen = new Int32Array(k);
  const selection = fits.map((fit) => {
    const b = fit.coefficients?.[mi];
    if (!b) return null;
    const { selected } = rule.rank(b, budgetK, ranks, chosen);
    return Array.from(chosen.subarray(0, selected), (j) => columns[j]!.version_id);
  });
  const final = key(selection[selection.length - 1] ?? null);
  let stableFrom: number | null = null;
  for (let p = selection.length - 1; p >= 0; p--) {
    if (key(selection[p] ?? null) !== final || final === null) break;
    stableFrom = prefixes[p]!;
  }
  return {
    n: [...prefixes],
    selection,
    selection_stable_from: stableFrom,
    selection_rollouts_saved: stableFrom === null ? null : saved(stableFrom),
    versions,
  };
}

/**
 * Column j of metric mi: its estimate, standard error, confidence sequence
 * and e-value at each prefix, their running intersection and maximum, and
 * the first prefix whose running interval excludes 0.
 */
function versionSequence(frame: SequentialFrame, mi: number, j: number): SequentialVersion {
  const { dataset: { k }, fits, prefixes, saved, options: { alpha, phi } } = frame;
  const estimate: (number | null)[] = [], se: (number | null)[] = [];
  const lower: (number | null)[] = [], upper: (number | null)[] = [];
  const eValue: (number | null)[] = [];
  const runLower: (number | null)[] = [], runUpper: (number | null)[] = [];
  const runMaxE: (number | null)[] = [];
  let lo = -Infinity, hi = Infinity, maxE = -Infinity;
  let certifiedAt: number | null = null, sign: 1 | -1 | null = null;
  fits.forEach((fit, p) => {
    const b = fit.coefficients?.[mi]?.[j];
    const s2 = fit.residualVariance?.[mi];
    const inv = fit.inverseDiagonal?.[j];
    let e: number | null = null, l: number | null = null, u: number | null = null;
    let b0: number | null = null, se0: number | null = null;
    if (b !== undefined && s2 !== undefined && inv !== undefined) {
      const standardError = Math.sqrt(s2 * inv);
      b0 = b;
      se0 = standardError;
      if (standardError > 0) {
        const av = anytimeValid(b, standardError, s2, fit.n - k, { alpha, phi });
        e = Math.exp(av.logE);
        l = b - av.radius;
        u = b + av.radius;
        lo = Math.max(lo, l);
        hi = Math.min(hi, u);
        maxE = Math.max(maxE, e);
      }
    }
    estimate.push(b0);
    se.push(se0);
    eValue.push(finiteOrNull(e));
    lower.push(finiteOrNull(l));
    upper.push(finiteOrNull(u));
    runLower.push(finiteOrNull(lo));
    runUpper.push(finiteOrNull(hi));
    runMaxE.push(finiteOrNull(maxE));
    if (certifiedAt === null && (lo > 0 || hi < 0)) {
      certifiedAt = prefixes[p]!;
      sign = lo > 0 ? 1 : -1;
    }
  });
  const bN = fits[fits.length - 1]!.coefficients?.[mi]?.[j];
  const seN = se[se.length - 1];
  return {
    estimate,
    se,
    cs_lower: lower,
    cs_upper: upper,
    e_value: eValue,
    running_lower: runLower,
    running_upper: runUpper,
    running_max_e: runMaxE,
    sign_certified_at: certifiedAt,
    sign,
    rollouts_saved: certifiedAt === null ? null : saved(certifiedAt),
    fixed_n_interval: bN !== undefined && seN !== null && seN !== undefined
      ? [bN - Z975 * seN, bN + Z975 * seN]
      : null,
  };
}

/** sequential.json's `conventions`: the model and how each field is computed. */
function sequentialConventions(): SequentialDocument["conventions"] {
  return {
    model:
      "Gaussian, homoskedastic errors given the design (the confidence sequences and e-values need it; " +
      "HC3 and bootstrap results of gate analyze do not)",
    confidence_sequence:
      "Lindon, Ham, Tingley & Bojinov anytime-valid linear model (avlm): nu = n - M, " +
      "r = phi / (phi + s^2/se^2), two-sided, per coefficient",
    se: "classical OLS s sqrt([(X'X)^-1]_jj), s^2 = SSR / (n - M)",
    running:
      "running_lower/upper: intersection of the intervals up to n; running_max_e: maximum e so far",
    fixed_n_interval: "estimate +- 1.959963984540054 se at N (normal, classical se)",
    prefixes: "n = M + 2, M + 2 + every, ..., and always N; rows of one task stay together",
    rollouts:
      "a stop at n saves the masked rollouts of rows after n and the bare rollouts of episodes " +
      "not yet in the first n rows (completed pairs only)",
    selection:
      "point selection by the metric's estimates: positive top budget_k, REWRITE family winners first",
  };
}

/** A function n -> rollouts saved by stopping after the first n ordered rows. */
function rolloutsSaved(dataset: PairedDataset, rowIndex: ArrayLike<number>): (n: number) => number {
  const N = dataset.n;
  // newBare[i]: 1 when ordered row i is the first to use its bare episode.
  const seen = new Set<string>();
  const bareAfter = new Int32Array(N + 1);
  const firstUse = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const e = dataset.episodes[rowIndex[i]!]!;
    const label = `${e.split}\u0000${e.task_id}\u0000${e.sample_id}`;
    if (!seen.has(label)) {
      seen.add(label);
      firstUse[i] = 1;
    }
  }
  for (let i = N - 1; i >= 0; i--) bareAfter[i] = bareAfter[i + 1]! + firstUse[i]!;
  return (n) => (N - n) + bareAfter[n]!;
}

function key(selection: string[] | null): string | null {
  return selection === null ? null : [...selection].sort().join("\u0000");
}

function finiteOrNull(v: number | null): number | null {
  return v !== null && Number.isFinite(v) ? v : null;
}
