import type { Issue } from "../core/issue.ts";
import type { EpisodeKey } from "../core/types.ts";
import {
  attemptProvenanceIssues,
  type Attempts,
  attemptTable,
  indexCompleted,
  rewardIssues,
  rewardsClean,
} from "./run_checks.ts";
import type { CompletedAttempts } from "./completed_attempts.ts";

/**
 * The checks every run of a gate passes, bare or masked: coverage of the
 * plan ({@linkcode indexCompleted}), the rewards of each completed attempt
 * ({@linkcode rewardIssues}, against the manifest's components) and
 * per-attempt provenance ({@linkcode attemptProvenanceIssues}), in that
 * order.
 *
 * @param attempts The run's attempts in file order (objects, or the reader's columns).
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
  given: Attempts,
  manifest: {
    readonly provenance:
      & Readonly<Record<string, unknown>>
      & { readonly reward: { readonly components: readonly string[] } };
  },
  planned: readonly EpisodeKey[],
  file: string,
  arm: string,
): { issues: Issue[]; completed: CompletedAttempts } {
  const attempts = attemptTable(given);
  const index = indexCompleted(attempts, planned, file, arm);
  const issues = index.issues;
  const components = manifest.provenance.reward.components;
  const shapes = new Map<number, number>();
  // From the columns; an attempt with an issue is built as an object and checked as one.
  for (const i of index.completed.rows.values()) {
    if (rewardsClean(attempts, i, components, shapes)) continue;
    for (const issue of rewardIssues(attempts.get(i), components, file)) issues.push(issue);
  }
  for (const issue of attemptProvenanceIssues(attempts, manifest.provenance, file)) {
    issues.push(issue);
  }
  return { issues, completed: index.completed };
}
