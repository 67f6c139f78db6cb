/**
 * The frozen level-to-reward mapping (docs/reward.md, "Level to reward") and the
 * recipe-B penalty factor (D6).
 *
 * @module
 */

/** Reward of each judged level: 4 -> 1.00, 3 -> 0.85, 2 -> 0.60, 1 -> 0.30, 0 -> 0.00. */
export const REWARD_BY_LEVEL: Readonly<Record<0 | 1 | 2 | 3 | 4, number>> = {
  4: 1.0,
  3: 0.85,
  2: 0.6,
  1: 0.3,
  0: 0.0,
};

/** Recipe B multiplies the trajectory mean by this when any unmasked step is level 0 (binary). */
export const PENALTY_GAMMA = 0.3;

/**
 * Reward of a step level; level -1 ("no applicable rule") is masked and
 * returns `null`, never a number.
 *
 * @param level Step level in -1..4.
 * @returns The reward, or `null` for level -1.
 * @throws {RangeError} For a level outside -1..4.
 *
 * @example
 * ```ts
 * import { levelReward } from "./levels.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([4, 3, 2, 1, 0, -1].map(levelReward), [1, 0.85, 0.6, 0.3, 0, null]);
 * ```
 */
export function levelReward(level: number): number | null {
  if (level === -1) return null;
  const reward = REWARD_BY_LEVEL[level as 0 | 1 | 2 | 3 | 4];
  if (reward === undefined) {
    throw new RangeError(`Cannot map level ${level} to a reward: levels are -1..4`);
  }
  return reward;
}
