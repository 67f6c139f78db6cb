/**
 * Recipe comparison (docs/reward.md, "Recipe comparison"): per recipe, the good-minus-bad
 * group mean difference with a fixed-seed bootstrap interval, and
 * Spearman's rho against a reference score.
 *
 * @module
 */
import { createPrng } from "../math/prng.ts";
import {
  type BootstrapOptions,
  resolveBootstrapOptions,
  type ResolvedBootstrapOptions,
} from "../core/bootstrap_options.ts";
import { percentileInterval } from "../math/quantile.ts";
import type { Recipe, RewardLine } from "./recipe.ts";
import type { GroupRecord } from "./schema.ts";
import type { RecipeComparison, RecipeComparisonResult } from "./reward_types.ts";
import { spearman } from "../heldout/rank_agreement.ts";
import { mean as ssMean } from "npm:simple-statistics@7.12.1";

export type { RecipeComparison, RecipeComparisonResult } from "./reward_types.ts";

/** Options of {@linkcode compareRecipes}: a bootstrap's (progress every 1,000 draws and at the end). */
export type CompareRecipesOptions = BootstrapOptions;

const mean = (xs: readonly number[]) => xs.length === 0 ? null : ssMean([...xs]);

/**
 * Compares recipes on labelled trajectory groups. A group member whose
 * reward is null (every step masked, the same under every recipe) is left
 * out and listed. The bootstrap resamples within groups: each draw takes
 * `n_good` indices with `prng.nextInt(n_good)`, then `n_bad` with
 * `prng.nextInt(n_bad)`, from one `createPrng(seed)` stream, members in
 * groups.jsonl order; the same indices serve every recipe, so recipes are
 * compared on identical resamples. Spearman's rho uses all scored members
 * with a reference (both groups).
 *
 * @param rewards Per recipe, the rewards.jsonl lines of all trajectories.
 * @param groups Group records (every id must have a reward line).
 * @param options Draws, seed, progress.
 * @returns Per recipe, in the order given, the comparison.
 * @throws {Error} When a group member has no reward line (check first).
 * @throws {RangeError} When `draws` is not a positive integer.
 *
 * @example
 * ```ts
 * import { compareRecipes } from "./compare.ts";
 * import { trajectoryReward } from "./recipe.ts";
 * import { deepEqual } from "node:assert/strict";
 * const line = (id: string, level: number) => trajectoryReward([{ trajectory_id: id, order: 0, level }], "A");
 * const r = compareRecipes({ A: [line("g", 4), line("b", 1)] }, [
 *   { trajectory_id: "g", group: "good", reference: 1 },
 *   { trajectory_id: "b", group: "bad", reference: 0 },
 * ], { draws: 50, seed: 1 });
 * deepEqual([r.recipes[0]!.difference, r.recipes[0]!.ci, r.recipes[0]!.spearman_rho], [0.7, [0.7, 0.7], 1]);
 * ```
 */
export function compareRecipes(
  rewards: Partial<Record<Recipe, readonly RewardLine[]>>,
  groups: readonly GroupRecord[],
  options: CompareRecipesOptions = {},
): RecipeComparisonResult {
  return compareResolved(rewards, groups, resolveBootstrapOptions(options));
}

/**
 * {@linkcode compareRecipes} on a bootstrap's options resolved at a door
 * (`rewardRun`), read unchanged.
 *
 * @param rewards Per recipe, the rewards.jsonl lines of all trajectories.
 * @param groups Group records (every id must have a reward line).
 * @param options Draws, seed and progress, resolved.
 * @returns Per recipe, in the order given, the comparison.
 */
export function compareResolved(
  rewards: Partial<Record<Recipe, readonly RewardLine[]>>,
  groups: readonly GroupRecord[],
  options: ResolvedBootstrapOptions,
): RecipeComparisonResult {
  const { draws, seed, onProgress } = options;
  const recipes = Object.keys(rewards) as Recipe[];
  const byId = recipes.map((recipe) => {
    const map = new Map<string, number | null>();
    for (const line of rewards[recipe]!) map.set(line.trajectory_id, line.reward);
    return map;
  });
  const rewardOf = (r: number, id: string): number | null => {
    const v = byId[r]!.get(id);
    if (v === undefined) throw new Error(`Cannot compare recipes: trajectory ${id} has no reward`);
    return v;
  };
  const excluded: string[] = [];
  const good: GroupRecord[] = [], bad: GroupRecord[] = [];
  for (const g of groups) {
    if (recipes.some((_, r) => rewardOf(r, g.trajectory_id) === null)) {
      excluded.push(g.trajectory_id);
    } else (g.group === "good" ? good : bad).push(g);
  }
  const values = recipes.map((_, r) => ({
    good: Float64Array.from(good, (g) => rewardOf(r, g.trajectory_id)!),
    bad: Float64Array.from(bad, (g) => rewardOf(r, g.trajectory_id)!),
  }));

  const nG = good.length, nB = bad.length;
  const stats = recipes.map(() => new Float64Array(nG > 0 && nB > 0 ? draws : 0));
  if (nG > 0 && nB > 0) {
    const prng = createPrng(seed);
    const gi = new Uint32Array(nG), bi = new Uint32Array(nB);
    for (let b = 0; b < draws; b++) {
      for (let i = 0; i < nG; i++) gi[i] = prng.nextInt(nG);
      for (let i = 0; i < nB; i++) bi[i] = prng.nextInt(nB);
      values.forEach((v, r) => {
        let sg = 0, sb = 0;
        for (let i = 0; i < nG; i++) sg += v.good[gi[i]!]!;
        for (let i = 0; i < nB; i++) sb += v.bad[bi[i]!]!;
        stats[r]![b] = sg / nG - sb / nB;
      });
      if (onProgress && ((b + 1) % 1000 === 0 || b + 1 === draws)) onProgress(b + 1, draws);
    }
  }

  const excludedSet = new Set(excluded);
  const withRef = groups.filter((g) =>
    g.reference !== undefined && g.reference !== null && !excludedSet.has(g.trajectory_id)
  );
  return {
    draws,
    seed,
    excluded_null: excluded,
    recipes: recipes.map((recipe, r): RecipeComparison => {
      const mg = mean([...values[r]!.good]), mb = mean([...values[r]!.bad]);
      const difference = mg === null || mb === null ? null : mg - mb;
      return {
        recipe,
        n_good: nG,
        n_bad: nB,
        mean_good: mg,
        mean_bad: mb,
        difference,
        ci: difference === null ? null : percentileInterval(stats[r]!),
        n_reference: withRef.length,
        spearman_rho: spearman(
          withRef.map((g) => rewardOf(r, g.trajectory_id)!),
          withRef.map((g) => g.reference!),
        ),
      };
    }),
  };
}
