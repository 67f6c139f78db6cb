/**
 * Reward recipes: the bundle, its report section and the summary table of one recipe (`gl.reward.rewardSummaryTable`).
 *
 * @module
 */
export { rewardBundle, rewardSection, rewardSummaryTable } from "../reward/mod.ts";
