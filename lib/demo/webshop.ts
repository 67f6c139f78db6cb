/**
 * A WebShop-like reward model on a latent scale: drawing one rollout's
 * reward components, and their exact expectation (rollout shock integrated
 * by Gauss-Hermite quadrature).
 *
 * @module
 */
import type { Prng } from "../math/prng.ts";
import { DEMO_NOISE, REWARD_DECIMALS } from "./params.ts";

/** A task of the demo: difficulty and the structure of its goal. */
export interface DemoTask {
  readonly task_id: string;
  /** Shared difficulty on the latent scale (added to every component). */
  readonly difficulty: number;
  /** Per-component task offsets (type, attr, option, price). */
  readonly offsets: readonly [number, number, number, number];
  /** Number of required attributes (1..4). */
  readonly nAttr: number;
  /** Number of required options (1..3). */
  readonly nOpt: number;
}

/** Reward components of one rollout. */
export interface WebshopRewards {
  readonly r_strict: number;
  readonly r_success: number;
  readonly r_type: number;
  readonly r_attr: number;
  readonly r_option: number;
  readonly r_price: number;
}

/** Rounds to the demo's fixed number of decimals. */
export function roundReward(x: number, decimals: number = REWARD_DECIMALS): number {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return r === 0 ? 0 : r; // no -0
}

/** Standard normal draw (Box-Muller, one of the pair). */
export function normalDraw(prng: Prng): number {
  const u1 = 1 - prng.nextFloat(); // (0, 1]
  const u2 = prng.nextFloat();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

function probabilities(task: DemoTask, shift: readonly number[], shock: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < 4; c++) {
    out.push(sigmoid(DEMO_NOISE.base[c]! + task.difficulty + task.offsets[c]! + shift[c]! + shock));
  }
  return out;
}

/**
 * Draws the reward components of one rollout. `shift` is the latent shift
 * of (type, attr, option, price) from checkpoint and injected chunks.
 * r_type is 1, 0.5 or 0; r_attr and r_option are matched fractions; r_price
 * is 0 or 1; r_strict is WebShop's score `r_type * (attrs matched + options
 * matched + price ok) / (nAttr + nOpt + 1)`, which is 1 exactly on success.
 *
 * @param task The task.
 * @param shift Latent shift per component.
 * @param prng Source of randomness.
 * @returns Rounded components.
 *
 * @example
 * ```ts
 * import { drawWebshopRewards } from "./webshop.ts";
 * import { createPrng } from "../math/prng.ts";
 * import { ok } from "node:assert/strict";
 * const task = { task_id: "t", difficulty: 0, offsets: [0, 0, 0, 0] as const, nAttr: 2, nOpt: 1 };
 * const r = drawWebshopRewards(task, [0, 0, 0, 0], createPrng(1));
 * ok(r.r_success === (r.r_strict === 1 ? 1 : 0));
 * ```
 */
export function drawWebshopRewards(
  task: DemoTask,
  shift: readonly number[],
  prng: Prng,
): WebshopRewards {
  const shock = DEMO_NOISE.rolloutSd * normalDraw(prng);
  const [pType, pAttr, pOpt, pPrice] = probabilities(task, shift, shock) as [
    number,
    number,
    number,
    number,
  ];
  const type = prng.nextFloat() < pType
    ? 1
    : prng.nextFloat() < DEMO_NOISE.typeHalfProbability
    ? 0.5
    : 0;
  let attrs = 0;
  for (let a = 0; a < task.nAttr; a++) if (prng.nextFloat() < pAttr) attrs++;
  let opts = 0;
  for (let o = 0; o < task.nOpt; o++) if (prng.nextFloat() < pOpt) opts++;
  const price = prng.nextFloat() < pPrice ? 1 : 0;
  const success = type === 1 && attrs === task.nAttr && opts === task.nOpt && price === 1 ? 1 : 0;
  const strict = (type * (attrs + opts + price)) / (task.nAttr + task.nOpt + 1);
  return {
    r_strict: roundReward(strict),
    r_success: success,
    r_type: type,
    r_attr: roundReward(attrs / task.nAttr),
    r_option: roundReward(opts / task.nOpt),
    r_price: price,
  };
}

// Probabilists' Gauss-Hermite rule, 12 nodes (numpy.polynomial.hermite_e.hermegauss(12),
// weights divided by sqrt(2 pi) so they sum to 1): E[g(Z)] for Z ~ N(0, 1).
const GH_NODES = [
  -5.500901704467748,
  -4.2718258479322815,
  -3.2237098287700974,
  -2.259464451000799,
  -1.3403751971516167,
  -0.44440300194413895,
  0.44440300194413895,
  1.3403751971516167,
  2.259464451000799,
  3.2237098287700974,
  4.2718258479322815,
  5.500901704467748,
];
const GH_WEIGHTS = [
  1.4999271676371626e-07,
  4.837184922590645e-05,
  0.0022033806875332005,
  0.029116687912364176,
  0.14696704804532998,
  0.32166436151283,
  0.32166436151283,
  0.14696704804532998,
  0.029116687912364176,
  0.0022033806875332005,
  4.837184922590645e-05,
  1.4999271676371626e-07,
];

/**
 * Exact expected reward components of one rollout (before rounding), the
 * rollout shock integrated out by 12-node Gauss-Hermite quadrature. Used
 * for the demo's truth.
 *
 * @param task The task.
 * @param shift Latent shift per component.
 * @returns Expected components.
 *
 * @example
 * ```ts
 * import { expectedWebshopRewards } from "./webshop.ts";
 * import { ok } from "node:assert/strict";
 * const task = { task_id: "t", difficulty: 0, offsets: [0, 0, 0, 0] as const, nAttr: 2, nOpt: 1 };
 * const low = expectedWebshopRewards(task, [0, 0, 0, 0]);
 * const high = expectedWebshopRewards(task, [1, 1, 1, 1]);
 * ok(high.r_strict > low.r_strict && low.r_success < low.r_strict);
 * ```
 */
export function expectedWebshopRewards(task: DemoTask, shift: readonly number[]): WebshopRewards {
  const acc = [0, 0, 0, 0, 0, 0];
  const half = DEMO_NOISE.typeHalfProbability;
  for (let k = 0; k < GH_NODES.length; k++) {
    const w = GH_WEIGHTS[k]!;
    const [pType, pAttr, pOpt, pPrice] = probabilities(
      task,
      shift,
      DEMO_NOISE.rolloutSd * GH_NODES[k]!,
    ) as [number, number, number, number];
    const eType = pType + 0.5 * half * (1 - pType);
    const eCredit = (task.nAttr * pAttr + task.nOpt * pOpt + pPrice) / (task.nAttr + task.nOpt + 1);
    acc[0]! += w * eType * eCredit;
    acc[1]! += w * pType * pAttr ** task.nAttr * pOpt ** task.nOpt * pPrice;
    acc[2]! += w * eType;
    acc[3]! += w * pAttr;
    acc[4]! += w * pOpt;
    acc[5]! += w * pPrice;
  }
  return {
    r_strict: acc[0]!,
    r_success: acc[1]!,
    r_type: acc[2]!,
    r_attr: acc[3]!,
    r_option: acc[4]!,
    r_price: acc[5]!,
  };
}

/**
 * Draws `n` tasks with ids `${prefix}-0000`... (difficulty, offsets,
 * attribute and option counts).
 */
export function drawTasks(prefix: string, n: number, prng: Prng): DemoTask[] {
  const tasks: DemoTask[] = [];
  for (let i = 0; i < n; i++) {
    const difficulty = DEMO_NOISE.taskDifficultySd * normalDraw(prng);
    const offsets = [0, 0, 0, 0].map(() => DEMO_NOISE.taskComponentSd * normalDraw(prng)) as [
      number,
      number,
      number,
      number,
    ];
    tasks.push({
      task_id: `${prefix}-${String(i).padStart(4, "0")}`,
      difficulty,
      offsets,
      nAttr: 1 + prng.nextInt(4),
      nOpt: 1 + prng.nextInt(3),
    });
  }
  return tasks;
}
