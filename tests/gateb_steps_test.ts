/**
 * The small steps `compareRuns` orchestrates (lib/gateb), each on a
 * hand-made input whose answer is worked out in the test. The comparison as
 * a whole is checked against numpy in tests/gateb_compare_test.ts.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  comparedQuantity,
  drawInterval,
  pairedTaskBootstrap,
  ratioOfSums,
  taskIndex,
  taskSums,
} from "../lib/gateb/mod.ts";
import { createPrng } from "../lib/math/prng.ts";

const f = (...v: number[]) => Float64Array.from(v);

Deno.test("gateb steps: taskIndex numbers tasks by first appearance", () => {
  const e = (task_id: string, sample_id: number) => ({ split: "test", task_id, sample_id });
  const index = taskIndex([e("t3", 0), e("t1", 0), e("t3", 1), e("t2", 0), e("t1", 1)]);
  deepEqual([...index], [["t3", 0], ["t1", 1], ["t2", 2]]);
  equal(taskIndex([]).size, 0);
});

Deno.test("gateb steps: ratioOfSums weights tasks by their draw counts, NaN on an empty denominator", () => {
  const num = f(1, 2, 6), den = f(1, 2, 3);
  equal(ratioOfSums(num, den, null), 9 / 6);
  // counts 2, 0, 1: (2*1 + 6) / (2*1 + 3)
  equal(ratioOfSums(num, den, Int32Array.from([2, 0, 1])), 8 / 5);
  ok(Number.isNaN(ratioOfSums(num, den, Int32Array.from([0, 0, 0]))));
  ok(Number.isNaN(ratioOfSums(f(), f(), null)));
});

Deno.test("gateb steps: drawInterval is the lower empirical 2.5%/97.5% quantile pair, null without draws or at NaN", () => {
  const draws = Float64Array.from({ length: 1000 }, (_, i) => 999 - i);
  // floor(0.025 * 999) = 24, floor(0.975 * 999) = 974
  deepEqual(drawInterval(draws), [24, 974]);
  equal(drawInterval(f()), null);
  const withNaN = Float64Array.from({ length: 100 }, (_, i) => (i < 4 ? NaN : i));
  equal(drawInterval(withNaN), null); // the 4 NaN sort last (indices 96-99): index 96 reaches them
  deepEqual(drawInterval(Float64Array.from({ length: 100 }, (_, i) => (i < 3 ? NaN : i))), [5, 99]);
});

Deno.test("gateb steps: pairedTaskBootstrap draws tasks by prng.nextInt(G) in order, same tasks for both arms", () => {
  const q = { bareNum: f(0, 1, 0), bareDen: f(1, 1, 1), eqNum: f(1, 1, 0), eqDen: f(1, 1, 1) };
  const progress: number[] = [];
  const [d] = pairedTaskBootstrap([q], 3, {
    draws: 4,
    seed: 7,
    onProgress: (done) => progress.push(done),
  });
  // Replay the documented draw order with the same generator.
  const prng = createPrng(7);
  for (let b = 0; b < 4; b++) {
    const counts = [0, 0, 0];
    for (let i = 0; i < 3; i++) counts[prng.nextInt(3)]! += 1;
    const bare = counts[1]! / 3, eq = (counts[0]! + counts[1]!) / 3;
    equal(d!.bare[b], bare);
    equal(d!.eq[b], eq);
    equal(d!.diff[b], eq - bare);
  }
  deepEqual(progress, [4]);
  // No draws, or no tasks: zero-length or zero arrays, the generator untouched.
  equal(pairedTaskBootstrap([q], 3, { draws: 0, seed: 7 })[0]!.diff.length, 0);
  deepEqual(Array.from(pairedTaskBootstrap([q], 0, { draws: 2, seed: 7 })[0]!.eq), [0, 0]);
});

Deno.test("gateb steps: comparedQuantity gives arm means, difference and intervals; non-finite means are null", () => {
  const sums = { bareNum: f(1, 0), bareDen: f(2, 2), eqNum: f(2, 1), eqDen: f(2, 2) };
  const draws = { bare: f(0.25, 0.5), eq: f(0.75, 1), diff: f(0.5, 0.5) };
  deepEqual(comparedQuantity(sums, draws), {
    bare: 0.25,
    equipped: 0.75,
    difference: 0.5,
    ci: [0.5, 0.5],
    bare_ci: [0.25, 0.25],
    equipped_ci: [0.75, 0.75],
  });
  const empty = { bareNum: f(0), bareDen: f(0), eqNum: f(1), eqDen: f(1) };
  const none = { bare: f(), eq: f(), diff: f() };
  deepEqual(comparedQuantity(empty, none), {
    bare: null,
    equipped: 1,
    difference: null,
    ci: null,
    bare_ci: null,
    equipped_ci: null,
  });
});

Deno.test("gateb steps: taskSums counts failed attempts, tokens of every attempt, and drops a quantity with a missing value", () => {
  const attempt = (
    task_id: string,
    sample_id: number,
    status: "completed" | "failed",
    reward: number,
    extra: Record<string, unknown> = {},
  ) => ({
    split: "test",
    task_id,
    sample_id,
    status,
    reward,
    rewards: { r_success: reward > 0.5 ? 1 : 0 },
    steps: 3,
    tokens: { prompt: 10, completion: 2 },
    ...extra,
  });
  const episodes = [
    { split: "test", task_id: "a", sample_id: 0 },
    { split: "test", task_id: "b", sample_id: 0 },
  ];
  const bareDone = [attempt("a", 0, "completed", 0.25), attempt("b", 0, "completed", 0.75)];
  // The equipped arm failed once on task a before completing; the failure carries no tokens field.
  const failed = attempt("a", 0, "failed", 0, { tokens: undefined, steps: null });
  const eqDone = [
    attempt("a", 0, "completed", 1, { steps: 5 }),
    attempt("b", 0, "completed", 1, { tokens: undefined }),
  ];
  const pairs = { episodes, bare: bareDone, equipped: eqDone };
  const sums = new Map(
    taskSums(
      { attempts: bareDone } as never,
      { attempts: [failed, ...eqDone] } as never,
      pairs as never,
      taskIndex(episodes),
      ["reward", "r_success"],
    ),
  );
  deepEqual([...sums.keys()], [
    "metric:reward",
    "metric:r_success",
    "failure_rate",
    "steps",
    "tokens",
    "tokens_prompt",
    "tokens_completion",
  ]);
  const reward = sums.get("metric:reward")!;
  deepEqual([Array.from(reward.bareNum), Array.from(reward.eqNum)], [[0.25, 0.75], [1, 1]]);
  deepEqual(Array.from(sums.get("metric:r_success")!.bareNum), [0, 1]);
  const failures = sums.get("failure_rate")!;
  deepEqual([Array.from(failures.eqNum), Array.from(failures.eqDen)], [[1, 0], [2, 1]]);
  deepEqual(Array.from(sums.get("steps")!.eqNum), [5, 3]);
  // A completed attempt without tokens makes every token quantity unavailable.
  equal(sums.get("tokens"), null);
  equal(sums.get("tokens_prompt"), null);
  // With tokens on it, the failed attempt's missing tokens count 0, per planned episode.
  const withTokens = [eqDone[0]!, attempt("b", 0, "completed", 1)];
  const tokens = new Map(
    taskSums(
      { attempts: bareDone } as never,
      { attempts: [failed, ...withTokens] } as never,
      { episodes, bare: bareDone, equipped: withTokens } as never,
      taskIndex(episodes),
      ["reward"],
    ),
  ).get("tokens")!;
  deepEqual([Array.from(tokens.eqNum), Array.from(tokens.eqDen)], [[12, 12], [1, 1]]);
});
