/**
 * The study analysis: resolve slots, summarise arms, compare arms with the
 * paired seeds x tasks bootstrap, and account costs (docs/study.md; docs/FORMAT.md sections 3 and 6).
 *
 * @module
 */
import type { Issue, Result } from "../core/issue.ts";
import { createPrng } from "../math/prng.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { percentileInterval } from "../math/quantile.ts";
import { type ArmGrid, buildArmGrid } from "./arm_grid.ts";
import { seedTaskBootstrap } from "./bootstrap.ts";
import { type ArmCost, summarizeCosts } from "./cost.ts";
import type { JsonlRecord } from "../load/read_jsonl.ts";
import { type AttemptTally, type Resolution, resolveSlots } from "./resolve.ts";
import type { AttemptRecord, SlotRecord, StudyPlan } from "./schema.ts";
import { seedKey, type TrainSeed } from "./_keys.ts";

/** Parsed inputs of a study directory. */
export interface StudyInput {
  /** The study plan (study.json). */
  readonly plan: StudyPlan;
  /** Planned slots (slots.jsonl) with their line numbers. */
  readonly slots: readonly JsonlRecord<SlotRecord>[];
  /** Attempts (attempts.jsonl) with their line numbers. */
  readonly attempts: readonly JsonlRecord<AttemptRecord>[];
}

/** How a comparison's draws resample: seeds and tasks, or tasks only (one seed per arm). */
export type Resample = "seeds+tasks" | "tasks";

/** One arm's result. */
export interface ArmResult extends ArmGrid {
  /** Attempt and slot counts of the arm. */
  readonly tally: AttemptTally;
}

/** One comparison a - b. */
export interface ComparisonResult {
  /** First arm. */
  readonly a: string;
  /** Second arm. */
  readonly b: string;
  /** False when either arm has an unresolved slot: then no estimate and no interval. */
  readonly complete: boolean;
  /** Mean difference a - b; null when incomplete. */
  readonly estimate: number | null;
  /** `[lo_a - hi_b, hi_a - lo_b]`. */
  readonly bounds: readonly [number, number];
  /** Percentile interval of the bootstrap draws; null when incomplete. */
  readonly ci: readonly [number, number] | null;
  /** What the bootstrap resampled. */
  readonly resample: Resample;
  /** Per training seed, the mean over tasks of the cell differences; null when incomplete. */
  readonly perSeed: readonly { train_seed: TrainSeed; estimate: number }[] | null;
}

/** Result of {@linkcode analyzeStudy}. */
export interface StudyAnalysis {
  /** Bootstrap draws. */
  readonly draws: number;
  /** Bootstrap seed. */
  readonly seed: number;
  /** Every arm, in plan order. */
  readonly arms: readonly ArmResult[];
  /** Every planned comparison, in plan order. */
  readonly comparisons: readonly ComparisonResult[];
  /** Attempts, failures, verifier trials, GPU-hours and tokens per arm and in total. */
  readonly costs: { readonly arms: readonly ArmCost[]; readonly total: ArmCost };
  /** How every slot was resolved from its attempts. */
  readonly resolution: Resolution;
}

/** Options of {@linkcode analyzeStudy}. */
export interface AnalyzeStudyOptions {
  /** Progress over all bootstrap draws of all comparisons. */
  readonly onProgress?: ProgressCallback;
  /**
   * File name of the attempts, used in issues.
   * @default {"attempts.jsonl"}
   */
  readonly attemptsFile?: string;
}

function sameSeeds(x: readonly TrainSeed[], y: readonly TrainSeed[]): boolean {
  return x.length === y.length && x.every((s, k) => seedKey(s) === seedKey(y[k]!));
}

function sameTasks(x: readonly string[], y: readonly string[]): boolean {
  return x.length === y.length && x.every((t, i) => t === y[i]);
}

/**
 * Analyses a study. Arms are reported in order of first appearance in
 * slots.jsonl. A comparison (a, b) is a - b and needs paired arms: the same
 * task set, and the same training-seed set unless both arms have a single
 * seed (then only tasks are resampled, `resample: "tasks"`).
 *
 * Bootstrap draw order: each comparison, in plan order, starts a fresh
 * `createPrng(seed)` and draws as {@linkcode seedTaskBootstrap} describes
 * over the cell differences (a - b), seeds and tasks in sorted order.
 * Comparisons of arms with equal shapes thus share their resampling
 * indices. Incomplete comparisons draw nothing.
 *
 * @param input Plan, slots and attempts.
 * @param options Progress callback and file name.
 * @returns The analysis, with the retry-policy violations as non-fatal
 *   issues; or the fatal issues (`unplanned_episode` attempts, `plan_invalid`
 *   plans: unknown arms, arms that are not crossed or not paired).
 *
 * @example One seed, tasks-only bootstrap of a complete comparison
 * ```ts
 * import { analyzeStudy } from "./analyze.ts";
 * import { deepEqual } from "node:assert/strict";
 * const slots = ["M", "B"].flatMap((arm) => ["t1", "t2"].map((task_id, i) => ({ value: { arm, train_seed: 42, task_id, rep: 0 }, line: i + 1 })));
 * const attempts = slots.map(({ value }, i) => ({ value: { ...value, attempt: 0, kind: "report" as const, resolved: (value.arm === "M" ? 1 : i % 2) as 0 | 1 }, line: i + 1 }));
 * const r = analyzeStudy({ plan: { format: "gatelab.studyplan/v1", comparisons: [["M", "B"]], bootstrap: { draws: 200, seed: 1 } }, slots, attempts });
 * deepEqual(r.ok && [r.value.comparisons[0]!.estimate, r.value.comparisons[0]!.resample], [0.5, "tasks"]);
 * ```
 */
export function analyzeStudy(
  input: StudyInput,
  options: AnalyzeStudyOptions = {},
): Result<StudyAnalysis> {
  const { plan } = input;
  const { draws, seed } = plan.bootstrap;
  const resolution = resolveSlots(input.slots, input.attempts, {
    attemptsFile: options.attemptsFile ?? "attempts.jsonl",
  });
  const issues: Issue[] = [...resolution.unplanned];

  const armNames = Object.keys(resolution.tallies);
  const arms = new Map<string, ArmResult>();
  for (const arm of armNames) {
    const grid = buildArmGrid(arm, resolution.slots);
    if (grid.ok) arms.set(arm, { ...grid.value, tally: resolution.tallies[arm]! });
    else issues.push(...grid.issues);
  }

  const pairs: [ArmResult, ArmResult, Resample][] = [];
  plan.comparisons.forEach(([a, b], index) => {
    const path = `comparisons.${index}`;
    for (const name of [a, b]) {
      if (!(name in resolution.tallies)) {
        issues.push({
          code: "plan_invalid",
          message: `Cannot compare ${a} - ${b}: arm ${name} has no planned slot in slots.jsonl`,
          file: "study.json",
          path,
        });
      }
    }
    const ga = arms.get(a), gb = arms.get(b);
    if (!ga || !gb) return;
    const single = ga.seeds.length === 1 && gb.seeds.length === 1;
    if (!sameTasks(ga.tasks, gb.tasks) || !(single || sameSeeds(ga.seeds, gb.seeds))) {
      issues.push({
        code: "plan_invalid",
        message: `Cannot compare ${a} - ${b}: the arms are not paired ` +
          `(${ga.seeds.length} x ${ga.tasks.length} vs ${gb.seeds.length} x ${gb.tasks.length} ` +
          "seeds x tasks; the task sets, and the seed sets unless each arm has one seed, must match)",
        file: "study.json",
        path,
      });
      return;
    }
    pairs.push([ga, gb, single ? "tasks" : "seeds+tasks"]);
  });
  if (issues.length > 0) return { ok: false, issues };

  const completePairs = pairs.filter(([ga, gb]) => ga.complete && gb.complete).length;
  const totalDraws = completePairs * draws;
  let drawsBefore = 0;
  const comparisons = pairs.map(([ga, gb, resample]): ComparisonResult => {
    const bounds: [number, number] = [ga.bounds[0] - gb.bounds[1], ga.bounds[1] - gb.bounds[0]];
    const base = { a: ga.arm, b: gb.arm, bounds, resample };
    if (!ga.complete || !gb.complete) {
      return { ...base, complete: false, estimate: null, ci: null, perSeed: null };
    }
    const K = ga.seeds.length, N = ga.tasks.length;
    const diff = new Float64Array(K * N);
    for (let c = 0; c < K * N; c++) diff[c] = ga.cellMeans[c]! - gb.cellMeans[c]!;
    const perSeed = ga.seeds.map((train_seed, k) => {
      let s = 0;
      for (let i = 0; i < N; i++) s += diff[k * N + i]!;
      return { train_seed, estimate: s / N };
    });
    const offset = drawsBefore;
    const progress = options.onProgress;
    const stats = seedTaskBootstrap(diff, [K, N], {
      draws,
      prng: createPrng(seed),
      resampleSeeds: resample === "seeds+tasks",
      ...(progress ? { onProgress: (done: number) => progress(offset + done, totalDraws) } : {}),
    });
    drawsBefore += draws;
    return {
      ...base,
      complete: true,
      estimate: ga.estimate! - gb.estimate!,
      ci: percentileInterval(stats),
      perSeed,
    };
  });

  const ordered = armNames.map((name) => arms.get(name)!);
  return {
    ok: true,
    issues: resolution.violations,
    value: {
      draws,
      seed,
      arms: ordered,
      comparisons,
      costs: summarizeCosts(input.attempts.map((r) => r.value), armNames),
      resolution,
    },
  };
}
