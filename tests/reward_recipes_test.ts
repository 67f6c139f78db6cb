/**
 * Reward recipes and the recipe comparison against an independent Python
 * implementation. `python3 scripts/reference/reward_recipes.py` (numpy
 * 2.4, scipy 1.17) writes the fixture (tests/snapshots/reward_fixture/
 * steps.jsonl, groups.jsonl, prm_weights.json) and its reference numbers
 * (reference.json there): per-trajectory rewards of recipes A, B and C with
 * the FORMAT section 4 masking, mask reasons, the good-minus-bad difference
 * with a within-group bootstrap interval driven by the Python xoshiro128**
 * (same documented draw order), and Spearman's rho from
 * scipy.stats.spearmanr.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { run } from "../lib/cli/reward.ts";
import { compareRecipes } from "../lib/reward/compare.ts";
import { loadGroups, loadPrmWeights, loadSteps } from "../lib/reward/load.ts";
import { type Recipe, RECIPES, trajectoryReward } from "../lib/reward/recipe.ts";
import { computeRewards } from "../lib/reward/rewards.ts";

const DIR = new URL("./snapshots/reward_fixture/", import.meta.url).pathname;
const REF = JSON.parse(await Deno.readTextFile(`${DIR}reference.json`)) as {
  rewards: Record<Recipe, (number | null)[]>;
  masks: [string, Record<string, number>][];
  comparison: Record<
    Recipe,
    {
      difference: number;
      ci: [number, number];
      n_good: number;
      n_bad: number;
      n_reference: number;
      spearman_rho: number;
    }
  >;
};
const close = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) < 1e-12;

async function fixture() {
  const steps = await loadSteps(`${DIR}steps.jsonl`);
  ok(steps.ok);
  const { trajectories } = steps.value;
  const weights = await loadPrmWeights(`${DIR}prm_weights.json`, trajectories);
  const groups = await loadGroups(`${DIR}groups.jsonl`, trajectories);
  ok(weights.ok && groups.ok);
  return { trajectories, weights: weights.value.weights, groups: groups.value.groups };
}

Deno.test("reward: recipes A, B, C and mask reasons match the Python reference", async () => {
  const { trajectories, weights } = await fixture();
  for (const recipe of RECIPES) {
    const lines = computeRewards(trajectories, recipe, weights);
    lines.forEach((line, i) => {
      ok(close(line.reward, REF.rewards[recipe][i]!), `${recipe} ${line.trajectory_id}`);
      deepEqual([line.verdict_mode, line.mask_reasons], REF.masks[i]);
      deepEqual(line.n_masked, Object.values(REF.masks[i]![1]).reduce((s, n) => s + n, 0));
    });
  }
  // The all-masked trajectory: null, never 0, under every recipe.
  deepEqual(computeRewards(trajectories, "B").at(-1)!.reward, null);
});

Deno.test("reward: recipe comparison matches numpy bootstrap and scipy spearmanr", async () => {
  const { trajectories, weights, groups } = await fixture();
  const all = Object.fromEntries(RECIPES.map((r) => [r, computeRewards(trajectories, r, weights)]));
  const result = compareRecipes(all, groups, { draws: 3000, seed: 20260927 });
  deepEqual(result.excluded_null, ["tr-23"]);
  for (const row of result.recipes) {
    const ref = REF.comparison[row.recipe];
    deepEqual([row.n_good, row.n_bad, row.n_reference], [ref.n_good, ref.n_bad, ref.n_reference]);
    ok(close(row.difference, ref.difference), `${row.recipe} difference`);
    ok(close(row.ci![0], ref.ci[0]) && close(row.ci![1], ref.ci[1]), `${row.recipe} ci ${row.ci}`);
    ok(close(row.spearman_rho, ref.spearman_rho), `${row.recipe} rho`);
  }
});

Deno.test("reward: CLI writes rewards.jsonl and recipe_comparison.json", async () => {
  const out = await Deno.makeTempDir();
  const code = await run([
    `${DIR}steps.jsonl`,
    "--recipe",
    "C",
    "--prm-weights",
    `${DIR}prm_weights.json`,
    "--groups",
    `${DIR}groups.jsonl`,
    "--bootstrap",
    "3000",
    "--out",
    out,
    "--quiet",
  ]);
  deepEqual(code, 0);
  const lines = (await Deno.readTextFile(`${out}/rewards.jsonl`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  deepEqual(Object.keys(lines[0]).slice(0, 8), [
    "trajectory_id",
    "recipe",
    "reward",
    "n_steps",
    "n_masked",
    "mask_reasons",
    "verdict_mode",
    "penalized",
  ]);
  lines.forEach((l, i) => ok(close(l.reward, REF.rewards.C[i]!)));
  const comparison = JSON.parse(await Deno.readTextFile(`${out}/recipe_comparison.json`));
  ok(close(comparison.recipes.B.ci[0], REF.comparison.B.ci[0]));
  deepEqual(comparison.c_equals_a, false);
  deepEqual((await Array.fromAsync(Deno.readDir(out))).map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "recipe_comparison.json",
    "reward_tables.md",
    "reward_tables.tex",
    "rewards.csv",
    "rewards.jsonl",
    "rewards.parquet",
    "rewards_meta.json",
  ]);
  await Deno.remove(out, { recursive: true });
});

Deno.test("reward: bad input writes only validation.json and exits 2", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/steps.jsonl`,
    '{"trajectory_id":"a","order":0,"level":5}\nnot json\n{"trajectory_id":"a","order":1,"level":2}\n',
  );
  const code = await run([`${dir}/steps.jsonl`, "--recipe", "A", "--out", `${dir}/out`, "--quiet"]);
  deepEqual(code, 2);
  const v = JSON.parse(await Deno.readTextFile(`${dir}/out/validation.json`));
  deepEqual(v.issues.map((i: { code: string; line: number; path?: string }) => [i.code, i.line]), [
    ["schema_error", 1],
    ["parse_error", 2],
  ]);
  deepEqual((await Array.fromAsync(Deno.readDir(`${dir}/out`))).map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "validation.json",
  ]);
  await Deno.writeTextFile(`${dir}/w.json`, '{"a:7": 2, "a:x": 1, "b:0": 0}');
  await Deno.writeTextFile(`${dir}/steps.jsonl`, '{"trajectory_id":"a","order":0,"level":2}\n');
  deepEqual(
    await run([
      `${dir}/steps.jsonl`,
      "--recipe",
      "C",
      "--prm-weights",
      `${dir}/w.json`,
      "--out",
      `${dir}/o2`,
      "--quiet",
    ]),
    2,
  );
  const v2 = JSON.parse(await Deno.readTextFile(`${dir}/o2/validation.json`));
  deepEqual(v2.issues.map((i: { code: string; path?: string }) => [i.code, i.path]), [
    ["schema_error", "b:0"],
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("reward: C with uniform weights equals A; B never compounds; A stays in [0, 1]", () => {
  const step = fc.record({
    level: fc.integer({ min: -1, max: 4 }),
    verdict: fc.constantFrom(undefined, "final", "revoked", "provisional"),
  });
  fc.assert(
    fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (raw) => {
      const steps = raw.map((s, order) => ({
        trajectory_id: "t",
        order,
        level: s.level,
        ...(s.verdict ? { verdict: s.verdict as "final" | "revoked" | "provisional" } : {}),
      }));
      const a = trajectoryReward(steps, "A"), b = trajectoryReward(steps, "B");
      const c = trajectoryReward(steps, "C");
      if (c.reward !== a.reward || c.equals_recipe_a !== true) return false;
      if (a.reward === null) return b.reward === null && !b.penalized;
      if (a.reward < 0 || a.reward > 1) return false;
      return b.reward === (b.penalized ? a.reward * 0.3 : a.reward);
    }),
    { numRuns: 300 },
  );
});
