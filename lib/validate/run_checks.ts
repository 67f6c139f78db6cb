import type { Issue } from "../core/issue.ts";
import { type Attempt, type EpisodeKey, episodeLabel } from "../core/types.ts";
import { attemptProvenanceDifferences } from "./provenance.ts";
import { PlannedMap } from "./plan.ts";
import { AttemptTable, type EpisodeCursor } from "../load/attempt_table.ts";
import { CompletedAttempts } from "./completed_attempts.ts";

/** A run's attempts: as objects, or as the columns the reader built. */
export type Attempts = readonly Attempt[] | AttemptTable;

/** The attempts as columns (a table of the objects when given as objects). */
export function attemptTable(attempts: Attempts): AttemptTable {
  return attempts instanceof AttemptTable ? attempts : AttemptTable.from(attempts);
}

/**
 * Indexes a run's attempts by episode against its plan: the completed
 * attempt of every episode, plus `unplanned_episode` (an attempt outside
 * the plan), `duplicate_completed` (a second completed attempt for one
 * episode; the first one is kept in the index) and `coverage_incomplete`
 * (a planned episode without a completed attempt; failed attempts before a
 * completed one are fine).
 *
 * @param attempts Attempts in file order (objects, or the reader's columns).
 * @param planned Planned episodes.
 * @param file traces.jsonl path for the issues.
 * @param arm Name of the run in messages (e.g. "bare", "masked").
 * @returns Completed attempt per episode key, and the issues.
 *
 * @example
 * ```ts
 * import { indexCompleted } from "./run_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const a = (task_id: string, status: "completed" | "failed", line: number) => ({ split: "val", task_id, sample_id: 0, attempt: line, status, reward: 1, rewards: {}, success: null, injected: [], job_seed: null, steps: null, tokens: null, error: null, provenance: null, line });
 * const planned = [{ split: "val", task_id: "a", sample_id: 0 }, { split: "val", task_id: "b", sample_id: 0 }];
 * const r = indexCompleted([a("a", "failed", 1), a("a", "completed", 2), a("z", "completed", 3)], planned, "t.jsonl", "bare");
 * deepEqual(r.issues.map((i) => i.code), ["unplanned_episode", "coverage_incomplete"]);
 * ```
 */
export function indexCompleted(
  attempts: Attempts,
  planned: readonly EpisodeKey[],
  file: string,
  arm: string,
): { completed: CompletedAttempts; issues: Issue[] } {
  const issues: Issue[] = [];
  const table = attemptTable(attempts);
  // By plan position: the completed attempt's entry in the table, and the failed attempts.
  const completed = new PlannedMap<number>(planned);
  const index = completed.index;
  const failedCount = new Int32Array(planned.length);
  const key: EpisodeCursor = { split: "", task_id: "", sample_id: 0 };
  for (let i = 0; i < table.length; i++) {
    const attempt = table.keyOf(i, key);
    const p = index.get(attempt);
    if (p === undefined) {
      issues.push({
        code: "unplanned_episode",
        message:
          `the ${arm} run has an attempt for an episode outside its plan (manifest tasks x sample ids 0..repeats-1)`,
        file,
        line: table.lineOf(i),
        episode: episodeLabel(attempt),
      });
      continue;
    }
    if (table.failed(i)) {
      failedCount[p]!++;
      continue;
    }
    const first = completed.at(p);
    if (first === undefined) completed.setAt(p, i);
    else {
      issues.push({
        code: "duplicate_completed",
        message: `second completed attempt for one episode in the ${arm} run (first at line ${
          table.lineOf(first)
        }); picking one would bias the result`,
        file,
        line: table.lineOf(i),
        episode: episodeLabel(attempt),
      });
    }
  }
  for (const e of planned) {
    const p = index.get(e)!;
    if (completed.at(p) !== undefined) continue;
    const failed = failedCount[p]!;
    issues.push({
      code: "coverage_incomplete",
      message: `planned episode has no completed attempt in the ${arm} run (${
        failed === 0 ? "no attempt at all" : `${failed} failed attempt${failed > 1 ? "s" : ""} only`
      })`,
      file,
      episode: episodeLabel(e),
    });
  }
  return { completed: new CompletedAttempts(completed, table), issues };
}

/**
 * Largest reward magnitude analysis accepts (docs/FORMAT.md, "Extensions").
 * Rewards may have any scale, but squares and sums of values near the
 * float64 limit (1.8e308) overflow to infinity.
 */
export const MAX_REWARD_MAGNITUDE = 1e100;

/**
 * Checks the rewards of a completed attempt: `reward` and every manifest
 * component present and finite (`reward_incomplete`), no magnitude above
 * {@linkcode MAX_REWARD_MAGNITUDE} in `reward` or any component
 * (`reward_out_of_range`), and
 * `reward == rewards.r_strict` (`reward_not_strict`, equal up to a relative
 * 1e-12 so that re-serialised floats pass).
 *
 * @example
 * ```ts
 * import { rewardIssues } from "./run_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const issues = rewardIssues({ split: "val", task_id: "t", sample_id: 0, reward: 1, rewards: { r_strict: 0 }, line: 4 }, ["r_strict", "r_type"], "t.jsonl");
 * deepEqual(issues.map((i) => [i.code, i.path]), [["reward_incomplete", "rewards.r_type"], ["reward_not_strict", "reward"]]);
 * ```
 */
export function rewardIssues(
  attempt: Pick<Attempt, "split" | "task_id" | "sample_id" | "reward" | "rewards" | "line">,
  components: readonly string[],
  file: string,
): Issue[] {
  const out: Issue[] = [];
  // Built only for an issue: most attempts have none.
  const at = (path: string) => ({ file, line: attempt.line, episode: episodeLabel(attempt), path });
  const reward = attempt.reward;
  if (reward === null || !Number.isFinite(reward)) {
    out.push({
      code: "reward_incomplete",
      message: `completed attempt has no finite reward (got ${reward})`,
      ...at("reward"),
    });
  }
  for (const c of components) {
    if (!Object.hasOwn(attempt.rewards, c)) {
      out.push({
        code: "reward_incomplete",
        message: `reward component ${c} is missing or not a finite number`,
        ...at(`rewards.${c}`),
      });
    }
  }
  const tooLarge = (x: number | null) =>
    x !== null && Number.isFinite(x) && Math.abs(x) > MAX_REWARD_MAGNITUDE;
  const outOfRange = (path: string, x: number | null) =>
    out.push({
      code: "reward_out_of_range",
      message:
        `${path} is ${x}; magnitudes above ${MAX_REWARD_MAGNITUDE} cannot be analysed (their squares and sums overflow)`,
      ...at(path),
    });
  if (tooLarge(reward)) outOfRange("reward", reward);
  for (const c in attempt.rewards) {
    const x = attempt.rewards[c]!;
    if (tooLarge(x)) outOfRange(`rewards.${c}`, x);
  }
  const strict = attempt.rewards["r_strict"];
  if (reward !== null && Number.isFinite(reward) && strict !== undefined) {
    if (Math.abs(reward - strict) > 1e-12 * Math.max(1, Math.abs(reward), Math.abs(strict))) {
      out.push({
        code: "reward_not_strict",
        message: `reward ${reward} differs from rewards.r_strict ${strict}`,
        ...at("reward"),
      });
    }
  }
  return out;
}

/**
 * `provenance_mismatch` for every attempt whose own provenance disagrees
 * with its manifest's (only fields present in both are compared).
 */
export function attemptProvenanceIssues(
  attempts: Attempts,
  manifestProvenance: Readonly<Record<string, unknown>>,
  file: string,
): Issue[] {
  const out: Issue[] = [];
  // In the columns only the attempts kept whole can carry provenance.
  const list = attempts instanceof AttemptTable
    ? attempts.wholeIndices().map((i) => attempts.get(i))
    : attempts;
  for (const attempt of list) {
    if (!attempt.provenance) continue;
    for (
      const [path, got, want] of attemptProvenanceDifferences(
        attempt.provenance,
        manifestProvenance,
      )
    ) {
      out.push({
        code: "provenance_mismatch",
        message: `${path} differs: attempt ${got}, manifest ${want}`,
        file,
        line: attempt.line,
        path,
        episode: episodeLabel(attempt),
      });
    }
  }
  return out;
}

/**
 * Whether attempt i of the table has no reward issue against `components`
 * (what {@linkcode rewardIssues} would return for it is empty), read from
 * the columns: `components` present per component shape is decided once
 * per shape in `shapes`.
 *
 * @example
 * ```ts
 * import { rewardsClean } from "./run_checks.ts";
 * import { AttemptTable } from "../load/attempt_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = new AttemptTable();
 * t.pushLine({ split: "val", task_id: "a", sample_id: 0, attempt: 0, status: "completed", reward: 1, rewards: { r_strict: 1 }, injected: [] }, 1);
 * t.pushLine({ split: "val", task_id: "b", sample_id: 0, attempt: 0, status: "completed", reward: 1, rewards: { r_strict: 0 }, injected: [] }, 2);
 * const shapes = new Map<number, number>();
 * deepEqual([rewardsClean(t, 0, ["r_strict"], shapes), rewardsClean(t, 1, ["r_strict"], shapes)], [true, false]);
 * ```
 */
export function rewardsClean(
  table: AttemptTable,
  i: number,
  components: readonly string[],
  shapes: Map<number, number>,
): boolean {
  const reward = table.rewardOf(i);
  if (reward === null || !Number.isFinite(reward) || Math.abs(reward) > MAX_REWARD_MAGNITUDE) {
    return false;
  }
  // Per shape: -2 when a component is missing, else r_strict's position (-1: none).
  const shape = table.shapeOf(i);
  let strictAt = shapes.get(shape);
  if (strictAt === undefined) {
    const names = table.componentNames(i);
    strictAt = components.every((c) => names.includes(c)) ? names.indexOf("r_strict") : -2;
    shapes.set(shape, strictAt);
  }
  if (strictAt === -2) return false;
  const n = table.componentNames(i).length;
  for (let p = 0; p < n; p++) {
    if (Math.abs(table.componentAt(i, p)) > MAX_REWARD_MAGNITUDE) return false;
  }
  if (strictAt < 0) return true;
  const strict = table.componentAt(i, strictAt);
  return !(Math.abs(reward - strict) > 1e-12 * Math.max(1, Math.abs(reward), Math.abs(strict)));
}
