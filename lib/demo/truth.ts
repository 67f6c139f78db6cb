/**
 * The known truth of a simulated gate: per version and metric, the average
 * marginal effect over the gate's rows and the expected value of the
 * paired-delta no-intercept OLS coefficient given the design, both with the
 * rollout noise integrated out exactly.
 *
 * @module
 */
import { type LatentModel, latentShift } from "./latent.ts";
import { REWARD_COMPONENTS } from "./params.ts";
import { solveSpd } from "../math/packed.ts";
import { type DemoTask, expectedWebshopRewards, type WebshopRewards } from "./webshop.ts";

/** Metrics of every truth table: `reward` first, then the components. */
export const TRUTH_METRICS = ["reward", ...REWARD_COMPONENTS] as const;

/** One row of a gate: its task and the versions injected per slot. */
export interface TruthRow {
  readonly task: DemoTask;
  /** slot_id to version_id or null, in slot order. */
  readonly slots: Readonly<Record<string, string | null>>;
}

/** A design column for the truth: version and its slot. */
export interface TruthColumn {
  readonly version_id: string;
  readonly slot_id: string;
}

/** Per metric, per version id: a number rounded to 6 decimals. */
export type EffectTable = Record<string, Record<string, number>>;

const round6 = (x: number): number => {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
};

function metricValue(r: WebshopRewards, metric: string): number {
  return metric === "reward" ? r.r_strict : r[metric as keyof WebshopRewards];
}

function injectedOf(slots: Readonly<Record<string, string | null>>): string[] {
  return Object.values(slots).filter((v): v is string => v !== null);
}

/**
 * Average marginal effect of each version: the mean over rows of the
 * expected metric with the version's slot set to that version minus with
 * the slot absent (other slots as drawn), rounded to 6 decimals.
 *
 * @param rows The gate's rows.
 * @param columns The design columns.
 * @param model The true latent model.
 * @returns Effects per metric and version.
 */
export function averageMarginalEffects(
  rows: readonly TruthRow[],
  columns: readonly TruthColumn[],
  model: LatentModel,
): EffectTable {
  const sums = new Map<string, number[]>();
  for (const col of columns) sums.set(col.version_id, TRUTH_METRICS.map(() => 0));
  for (const row of rows) {
    for (const col of columns) {
      const on = injectedOf({ ...row.slots, [col.slot_id]: col.version_id });
      const off = injectedOf({ ...row.slots, [col.slot_id]: null });
      const a = expectedWebshopRewards(row.task, latentShift(model, on));
      const b = expectedWebshopRewards(row.task, latentShift(model, off));
      const acc = sums.get(col.version_id)!;
      TRUTH_METRICS.forEach((m, k) => acc[k]! += metricValue(a, m) - metricValue(b, m));
    }
  }
  const out: EffectTable = {};
  TRUTH_METRICS.forEach((m, k) => {
    out[m] = {};
    for (const col of columns) {
      out[m][col.version_id] = round6(sums.get(col.version_id)![k]! / rows.length);
    }
  });
  return out;
}

/**
 * Solves the symmetric positive definite normal equations `a x = b` (k x k,
 * row-major) with the one Cholesky solver of lib/math/packed.ts.
 *
 * @throws {RangeError} When `a` is singular under the rank rule of lib/math/rank.ts.
 */
function solveNormalEquations(a: Float64Array, b: Float64Array, k: number): Float64Array {
  const x = solveSpd(a, b, k);
  if (!x) throw new RangeError("Cannot solve normal equations: design is rank deficient");
  return x;
}

/**
 * Expected paired-delta no-intercept OLS coefficients given the design:
 * `(X'X)^-1 X' mu` with `mu_i` the expected masked minus the expected bare
 * metric of row i (rollout noise integrated out). This is what a refit of
 * the gate estimates up to rollout noise. Rounded to 6 decimals.
 *
 * @param rows The gate's rows (pooled over rounds when several).
 * @param columns The design columns.
 * @param model The true latent model.
 * @returns Coefficients per metric and version.
 * @throws {RangeError} When the design is rank deficient.
 *
 * @example
 * ```ts
 * import { expectedOlsCoefficients } from "./truth.ts";
 * import { ok } from "node:assert/strict";
 * const task = { task_id: "t", difficulty: 0, offsets: [0, 0, 0, 0] as const, nAttr: 1, nOpt: 1 };
 * const model = { checkpoint: "ckpt-a", effects: new Map([["a", [1, 1, 1, 1] as const]]), interactions: [] };
 * const rows = [{ task, slots: { a: "a" } }, { task, slots: { a: null } }];
 * const beta = expectedOlsCoefficients(rows, [{ version_id: "a", slot_id: "a" }], model);
 * ok(beta.reward!.a! > 0);
 * ```
 */
export function expectedOlsCoefficients(
  rows: readonly TruthRow[],
  columns: readonly TruthColumn[],
  model: LatentModel,
): EffectTable {
  const beta = expectedNormalSolution(
    rows,
    model,
    columns.length,
    (row) => designRow(row, columns),
  );
  const out: EffectTable = {};
  TRUTH_METRICS.forEach((m, mi) => {
    out[m] = {};
    columns.forEach((c, i) => (out[m]![c.version_id] = round6(beta[mi]![i]!)));
  });
  return out;
}

/** The 0/1 design row of a truth row. */
function designRow(row: TruthRow, columns: readonly TruthColumn[]): number[] {
  return columns.map((c) => (row.slots[c.slot_id] === c.version_id ? 1 : 0));
}

/**
 * Solves the normal equations `(Z'Z) b = Z' mu` per metric for the design
 * rows `z(row)` (k columns, 0/1), with `mu` the expected masked minus the
 * expected bare metric of each row.
 */
function expectedNormalSolution(
  rows: readonly TruthRow[],
  model: LatentModel,
  k: number,
  z: (row: TruthRow) => readonly number[],
): Float64Array[] {
  const xtx = new Float64Array(k * k);
  const xty = TRUTH_METRICS.map(() => new Float64Array(k));
  for (const row of rows) {
    const x = z(row);
    for (let i = 0; i < k; i++) {
      if (!x[i]) continue;
      for (let j = 0; j < k; j++) if (x[j]) xtx[i * k + j]! += 1;
    }
    const masked = expectedWebshopRewards(row.task, latentShift(model, injectedOf(row.slots)));
    const bare = expectedWebshopRewards(row.task, latentShift(model, []));
    TRUTH_METRICS.forEach((m, mi) => {
      const mu = metricValue(masked, m) - metricValue(bare, m);
      for (let i = 0; i < k; i++) if (x[i]) xty[mi]![i]! += mu;
    });
  }
  return TRUTH_METRICS.map((_, mi) => solveNormalEquations(xtx, xty[mi]!, k));
}

/**
 * Expected coefficient of one pair's product column when it is added to the
 * paired-delta no-intercept OLS (what the interaction screen estimates for
 * that pair up to rollout noise): the last entry of `(Z'Z)^-1 Z' mu` with
 * `Z = [X, x_a x_b]` and `mu_i` the expected masked minus the expected bare
 * metric of row i. Rounded to 6 decimals.
 *
 * @param rows The gate's rows.
 * @param columns The design columns.
 * @param model The true latent model.
 * @param pair Version ids of the two columns.
 * @returns The product coefficient per metric.
 * @throws {RangeError} When a version is not a column or the augmented design is rank deficient.
 *
 * @example
 * ```ts
 * import { expectedProductCoefficient } from "./truth.ts";
 * import { ok } from "node:assert/strict";
 * const task = { task_id: "t", difficulty: 0, offsets: [0, 0, 0, 0] as const, nAttr: 1, nOpt: 1 };
 * const model = {
 *   checkpoint: "ckpt-a",
 *   effects: new Map([["a", [1, 1, 1, 1] as const], ["b", [1, 1, 1, 1] as const]]),
 *   interactions: [{ versions: ["a", "b"] as const, effect: [-2, -2, -2, -2] as const }],
 * };
 * const rows = [
 *   { task, slots: { a: "a", b: null } }, { task, slots: { a: null, b: "b" } },
 *   { task, slots: { a: "a", b: "b" } }, { task, slots: { a: null, b: null } },
 * ];
 * const cols = [{ version_id: "a", slot_id: "a" }, { version_id: "b", slot_id: "b" }];
 * ok(expectedProductCoefficient(rows, cols, model, ["a", "b"]).reward! < 0);
 * ```
 */
export function expectedProductCoefficient(
  rows: readonly TruthRow[],
  columns: readonly TruthColumn[],
  model: LatentModel,
  pair: readonly [string, string],
): Record<string, number> {
  const ia = columns.findIndex((c) => c.version_id === pair[0]);
  const ib = columns.findIndex((c) => c.version_id === pair[1]);
  if (ia < 0 || ib < 0) {
    throw new RangeError(
      `Cannot compute the product coefficient: ${pair.join(" x ")} are not columns`,
    );
  }
  const k = columns.length + 1;
  const beta = expectedNormalSolution(rows, model, k, (row) => {
    const x = designRow(row, columns);
    x.push(x[ia]! * x[ib]!);
    return x;
  });
  const out: Record<string, number> = {};
  TRUTH_METRICS.forEach((m, mi) => (out[m] = round6(beta[mi]![k - 1]!)));
  return out;
}

/**
 * Expected metric means of a whole arm over tasks (every task with the same
 * injected versions), rounded to 6 decimals.
 */
export function expectedArmMeans(
  tasks: readonly DemoTask[],
  injected: readonly string[],
  model: LatentModel,
): Record<string, number> {
  const out: Record<string, number> = {};
  const sums = TRUTH_METRICS.map(() => 0);
  for (const task of tasks) {
    const r = expectedWebshopRewards(task, latentShift(model, injected));
    TRUTH_METRICS.forEach((m, k) => sums[k]! += metricValue(r, m));
  }
  TRUTH_METRICS.forEach((m, k) => (out[m] = round6(sums[k]! / tasks.length)));
  return out;
}
