import type { Issue } from "../core/issue.ts";
import type { Attempt, EpisodeKey } from "../core/types.ts";
import { attemptProvenanceIssues, indexCompleted, rewardIssues } from "./run_checks.ts";
import type { EpisodeMap } from "./episode_map.ts";

/**
 * The checks every run of a gate passes, bare or masked: coverage of the
 * plan ({@linkcode indexCompleted}), the rewards of each completed attempt
 * ({@linkcode rewardIssues}, against the manifest's components) and
 * per-attempt provenance ({@linkcode attemptProvenanceIssues}), in that
 * order.
 *
 * @param attempts The run's attempts in file order.
 * @param manifest The run's manifest (reward components, provenance).
 * @param planned The run's planned episodes.
 * @param file traces.jsonl path for the issues.
 * @param arm Name of the run in messages (`bare`, `masked`).
 * @returns The issues, and the completed attempt per episode key.
 *
 * @example
 * ```ts
 * import { completedRunChecks } from "./completed_run_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const a = { split: "val", task_id: "a", sample_id: 0, attempt: 0, status: "completed" as const, reward: 1, rewards: { r_strict: 0 }, success: null, injected: [], job_seed: null, steps: null, tokens: null, error: null, provenance: null, line: 1 };
 * const manifest = { provenance: { reward: { version: "r", components: ["r_strict"] } } };
 * const planned = [{ split: "val", task_id: "a", sample_id: 0 }, { split: "val", task_id: "b", sample_id: 0 }];
 * const r = completedRunChecks([a], manifest, planned, "t.jsonl", "masked");
 * deepEqual(r.issues.map((i) => i.code), ["coverage_incomplete", "reward_not_strict"]);
 * ```
 */
export function completedRunChecks(
  attempts: readonly Attempt[],
  manifest: {
    readonly provenance:
      & Readonly<Record<string, unknown>>
      & { readonly reward: { readonly components: readonly string[] } };
  },
  planned: readonly EpisodeKey[],
  file: string,
  arm: string,
): { issues: Issue[]; completed: EpisodeMap<Attempt> } {
  const index = indexCompleted(attempts, planned, file, arm);
  const issues = index.issues;
  for (const a of index.completed.values()) {
    for (const issue of rewardIssues(a, manifest.provenance.reward.components, file)) {
      issues.push(issue);
    }
  }
  for (const issue of attemptProvenanceIssues(attempts, manifest.provenance, file)) {
    issues.push(issue);
  }
  return { issues, completed: index.completed };
}
