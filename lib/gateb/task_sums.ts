/**
 * Per-task sums of every Gate B quantity on each arm, the input of the
 * point estimates and of the paired bootstrap.
 *
 * @module
 */

import type { Attempt } from "../core/types.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { GateBPairs } from "./checks.ts";

/** A ratio of per-task sums on each arm: value = sum num / sum den. */
export interface RatioQuantity {
  readonly bareNum: Float64Array;
  readonly bareDen: Float64Array;
  readonly eqNum: Float64Array;
  readonly eqDen: Float64Array;
}

/** Names of the behaviour quantities, in output order. */
export const BEHAVIOUR_QUANTITIES = [
  "failure_rate",
  "steps",
  "tokens",
  "tokens_prompt",
  "tokens_completion",
] as const;

/** Tokens of an attempt; a failed attempt without a tokens field counts 0, a completed one makes the quantity unavailable. */
function tokenCount(
  a: Attempt,
  part: (t: { prompt: number; completion: number }) => number,
): number | null {
  if (a.tokens) return part(a.tokens);
  return a.status === "failed" ? 0 : null;
}

type Picker = (a: Attempt) => number | null;

/** Per completed (paired) attempt: sum of `pick` per task and episodes per task; null when a value is missing. */
function perEpisode(
  pairs: GateBPairs,
  index: ReadonlyMap<string, number>,
  pick: Picker,
): RatioQuantity | null {
  const side = (list: readonly Attempt[]) => {
    const num = new Float64Array(index.size), den = new Float64Array(index.size);
    for (let i = 0; i < list.length; i++) {
      const v = pick(list[i]!);
      if (v === null || !Number.isFinite(v)) return null;
      const g = index.get(pairs.episodes[i]!.task_id)!;
      num[g] = num[g]! + v;
      den[g] = den[g]! + 1;
    }
    return { num, den };
  };
  const b = side(pairs.bare);
  if (!b) return null;
  const e = side(pairs.equipped);
  if (!e) return null;
  return { bareNum: b.num, bareDen: b.den, eqNum: e.num, eqDen: e.den };
}

/**
 * Over every attempt of the planned tasks: sum of `pick` per task, and as
 * denominator attempts per task (`perAttemptDen`) or planned episodes per
 * task; null when a value is missing.
 */
function allAttempts(
  bare: LoadedRun,
  equipped: LoadedRun,
  pairs: GateBPairs,
  index: ReadonlyMap<string, number>,
  pick: Picker,
  perAttemptDen: boolean,
): RatioQuantity | null {
  const side = (run: LoadedRun) => {
    const num = new Float64Array(index.size), den = new Float64Array(index.size);
    for (const a of run.attempts) {
      const g = index.get(a.task_id);
      if (g === undefined) continue;
      const v = pick(a);
      if (v === null || !Number.isFinite(v)) return null;
      num[g] = num[g]! + v;
      if (perAttemptDen) den[g] = den[g]! + 1;
    }
    if (!perAttemptDen) { for (const e of pairs.episodes) den[index.get(e.task_id)!]! += 1; }
    return { num, den };
  };
  const b = side(bare), e = side(equipped);
  if (!b || !e) return null;
  return { bareNum: b.num, bareDen: b.den, eqNum: e.num, eqDen: e.den };
}

/**
 * The per-task sums of every compared quantity: `metric:<m>` for each
 * metric (mean over planned episodes of the completed attempt's value),
 * then the behaviour quantities (failure rate over all attempts, steps of
 * the completed attempt, tokens per episode summed over all its attempts).
 * A quantity with a missing value on either arm is null.
 *
 * @param bare The bare run.
 * @param equipped The equipped run.
 * @param pairs Paired completed attempts (`gateBIssues`).
 * @param index Task numbering ({@linkcode taskIndex}).
 * @param metricNames `reward` and the reward components.
 * @returns [name, sums or null] in output order.
 *
 * @example
 * ```ts
 * import { taskSums } from "./task_sums.ts";
 * import { deepEqual } from "node:assert/strict";
 * const attempt = (task_id: string, reward: number) =>
 *   ({ split: "test", task_id, sample_id: 0, status: "completed", reward, rewards: {}, steps: 2, tokens: { prompt: 3, completion: 1 } });
 * const pairs = { episodes: [attempt("a", 0)], bare: [attempt("a", 0.25)], equipped: [attempt("a", 0.75)] };
 * const run = (a: unknown) => ({ attempts: [a] });
 * const sums = taskSums(run(pairs.bare[0]) as never, run(pairs.equipped[0]) as never, pairs as never, new Map([["a", 0]]), ["reward"]);
 * deepEqual(sums.map(([name]) => name), ["metric:reward", "failure_rate", "steps", "tokens", "tokens_prompt", "tokens_completion"]);
 * deepEqual([sums[0]![1]!.bareNum[0], sums[0]![1]!.eqNum[0], sums[3]![1]!.eqNum[0]], [0.25, 0.75, 4]);
 * ```
 */
export function taskSums(
  bare: LoadedRun,
  equipped: LoadedRun,
  pairs: GateBPairs,
  index: ReadonlyMap<string, number>,
  metricNames: readonly string[],
): [string, RatioQuantity | null][] {
  const both = (pick: Picker) => perEpisode(pairs, index, pick);
  const all = (pick: Picker, perAttemptDen: boolean) =>
    allAttempts(bare, equipped, pairs, index, pick, perAttemptDen);
  return [
    ...metricNames.map((m): [string, RatioQuantity | null] => [
      `metric:${m}`,
      both((a) => (m === "reward" ? a.reward : a.rewards[m] ?? null)),
    ]),
    ["failure_rate", all((a) => (a.status === "failed" ? 1 : 0), true)],
    ["steps", both((a) => a.steps)],
    ["tokens", all((a) => tokenCount(a, (t) => t.prompt + t.completion), false)],
    ["tokens_prompt", all((a) => tokenCount(a, (t) => t.prompt), false)],
    ["tokens_completion", all((a) => tokenCount(a, (t) => t.completion), false)],
  ];
}
