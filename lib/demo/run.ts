/**
 * Simulation of one evaluator run directory (docs/FORMAT.md section 1):
 * manifest.json, traces.jsonl and the evaluator's summary.json.
 *
 * @module
 */
import { createPrng, type Prng } from "../math/prng.ts";
import { sha256Hex } from "../core/sha256.ts";
import { type LatentModel, latentShift } from "./latent.ts";
import {
  BASE_PROMPT,
  CHECKPOINTS,
  DEMO_PROVENANCE,
  ENVIRONMENT_CONFIG,
  REWARD_COMPONENTS,
} from "./params.ts";
import { type DemoTask, drawWebshopRewards, roundReward, type WebshopRewards } from "./webshop.ts";

const encoder = new TextEncoder();

/** What one simulated run is. */
export interface RunSpec {
  readonly runId: string;
  readonly arm: "bare" | "masked" | "equipped";
  readonly split: string;
  readonly checkpoint: keyof typeof CHECKPOINTS;
  readonly tasks: readonly DemoTask[];
  readonly skill: {
    readonly bank: string;
    readonly selected_skills: readonly string[];
    readonly max_skills: number | null;
  };
  /** Version ids injected in the episode of task index i. */
  readonly injected: (taskIndex: number) => readonly string[];
  readonly model: LatentModel;
  /** Seed of the rollout noise stream. */
  readonly noiseSeed: number;
  /** Seed that picks which episodes fail once for infrastructure reasons. */
  readonly failureSeed: number;
  /** Characters of injected text per version (for token counts). */
  readonly textLength: (versionId: string) => number;
}

/** A simulated run: file texts plus the facts truth.json records. */
export interface SimulatedRun {
  readonly manifest: string;
  readonly traces: string;
  readonly summary: string;
  /** Task ids whose first attempt failed (retried once, successfully). */
  readonly failedEpisodes: readonly { task_id: string; error: string }[];
  /** Rewards of each task's completed attempt, by task index (as written to traces.jsonl). */
  readonly completed: readonly WebshopRewards[];
}

/** Provenance block of a manifest for a checkpoint. */
export function demoProvenance(checkpoint: keyof typeof CHECKPOINTS): Record<string, unknown> {
  return {
    checkpoint_id: CHECKPOINTS[checkpoint],
    model: DEMO_PROVENANCE.model,
    endpoint: DEMO_PROVENANCE.endpoint,
    sampling: { ...DEMO_PROVENANCE.sampling },
    send_seed: DEMO_PROVENANCE.send_seed,
    base_prompt_sha256: sha256Hex(encoder.encode(BASE_PROMPT)),
    environment: {
      name: DEMO_PROVENANCE.environment.name,
      version: DEMO_PROVENANCE.environment.version,
      config_sha256: sha256Hex(encoder.encode(ENVIRONMENT_CONFIG)),
    },
    runtime: { ...DEMO_PROVENANCE.runtime },
    reward: {
      version: DEMO_PROVENANCE.reward.version,
      components: [...DEMO_PROVENANCE.reward.components],
    },
  };
}

/**
 * Job seed of an episode: a 31-bit FNV-1a hash of `split/task_id/sample_id`,
 * the same in every arm that runs the episode.
 *
 * @example
 * ```ts
 * import { jobSeed } from "./run.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * deepEqual(jobSeed("val", "t-1", 0), jobSeed("val", "t-1", 0));
 * ok(jobSeed("val", "t-1", 0) !== jobSeed("val", "t-2", 0));
 * ```
 */
export function jobSeed(split: string, taskId: string, sampleId: number): number {
  let h = 0x811c9dc5;
  for (const byte of encoder.encode(`${split}/${taskId}/${sampleId}`)) {
    h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  }
  return h & 0x7fffffff;
}

function pickFailures(n: number, prng: Prng): Map<number, string> {
  const count = 3 + prng.nextInt(3);
  const out = new Map<number, string>();
  while (out.size < count) {
    const i = prng.nextInt(n);
    if (!out.has(i)) out.set(i, prng.nextFloat() < 0.5 ? "timeout" : "connection reset");
  }
  return out;
}

function costs(
  rewards: WebshopRewards,
  injectedChars: number,
  prng: Prng,
): { steps: number; tokens: { prompt: number; completion: number } } {
  const steps = Math.min(15, 4 + prng.nextInt(5) + (rewards.r_success === 1 ? 0 : prng.nextInt(7)));
  const perStepPrompt = 700 + Math.round(injectedChars / 4) + prng.nextInt(300);
  return {
    steps,
    tokens: { prompt: steps * perStepPrompt, completion: steps * (40 + prng.nextInt(60)) },
  };
}

/**
 * Simulates one run: one completed attempt per task (sample 0), a few
 * episodes whose first attempt fails (status failed, attempt 0) with the
 * completed retry (attempt 1) appended at the end, as an evaluator that
 * re-runs failures last would write them.
 *
 * @param spec The run.
 * @returns File texts and the failed episodes.
 */
export function simulateRun(spec: RunSpec): SimulatedRun {
  const noise = createPrng(spec.noiseSeed);
  const costPrng = createPrng(spec.noiseSeed + 1);
  const failures = pickFailures(spec.tasks.length, createPrng(spec.failureSeed));
  const envVersion = { environment: { version: DEMO_PROVENANCE.environment.version } };
  const lines: string[] = [];
  const retries: string[] = [];
  const sums = new Map<string, number>();
  const completedRewards: WebshopRewards[] = [];
  let successes = 0;
  spec.tasks.forEach((task, i) => {
    const injected = [...spec.injected(i)];
    const rewards = drawWebshopRewards(task, latentShift(spec.model, injected), noise);
    completedRewards.push(rewards);
    const chars = injected.reduce((s, id) => s + spec.textLength(id), 0);
    const cost = costs(rewards, chars, costPrng);
    const seed = jobSeed(spec.split, task.task_id, 0);
    const error = failures.get(i);
    const completed = {
      split: spec.split,
      task_id: task.task_id,
      sample_id: 0,
      attempt: error === undefined ? 0 : 1,
      status: "completed",
      reward: rewards.r_strict,
      rewards,
      success: rewards.r_success === 1,
      injected,
      job_seed: seed,
      provenance: envVersion,
      steps: cost.steps,
      tokens: cost.tokens,
      error: null,
    };
    if (error !== undefined) {
      const steps = 1 + (i % 4);
      lines.push(JSON.stringify({
        split: spec.split,
        task_id: task.task_id,
        sample_id: 0,
        attempt: 0,
        status: "failed",
        reward: null,
        rewards: {},
        injected,
        job_seed: seed,
        provenance: envVersion,
        steps,
        tokens: { prompt: steps * 800, completion: steps * 50 },
        error,
      }));
      retries.push(JSON.stringify(completed));
    } else {
      lines.push(JSON.stringify(completed));
    }
    for (const c of REWARD_COMPONENTS) sums.set(c, (sums.get(c) ?? 0) + rewards[c]);
    successes += rewards.r_success;
  });
  const n = spec.tasks.length;
  const means: Record<string, number> = { reward: roundReward(sums.get("r_strict")! / n) };
  for (const c of REWARD_COMPONENTS) means[c] = roundReward(sums.get(c)! / n);
  const manifest = {
    format: "gatelab.run/v1",
    run_id: spec.runId,
    arm: spec.arm,
    split: spec.split,
    repeats: 1,
    tasks: spec.tasks.map((t) => t.task_id),
    provenance: demoProvenance(spec.checkpoint),
    skill: {
      bank: spec.skill.bank,
      selected_skills: [...spec.skill.selected_skills],
      max_skills: spec.skill.max_skills,
    },
  };
  const summary = {
    run_id: spec.runId,
    split: spec.split,
    episodes: n,
    attempts: n + failures.size,
    failed_attempts: failures.size,
    success_rate: roundReward(successes / n),
    means,
  };
  return {
    manifest: JSON.stringify(manifest, null, 2) + "\n",
    traces: [...lines, ...retries].join("\n") + "\n",
    summary: JSON.stringify(summary, null, 2) + "\n",
    failedEpisodes: [...failures.entries()].sort((a, b) => a[0] - b[0]).map(([i, error]) => ({
      task_id: spec.tasks[i]!.task_id,
      error,
    })),
    completed: completedRewards,
  };
}
