import { levelReward, PENALTY_GAMMA } from "./levels.ts";
import { MASK_REASONS, type MaskReason, maskSteps, type VerdictMode } from "./mask.ts";
import type { StepRecord } from "./schema.ts";

/** The recipes of docs/reward.md: A mean, B mean with the level-0 penalty, C PRM-weighted mean. */
export type Recipe = "A" | "B" | "C";

/** All recipes. */
export const RECIPES: readonly Recipe[] = ["A", "B", "C"];

/** One line of rewards.jsonl (docs/FORMAT.md section 7, plus recipe-C extras). */
export interface RewardLine {
  /** The trajectory. */
  readonly trajectory_id: string;
  /** Recipe that produced the reward. */
  readonly recipe: Recipe;
  /** `null` when every step is masked (never 0). */
  readonly reward: number | null;
  /** Steps of the trajectory. */
  readonly n_steps: number;
  /** Steps masked out of the reward. */
  readonly n_masked: number;
  /** Masked steps per reason (all reasons listed). */
  readonly mask_reasons: Readonly<Record<MaskReason, number>>;
  /** Which verdict records the masks used. */
  readonly verdict_mode: VerdictMode;
  /** Recipe B only: whether the 0.30 factor applied; false for A and C. */
  readonly penalized: boolean;
  /** Recipe C only: `uniform` when every unmasked step has weight 1, else `prm`. */
  readonly weights?: "uniform" | "prm";
  /** Recipe C only: true when the weights are uniform, so C equals A exactly. */
  readonly equals_recipe_a?: boolean;
}

/** Options of {@linkcode trajectoryReward}. */
export interface TrajectoryRewardOptions {
  /**
   * Recipe C weight of the step with the given `order` (weights > 0).
   * @default {() => 1}
   */
  readonly weight?: (order: number) => number;
}

/**
 * Reward of one trajectory under a recipe (docs/reward.md). Steps are taken in
 * `order`; masking comes first (see `maskSteps`), then
 *
 * - A: mean of the level rewards of the unmasked steps;
 * - B: A x 0.30 when any unmasked step has level 0 (once, not compounding);
 * - C: sum(w r) / sum(w) over the unmasked steps; masked steps never enter,
 *   whatever their weight. With all weights 1 (the default) C equals A and
 *   the line says so.
 *
 * When every step is masked the reward is `null`, never 0.
 *
 * @param steps One trajectory's steps, non-empty, distinct orders.
 * @param recipe A, B or C.
 * @param options Recipe C weights.
 * @returns The rewards.jsonl line.
 *
 * @example Recipe B penalises a level-0 step once
 * ```ts
 * import { trajectoryReward } from "./recipe.ts";
 * import { ok, deepEqual } from "node:assert/strict";
 * const steps = [3, 0, 0, 2].map((level, order) => ({ trajectory_id: "t", order, level }));
 * const b = trajectoryReward(steps, "B");
 * ok(Math.abs(b.reward! - 0.3 * (0.85 + 0.6) / 4) < 1e-15);
 * deepEqual(b.penalized, true);
 * deepEqual(trajectoryReward([{ trajectory_id: "t", order: 0, level: -1 }], "A").reward, null);
 * ```
 */
export function trajectoryReward(
  steps: readonly StepRecord[],
  recipe: Recipe,
  options: TrajectoryRewardOptions = {},
): RewardLine {
  const sorted = [...steps].sort((x, y) => x.order - y.order);
  const { mode, reasons } = maskSteps(sorted);
  const counts = Object.fromEntries(MASK_REASONS.map((r) => [r, 0])) as Record<MaskReason, number>;
  let sum = 0, weightSum = 0, used = 0, anyZero = false, uniform = true;
  sorted.forEach((step, i) => {
    const reason = reasons[i]!;
    if (reason !== null) {
      counts[reason]++;
      return;
    }
    const r = levelReward(step.level)!;
    const w = recipe === "C" ? (options.weight?.(step.order) ?? 1) : 1;
    if (w !== 1) uniform = false;
    sum += w * r;
    weightSum += w;
    used++;
    if (step.level === 0) anyZero = true;
  });
  const mean = used === 0 ? null : sum / weightSum;
  const penalized = recipe === "B" && mean !== null && anyZero;
  const line: RewardLine = {
    trajectory_id: sorted[0]?.trajectory_id ?? "",
    recipe,
    reward: penalized ? mean! * PENALTY_GAMMA : mean,
    n_steps: sorted.length,
    n_masked: sorted.length - used,
    mask_reasons: counts,
    verdict_mode: mode,
    penalized,
  };
  return recipe === "C"
    ? { ...line, weights: uniform ? "uniform" : "prm", equals_recipe_a: uniform }
    : line;
}
