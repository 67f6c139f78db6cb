/**
 * Gate B: the equipped agent against the bare model on held-out tasks,
 * task-aligned, with a paired task bootstrap.
 *
 * @module
 */

import type { Attempt, RunRef } from "../core/types.ts";
import { createPrng } from "../core/prng.ts";
import { lowerQuantileSorted, QUANTILE_RULE } from "../core/quantile.ts";
import { generatorMeta } from "../core/meta.ts";
import type { ProgressCallback } from "../core/progress.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { GateBPairs } from "./checks.ts";

/** One compared quantity. Undefined numbers are null. */
export interface ComparedQuantity {
  readonly bare: number | null;
  readonly equipped: number | null;
  /** equipped - bare. */
  readonly difference: number | null;
  /** Paired task-bootstrap percentile interval of the difference; null without bootstrap. */
  readonly ci: readonly [number, number] | null;
  readonly bare_ci: readonly [number, number] | null;
  readonly equipped_ci: readonly [number, number] | null;
}

/** comparison.json. */
export interface ComparisonOutput {
  readonly format: "gatelab.comparison/v1";
  readonly bare: RunRef;
  readonly equipped: RunRef;
  readonly split: string;
  readonly n_tasks: number;
  readonly n_pairs: number;
  readonly selected_skills: readonly string[];
  readonly max_skills: number | null;
  readonly checked_fields: readonly string[];
  /** Gate A selection.json the equipped skill was checked against (--selection), or null. */
  readonly selection_file: string | null;
  readonly bootstrap: {
    readonly draws: number;
    readonly seed: number;
    readonly resample: "tasks";
    readonly interval: "percentile";
    readonly level: 0.95;
    readonly quantile_rule: string;
    readonly draw_order: string;
  };
  readonly conventions: Readonly<Record<string, string>>;
  /** reward and every reward component (r_success among them). */
  readonly metrics: Readonly<Record<string, ComparedQuantity>>;
  /** failure_rate, steps, tokens (and its prompt / completion parts); null where a field is absent. */
  readonly behaviour: Readonly<Record<string, ComparedQuantity | null>>;
  readonly generator: { tool: string; version: string; command: string };
}

/** Options of {@linkcode compareRuns}. */
export interface CompareOptions {
  /** @default {10000} */
  readonly draws?: number;
  /** @default {20260927} */
  readonly seed?: number;
  /** @default {"compare"} */
  readonly command?: string;
  /** Fields checked equal (recorded). @default {[]} */
  readonly checkedFields?: readonly string[];
  /** Gate A selection.json the equipped skill was checked against. */
  readonly selectionFile?: string;
  readonly onProgress?: ProgressCallback;
}

/** Tokens of an attempt; a failed attempt without a tokens field counts 0, a completed one makes the quantity unavailable. */
function tokenCount(
  a: Attempt,
  part: (t: { prompt: number; completion: number }) => number,
): number | null {
  if (a.tokens) return part(a.tokens);
  return a.status === "failed" ? 0 : null;
}

/** A ratio of per-task sums on each arm: value = sum num / sum den. */
interface RatioQuantity {
  readonly bareNum: Float64Array;
  readonly bareDen: Float64Array;
  readonly eqNum: Float64Array;
  readonly eqDen: Float64Array;
}

/**
 * Compares an admissible bare/equipped pair (see `gateBIssues`).
 *
 * Every quantity is a ratio of sums over tasks, so one resampling scheme
 * serves all: metric means per episode (sum of values / episodes), failure
 * rate (failed attempts / attempts, all attempts of the planned episodes),
 * steps per episode (of the completed attempt), tokens per episode (summed
 * over every attempt of the episode, failed ones included: the cost paid).
 * The paired bootstrap resamples tasks (with all their samples) with
 * replacement, using the same tasks for both arms; draw b takes G tasks by
 * `prng.nextInt(G)` in order, tasks indexed in the bare manifest's order.
 *
 * @param bare The bare run.
 * @param equipped The equipped run.
 * @param pairs Paired completed attempts from `gateBIssues`.
 * @param options See {@linkcode CompareOptions}.
 * @returns The comparison.json document.
 *
 * @example The demo's Gate B pair, 200 draws
 * ```ts
 * import { compareRuns } from "./compare.ts";
 * import { gateBIssues } from "./checks.ts";
 * import { readRun } from "../load/read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const bare = await readRun("data/demo/gate-b/bare-test");
 * const equipped = await readRun("data/demo/gate-b/equipped-test");
 * if (!bare.ok || !equipped.ok) throw new Error("cannot read the demo's Gate B runs");
 * const { pairs } = gateBIssues(bare.value, equipped.value);
 * const c = compareRuns(bare.value, equipped.value, pairs!, { draws: 200, seed: 1 });
 * const r = c.metrics["reward"]!;
 * deepEqual([c.n_tasks, c.n_pairs], [300, 300]);
 * deepEqual(
 *   [r.bare, r.equipped, r.difference, r.ci].map((x) => JSON.stringify(x, (_k, v) => typeof v === "number" ? +v.toFixed(4) : v)),
 *   ["0.54", "0.9854", "0.4455", "[0.4126,0.4869]"],
 * );
 * ```
 */
export function compareRuns(
  bare: LoadedRun,
  equipped: LoadedRun,
  pairs: GateBPairs,
  options: CompareOptions = {},
): ComparisonOutput {
  const draws = options.draws ?? 10000;
  const seed = options.seed ?? 20260927;
  const taskIndex = new Map<string, number>();
  for (const e of pairs.episodes) {
    if (!taskIndex.has(e.task_id)) taskIndex.set(e.task_id, taskIndex.size);
  }
  const G = taskIndex.size;
  const components = bare.manifest.provenance.reward.components;
  const metricNames = ["reward", ...components];

  const perEpisode = (
    pick: (a: Attempt) => number | null,
    arm: "bare" | "equipped",
  ): RatioQuantity | null => {
    const list = arm === "bare" ? pairs.bare : pairs.equipped;
    const num = new Float64Array(G), den = new Float64Array(G);
    for (let i = 0; i < list.length; i++) {
      const v = pick(list[i]!);
      if (v === null || !Number.isFinite(v)) return null;
      const g = taskIndex.get(pairs.episodes[i]!.task_id)!;
      num[g] = num[g]! + v;
      den[g] = den[g]! + 1;
    }
    return { bareNum: num, bareDen: den, eqNum: num, eqDen: den };
  };
  const both = (pick: (a: Attempt) => number | null): RatioQuantity | null => {
    const b = perEpisode(pick, "bare"), e = perEpisode(pick, "equipped");
    if (!b || !e) return null;
    return { bareNum: b.bareNum, bareDen: b.bareDen, eqNum: e.eqNum, eqDen: e.eqDen };
  };
  /** Over every attempt of the planned episodes: sum of `pick` per task, and episodes per task as den. */
  const allAttempts = (
    pick: (a: Attempt) => number | null,
    perAttemptDen: boolean,
  ): RatioQuantity | null => {
    const side = (run: LoadedRun) => {
      const num = new Float64Array(G), den = new Float64Array(G);
      for (const a of run.attempts) {
        const g = taskIndex.get(a.task_id);
        if (g === undefined) continue;
        const v = pick(a);
        if (v === null || !Number.isFinite(v)) return null;
        num[g] = num[g]! + v;
        if (perAttemptDen) den[g] = den[g]! + 1;
      }
      if (!perAttemptDen) { for (const e of pairs.episodes) den[taskIndex.get(e.task_id)!]! += 1; }
      return { num, den };
    };
    const b = side(bare), e = side(equipped);
    if (!b || !e) return null;
    return { bareNum: b.num, bareDen: b.den, eqNum: e.num, eqDen: e.den };
  };

  const quantities: [string, RatioQuantity | null][] = [
    ...metricNames.map((m): [string, RatioQuantity | null] => [
      `metric:${m}`,
      both((a) => (m === "reward" ? a.reward : a.rewards[m] ?? null)),
    ]),
    ["failure_rate", allAttempts((a) => (a.status === "failed" ? 1 : 0), true)],
    ["steps", both((a) => a.steps)],
    ["tokens", allAttempts((a) => tokenCount(a, (t) => t.prompt + t.completion), false)],
    ["tokens_prompt", allAttempts((a) => tokenCount(a, (t) => t.prompt), false)],
    ["tokens_completion", allAttempts((a) => tokenCount(a, (t) => t.completion), false)],
  ];

  const ratio = (num: Float64Array, den: Float64Array, counts: Int32Array | null): number => {
    let n = 0, d = 0;
    for (let g = 0; g < G; g++) {
      const c = counts ? counts[g]! : 1;
      if (c === 0) continue;
      n += c * num[g]!;
      d += c * den[g]!;
    }
    return d > 0 ? n / d : NaN;
  };
  const live = quantities.filter((q): q is [string, RatioQuantity] => q[1] !== null);
  const drawsOf = live.map(() => ({
    bare: new Float64Array(draws),
    eq: new Float64Array(draws),
    diff: new Float64Array(draws),
  }));
  if (draws > 0 && G > 0) {
    const prng = createPrng(seed);
    const counts = new Int32Array(G);
    for (let b = 0; b < draws; b++) {
      counts.fill(0);
      for (let i = 0; i < G; i++) counts[prng.nextInt(G)]! += 1;
      live.forEach(([, q], j) => {
        const vb = ratio(q.bareNum, q.bareDen, counts), ve = ratio(q.eqNum, q.eqDen, counts);
        const d = drawsOf[j]!;
        d.bare[b] = vb;
        d.eq[b] = ve;
        d.diff[b] = ve - vb;
      });
      if (options.onProgress && ((b + 1) % 500 === 0 || b + 1 === draws)) {
        options.onProgress(b + 1, draws);
      }
    }
  }
  const interval = (x: Float64Array): [number, number] | null => {
    if (draws === 0) return null;
    const sorted = Float64Array.from(x).sort();
    const lo = lowerQuantileSorted(sorted, 0.025), hi = lowerQuantileSorted(sorted, 0.975);
    return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : null;
  };
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const results = new Map<string, ComparedQuantity>();
  live.forEach(([name, q], j) => {
    const vb = ratio(q.bareNum, q.bareDen, null), ve = ratio(q.eqNum, q.eqDen, null);
    const d = drawsOf[j]!;
    results.set(name, {
      bare: finite(vb),
      equipped: finite(ve),
      difference: finite(ve - vb),
      ci: interval(d.diff),
      bare_ci: interval(d.bare),
      equipped_ci: interval(d.eq),
    });
  });
  const metrics: Record<string, ComparedQuantity> = {};
  for (const m of metricNames) {
    const r = results.get(`metric:${m}`);
    if (r) metrics[m] = r;
  }
  const behaviour: Record<string, ComparedQuantity | null> = {};
  for (const name of ["failure_rate", "steps", "tokens", "tokens_prompt", "tokens_completion"]) {
    behaviour[name] = results.get(name) ?? null;
  }
  const ref = (r: LoadedRun): RunRef => ({
    run_id: r.manifest.run_id,
    run_dir: r.dir,
    sha256: r.sha256,
  });
  return {
    format: "gatelab.comparison/v1",
    bare: ref(bare),
    equipped: ref(equipped),
    split: bare.manifest.split,
    n_tasks: G,
    n_pairs: pairs.episodes.length,
    selected_skills: equipped.manifest.skill.selected_skills,
    max_skills: equipped.manifest.skill.max_skills,
    checked_fields: options.checkedFields ?? [],
    selection_file: options.selectionFile ?? null,
    bootstrap: {
      draws,
      seed,
      resample: "tasks",
      interval: "percentile",
      level: 0.95,
      quantile_rule: QUANTILE_RULE,
      draw_order:
        "per draw, G calls prng.nextInt(G) pick tasks (bare manifest order) with replacement; the same tasks for both arms; xoshiro128** seeded by createPrng(seed)",
    },
    conventions: {
      difference: "equipped - bare, task-aligned (paired by split, task_id, sample_id)",
      metrics: "mean over planned episodes of the completed attempt's value",
      failure_rate: "failed attempts / all attempts of the planned episodes",
      steps: "mean steps of the completed attempt per episode",
      tokens:
        "mean prompt + completion tokens per episode, summed over all its attempts (failed included)",
    },
    metrics,
    behaviour,
    generator: generatorMeta(options.command ?? "compare"),
  };
}
