/**
 * Cost accounting of a study from the attempt fields (docs/study.md, "Costs"):
 * every attempt as made counts, used or not.
 *
 * @module
 */
import { lowerQuantileSorted } from "../math/quantile.ts";
import type { AttemptRecord } from "./schema.ts";
import { mean as ssMean } from "simple-statistics";

/** Resource use of one arm (or of all arms). */
export interface ArmCost {
  /** Arm name; `""` for the total over all attempts. */
  readonly arm: string;
  /** Every attempt made. */
  readonly attempts: number;
  /** Infrastructure failures: `verifier_infra` plus `generation_infra` attempts. */
  readonly failed_attempts: number;
  /** Verifier runs: `report` plus `verifier_infra` attempts. */
  readonly verifier_trials: number;
  /** Sum of `gpu_hours` over the attempts that report it. */
  readonly gpu_hours: number;
  /** How many attempts report `gpu_hours`. */
  readonly gpu_hours_reported: number;
  /** Sum of `tokens` (a number, or prompt + completion) over the attempts that report it. */
  readonly tokens: number;
  /** How many attempts report `tokens`. */
  readonly tokens_reported: number;
  /** Service time over attempts with `service_seconds`: count, mean and empirical p95; null if none. */
  readonly service_seconds: { n: number; mean: number; p95: number } | null;
}

/** Empirical quantile of unsorted values with the floor(q(N-1)) rule; NaN for none. */
export function empiricalQuantile(values: readonly number[], q: number): number {
  return lowerQuantileSorted(Float64Array.from(values).sort(), q);
}

function tokensOf(a: AttemptRecord): number | null {
  const t = a.tokens;
  if (t === undefined || t === null) return null;
  return typeof t === "number" ? t : t.prompt + t.completion;
}

function costOf(arm: string, attempts: readonly AttemptRecord[]): ArmCost {
  let failed = 0, trials = 0, gpu = 0, gpuN = 0, tokens = 0, tokensN = 0;
  const service: number[] = [];
  for (const a of attempts) {
    if (a.kind === "verifier_infra" || a.kind === "generation_infra") failed++;
    if (a.kind === "report" || a.kind === "verifier_infra") trials++;
    if (a.gpu_hours !== undefined && a.gpu_hours !== null) {
      gpu += a.gpu_hours;
      gpuN++;
    }
    const t = tokensOf(a);
    if (t !== null) {
      tokens += t;
      tokensN++;
    }
    if (a.service_seconds !== undefined && a.service_seconds !== null) {
      service.push(a.service_seconds);
    }
  }
  return {
    arm,
    attempts: attempts.length,
    failed_attempts: failed,
    verifier_trials: trials,
    gpu_hours: gpu,
    gpu_hours_reported: gpuN,
    tokens,
    tokens_reported: tokensN,
    service_seconds: service.length === 0 ? null : {
      n: service.length,
      mean: ssMean(service),
      p95: empiricalQuantile(service, 0.95),
    },
  };
}

/**
 * Sums the cost fields of the attempts per arm and over all arms. All
 * attempts count, including those the retry policy does not use: they were
 * spent. The p95 of service time is the sorted element at zero-based index
 * floor(0.95 (N - 1)).
 *
 * @param attempts Attempts as made.
 * @param arms Arms in reporting order; attempts of other arms only enter the total.
 * @returns One cost per arm, and the total over all attempts (its `arm` is `""`).
 *
 * @example
 * ```ts
 * import { summarizeCosts } from "./cost.ts";
 * import { deepEqual } from "node:assert/strict";
 * const base = { arm: "M", train_seed: 1, task_id: "t", rep: 0 };
 * const { arms: [m], total } = summarizeCosts([
 *   { ...base, attempt: 0, kind: "verifier_infra", gpu_hours: 0.5 },
 *   { ...base, attempt: 1, kind: "report", resolved: 1, gpu_hours: 0.25, tokens: { prompt: 10, completion: 5 } },
 * ], ["M"]);
 * deepEqual([m!.failed_attempts, m!.verifier_trials, m!.gpu_hours, m!.tokens], [1, 2, 0.75, 15]);
 * deepEqual(total.attempts, 2);
 * ```
 */
export function summarizeCosts(
  attempts: readonly AttemptRecord[],
  arms: readonly string[],
): { arms: ArmCost[]; total: ArmCost } {
  const byArm = new Map<string, AttemptRecord[]>(arms.map((a) => [a, []]));
  for (const a of attempts) byArm.get(a.arm)?.push(a);
  return { arms: arms.map((arm) => costOf(arm, byArm.get(arm)!)), total: costOf("", attempts) };
}
