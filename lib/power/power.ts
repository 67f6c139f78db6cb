/**
 * Power planning for a randomized 0/1 gate: the analytic standard error of
 * a coefficient, the minimum detectable effect, and by simulation the
 * probability that the truly best K versions are the ones selected.
 *
 * @module
 */
import type { ProgressCallback } from "../core/progress.ts";
import { createPrng, type Prng } from "../math/prng.ts";
import { choleskyPacked, choleskySolvePacked, packedSize } from "../math/packed.ts";
import { normalQuantile } from "../math/normal.ts";
import { DEFAULTS } from "../core/defaults.ts";
import type { PowerJson } from "../contract/outputs/power.ts";

/** A gate design to plan. */
export interface PowerDesign {
  /** Paired tasks N. */
  readonly tasks: number;
  /** Design columns M (all plain chunks in the approximation). */
  readonly columns: number;
  /** Probability that a column is present in a row, 0 < p < 1. */
  readonly pPresent: number;
  /** Residual standard deviation of the paired delta. */
  readonly residSd: number;
}

/** The approximation behind {@linkcode analyticStandardError}, recorded in outputs. */
export const ANALYTIC_SE_APPROXIMATION =
  "M independent Bernoulli(p) columns, no intercept, homoskedastic residuals with SD s: " +
  "X'X/N -> Sigma = p(1-p) I + p^2 J, so Var(beta_j) ~ s^2/N * [Sigma^-1]_jj = " +
  "s^2 / (N p (1-p)) * (1 - p / (1 - p + M p)). Ignores REWRITE families (mutually exclusive " +
  "columns), heteroskedasticity and finite-N variation of X'X (checked by simulation).";

/**
 * Analytic standard error of one coefficient (see
 * {@linkcode ANALYTIC_SE_APPROXIMATION}).
 *
 * @param design N, M, p, s.
 * @returns The standard error.
 * @throws {RangeError} On N < 1, M < 1, p outside (0, 1) or s < 0.
 *
 * @example
 * ```ts
 * import { analyticStandardError } from "./power.ts";
 * import { ok } from "node:assert/strict";
 * // numpy: sqrt(0.3**2/400 * inv(0.25*I + 0.25*J)[0,0]) for M = 16
 * const se = analyticStandardError({ tasks: 400, columns: 16, pPresent: 0.5, residSd: 0.3 });
 * ok(Math.abs(se - 0.03 * Math.sqrt(1 - 0.5 / 8.5)) < 1e-15);
 * ```
 */
export function analyticStandardError(design: PowerDesign): number {
  checkDesign(design);
  const { tasks: n, columns: m, pPresent: p, residSd: s } = design;
  const diag = (1 - p / (1 - p + m * p)) / (p * (1 - p));
  return s * Math.sqrt(diag / n);
}

/** Options of {@linkcode minimumDetectableEffect}. */
export interface MdeOptions {
  /** Two-sided test level. @default {DEFAULTS.alpha} */
  readonly alpha?: number;
  /** @default {DEFAULTS.power} */
  readonly power?: number;
}

/**
 * Minimum detectable effect of a two-sided z test: (z_{1-alpha/2} + z_power) x SE.
 *
 * @example
 * ```ts
 * import { minimumDetectableEffect } from "./power.ts";
 * import { ok } from "node:assert/strict";
 * // scipy: norm.ppf(0.975) + norm.ppf(0.8) = 2.801585218
 * ok(Math.abs(minimumDetectableEffect(0.01) - 0.02801585218) < 1e-10);
 * ```
 */
export function minimumDetectableEffect(standardError: number, options: MdeOptions = {}): number {
  const { alpha, power } = resolveMdeOptions(options);
  return (normalQuantile(1 - alpha / 2) + normalQuantile(power)) * standardError;
}

/** {@linkcode MdeOptions} with their defaults: what the MDE uses and power.json records. */
function resolveMdeOptions(options: MdeOptions): Required<MdeOptions> {
  return { alpha: options.alpha ?? DEFAULTS.alpha, power: options.power ?? DEFAULTS.power };
}

/** Options of {@linkcode simulatePower}. */
export interface SimulatePowerOptions {
  /** True effect of each column (length M); default all zero. */
  readonly effects?: readonly number[];
  /** Active skill budget K. @default {min(DEFAULTS.powerBudgetCap, M)} */
  readonly budgetK?: number;
  /** Number of simulated gates. @default {DEFAULTS.powerSims} */
  readonly sims?: number;
  /** Seed of the simulation. @default {DEFAULTS.seed} */
  readonly seed?: number;
  /** Called with (done, total) as simulations complete. */
  readonly onProgress?: ProgressCallback;
}

/** {@linkcode SimulatePowerOptions} resolved against a design: every field present and checked. */
export interface ResolvedPowerOptions {
  readonly effects: readonly number[];
  readonly budgetK: number;
  readonly sims: number;
  readonly seed: number;
  /** The progress callback; null: none. */
  readonly onProgress: ProgressCallback | null;
}

/**
 * Fills in the defaults of {@linkcode SimulatePowerOptions} once, at the
 * door (`simulatePower`, `planPower`), and checks them against the design.
 *
 * @param design N, M, p, s (checked before).
 * @param options As the caller gave them.
 * @returns The resolved options.
 * @throws {RangeError} On effects of the wrong length or fewer than 2 simulations.
 *
 * @example
 * ```ts
 * import { resolvePowerOptions } from "./power.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = resolvePowerOptions({ tasks: 40, columns: 3, pPresent: 0.5, residSd: 0.1 }, {});
 * deepEqual([r.effects, r.budgetK, r.sims, r.seed], [[0, 0, 0], 3, 2000, 20260927]);
 * ```
 */
export function resolvePowerOptions(
  design: PowerDesign,
  options: SimulatePowerOptions,
): ResolvedPowerOptions {
  const m = design.columns;
  const effects = options.effects ?? new Array<number>(m).fill(0);
  if (effects.length !== m) {
    throw new RangeError(`Cannot simulate power: ${effects.length} effects for ${m} columns`);
  }
  const budgetK = options.budgetK ?? Math.min(DEFAULTS.powerBudgetCap, m);
  const sims = options.sims ?? DEFAULTS.powerSims;
  if (!(Number.isInteger(sims) && sims >= 2)) {
    throw new RangeError(`Cannot simulate power: sims must be an integer >= 2, got ${sims}`);
  }
  const seed = options.seed ?? DEFAULTS.seed;
  return { effects, budgetK, sims, seed, onProgress: options.onProgress ?? null };
}

/**
 * Result of {@linkcode simulatePower}: power.json's `simulation` block
 * (zod-inferred from lib/contract's `PowerSchema`; fields in
 * docs/FORMAT.md). `p_exact_best_set` and `mean_best_recall` are null when
 * no effect is positive (`selection_note` says why).
 */
export type SimulatedPower = PowerJson["simulation"];

/**
 * Simulates gates: X ~ Bernoulli(p) per cell, y = X effects + N(0, s^2)
 * (Box-Muller over the prng's nextFloat), no-intercept OLS, then
 * strictly positive top-K selection (plain columns). Counts how often the
 * truly best K are exactly the selected set.
 *
 * @param design N, M, p, s.
 * @param options effects, budgetK, sims, seed, onProgress.
 * @returns Simulated SEs and selection probabilities.
 * @throws {RangeError} On a bad design or effects of the wrong length.
 *
 * @example
 * ```ts
 * import { simulatePower } from "./power.ts";
 * import { ok } from "node:assert/strict";
 * const r = simulatePower({ tasks: 200, columns: 3, pPresent: 0.5, residSd: 0.1 },
 *   { effects: [0.2, 0, -0.1], budgetK: 1, sims: 50, seed: 1 });
 * ok(r.p_exact_best_set === 1); // a 0.2 effect at SE ~ 0.015 is always found
 * ```
 */
export function simulatePower(
  design: PowerDesign,
  options: SimulatePowerOptions = {},
): SimulatedPower {
  checkDesign(design);
  return simulateResolved(design, resolvePowerOptions(design, options));
}

/** {@linkcode simulatePower} on options resolved at the door. */
function simulateResolved(design: PowerDesign, options: ResolvedPowerOptions): SimulatedPower {
  const { tasks: n, columns: m, pPresent: p, residSd: s } = design;
  const { effects, budgetK, sims } = options;
  const prng = createPrng(options.seed);
  const normal = normalSource(prng);
  const trueBest = topPositive(effects, budgetK);
  const isBest = new Uint8Array(m);
  for (const j of trueBest) isBest[j] = 1;
  const se = analyticStandardError(design);
  const zCrit = normalQuantile(0.975);

  const xtx = new Float64Array(packedSize(m));
  const xty = new Float64Array(m);
  const absent = new Uint8Array(m);
  const row = new Uint8Array(m);
  const present: number[] = [];
  const sumSq = new Float64Array(m);
  const selected = new Int32Array(m);
  const rejected = new Int32Array(m);
  let exact = 0, recallSum = 0, used = 0;
  const step = Math.max(1, Math.floor(sims / 100));
  for (let sim = 0; sim < sims; sim++) {
    xtx.fill(0);
    xty.fill(0);
    for (let i = 0; i < n; i++) {
      present.length = 0;
      let mean = 0;
      for (let j = 0; j < m; j++) {
        row[j] = prng.nextFloat() < p ? 1 : 0;
        if (row[j]) {
          present.push(j);
          mean += effects[j]!;
        }
      }
      const y = mean + s * normal();
      for (let a = 0; a < present.length; a++) {
        const ja = present[a]!;
        xty[ja] = xty[ja]! + y;
        const off = (ja * (2 * m - ja + 1)) / 2 - ja;
        for (let b = a; b < present.length; b++) {
          xtx[off + present[b]!] = xtx[off + present[b]!]! + 1;
        }
      }
    }
    if (onProgressDue(sim, sims, step)) options.onProgress?.(sim + 1, sims);
    if (!choleskyPacked(xtx, m, absent) || absent.some((v) => v === 1)) continue;
    choleskySolvePacked(xtx, m, absent, xty);
    used++;
    for (let j = 0; j < m; j++) {
      const d = xty[j]! - effects[j]!;
      sumSq[j] = sumSq[j]! + d * d;
      if (Math.abs(xty[j]! / se) > zCrit) rejected[j] = rejected[j]! + 1;
    }
    const chosen = topPositive(xty, budgetK);
    let hit = 0;
    for (const j of chosen) {
      selected[j] = selected[j]! + 1;
      if (isBest[j]) hit++;
    }
    if (hit === trueBest.length && chosen.length === trueBest.length) exact++;
    recallSum += trueBest.length === 0 ? 1 : hit / trueBest.length;
  }
  const perColumn = Array.from(sumSq, (v) => Math.sqrt(v / Math.max(1, used)));
  return {
    sims,
    seed: options.seed,
    degenerate_sims: sims - used,
    simulated_se: Math.sqrt(sumSq.reduce((a, b) => a + b, 0) / Math.max(1, used) / m),
    simulated_se_per_column: perColumn,
    true_best: trueBest,
    p_exact_best_set: trueBest.length === 0 ? null : exact / Math.max(1, used),
    mean_best_recall: trueBest.length === 0 ? null : recallSum / Math.max(1, used),
    selection_note: trueBest.length === 0
      ? "no strictly positive true effect (give --effects): selection power is undefined; " +
        "selected_frequency then shows how often pure noise is selected"
      : null,
    selected_frequency: Array.from(selected, (c) => c / Math.max(1, used)),
    rejection_rate: Array.from(rejected, (c) => c / Math.max(1, used)),
    method: "per sim: N rows, each cell present if prng.nextFloat() < p (row-major), then one " +
      "Box-Muller normal for the residual; OLS without intercept; selection = strictly positive " +
      "top-K by estimate (ties by column index); degenerate sims (a column never present or a " +
      "singular X'X) are counted and skipped",
  };
}

function onProgressDue(sim: number, sims: number, step: number): boolean {
  return (sim + 1) % step === 0 || sim + 1 === sims;
}

/** Indices of the strictly positive values, top K by value (ties by index). */
function topPositive(values: ArrayLike<number>, k: number): number[] {
  const idx: number[] = [];
  for (let j = 0; j < values.length; j++) if (values[j]! > 0) idx.push(j);
  idx.sort((a, b) => values[b]! - values[a]! || a - b);
  return idx.slice(0, k);
}

function normalSource(prng: Prng): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    let u = 0;
    while (u === 0) u = prng.nextFloat();
    const v = prng.nextFloat();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

function checkDesign(d: PowerDesign): void {
  const bad: string[] = [];
  if (!(Number.isInteger(d.tasks) && d.tasks >= 1)) {
    bad.push(`tasks ${d.tasks} is not a positive integer`);
  }
  if (!(Number.isInteger(d.columns) && d.columns >= 1)) {
    bad.push(`columns ${d.columns} is not a positive integer`);
  }
  if (!(d.pPresent > 0 && d.pPresent < 1)) bad.push(`p_present ${d.pPresent} is not in (0, 1)`);
  if (!(d.residSd >= 0 && Number.isFinite(d.residSd))) {
    bad.push(`resid_sd ${d.residSd} is not a finite number >= 0`);
  }
  if (bad.length > 0) throw new RangeError(`Cannot plan power: ${bad.join("; ")}`);
}

/**
 * Refuses a design the no-intercept OLS cannot estimate with residual
 * degrees of freedom: it needs more tasks than columns.
 */
function checkEstimable(d: PowerDesign): void {
  checkDesign(d);
  if (d.tasks <= d.columns) {
    throw new RangeError(
      `Cannot plan power: ${d.tasks} tasks cannot estimate ${d.columns} columns (the ` +
        "no-intercept OLS needs more tasks than columns)",
    );
  }
}

/**
 * power.json as `gate plan-power` writes it: the zod-inferred output type of
 * lib/contract's `PowerSchema` (fields documented there and in
 * docs/FORMAT.md, Extensions).
 *
 * @ignore
 */
export type PowerDocument = PowerJson;

/**
 * The power plan as written to power.json, without generator, inputs,
 * `--from` and effects: the design, the analytic SE and 80%-power MDE, the
 * simulated gates, their SE ratio and the MDE grids by tasks and by columns.
 */
export type PowerPlan = Omit<
  PowerDocument,
  "format" | "generator" | "estimator" | "from" | "inputs" | "effects"
>;

/**
 * Analytic SE and MDE plus the simulation, and MDE tables over task and
 * column counts.
 *
 * @param design N, M, p, s.
 * @param options As {@linkcode simulatePower}.
 * @returns The plan.
 * @throws {RangeError} On a bad design, when tasks <= columns (not
 *   estimable), or when every simulated gate is degenerate.
 * @example Planned from the demo's Gate A estimates, 50 simulated gates
 * ```ts
 * import {
 *   analyzeDataset, datasetOrThrow, planPower, powerInputsFromContributions, validateGates, valueOrThrow,
 * } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const inputs = valueOrThrow(powerInputsFromContributions(analyzeDataset(gateA).contributions), "inputs");
 * const plan = planPower(inputs, { effects: inputs.estimates, budgetK: 3, sims: 50, seed: 1 });
 * deepEqual([plan.simulation?.true_best, plan.simulation?.p_exact_best_set], [[2, 0, 6], 0.26]);
 * ```
 */
export function planPower(design: PowerDesign, options: SimulatePowerOptions = {}): PowerPlan {
  checkEstimable(design);
  const se = analyticStandardError(design);
  const resolved = resolvePowerOptions(design, options);
  const mde = resolveMdeOptions({});
  const simulation = simulateResolved(design, resolved);
  if (simulation.degenerate_sims === simulation.sims) {
    throw new RangeError(
      `Cannot plan power: all ${simulation.sims} simulated gates were degenerate (a column never ` +
        `present or X'X singular at ${design.tasks} tasks, ${design.columns} columns, p_present ` +
        `${design.pPresent}); raise the tasks or p_present`,
    );
  }
  const tasksGrid = [0.25, 0.5, 1, 2, 4].map((f) => Math.max(1, Math.round(design.tasks * f)));
  const columnsGrid = [...new Set([4, 8, 12, 16, 24, 32, design.columns])].sort((a, b) => a - b);
  return {
    design: {
      tasks: design.tasks,
      columns: design.columns,
      p_present: design.pPresent,
      resid_sd: design.residSd,
      budget_k: resolved.budgetK,
    },
    analytic: {
      se_beta: se,
      mde_80: minimumDetectableEffect(se, mde),
      alpha: mde.alpha,
      power: mde.power,
      approximation: ANALYTIC_SE_APPROXIMATION,
      mde_rule: "(z_0.975 + z_0.80) x se_beta, two-sided z test",
    },
    simulation,
    se_ratio_simulated_to_analytic: simulation.simulated_se / se,
    mde_by_tasks: tasksGrid.map((tasks) => {
      const s = analyticStandardError({ ...design, tasks });
      return { tasks, se_beta: s, mde_80: minimumDetectableEffect(s, mde) };
    }),
    mde_by_columns: columnsGrid.map((columns) => {
      const s = analyticStandardError({ ...design, columns });
      return { columns, se_beta: s, mde_80: minimumDetectableEffect(s, mde) };
    }),
  };
}
