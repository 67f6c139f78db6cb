import type { Issue, Result } from "../core/issue.ts";
import type { JsonlRecord } from "../load/read_jsonl.ts";
import { type Recipe, type RewardLine, trajectoryReward } from "./recipe.ts";
import type { StepRecord } from "./schema.ts";

/** Steps grouped by trajectory, in order of first appearance. */
export interface Trajectories {
  /** Trajectory ids, in file order. */
  readonly ids: readonly string[];
  /** Steps of each trajectory, by id, in step order. */
  readonly steps: ReadonlyMap<string, readonly StepRecord[]>;
}

/**
 * Groups step records by trajectory (first-appearance order) and checks
 * that no trajectory repeats an `order` (`schema_error` with file, line).
 *
 * @param records Validated steps.jsonl records.
 * @param file File name for issues.
 * @returns The trajectories, or the issues.
 *
 * @example
 * ```ts
 * import { groupTrajectories } from "./rewards.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = groupTrajectories([
 *   { value: { trajectory_id: "a", order: 0, level: 3 }, line: 1 },
 *   { value: { trajectory_id: "a", order: 0, level: 2 }, line: 2 },
 * ], "steps.jsonl");
 * deepEqual(r.ok ? [] : r.issues.map((i) => [i.code, i.line]), [["schema_error", 2]]);
 * ```
 */
export function groupTrajectories(
  records: readonly JsonlRecord<StepRecord>[],
  file: string,
): Result<Trajectories> {
  const steps = new Map<string, StepRecord[]>();
  const seen = new Map<string, number>();
  const issues: Issue[] = [];
  for (const { value, line } of records) {
    const key = `${value.trajectory_id}\u0000${value.order}`;
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({
        code: "schema_error",
        message:
          `Cannot order the steps of trajectory ${value.trajectory_id}: order ${value.order} also appears on line ${first}`,
        file,
        line,
        path: "order",
      });
      continue;
    }
    seen.set(key, line);
    const list = steps.get(value.trajectory_id);
    if (list) list.push(value);
    else steps.set(value.trajectory_id, [value]);
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, issues: [], value: { ids: [...steps.keys()], steps } };
}

/**
 * Rewards of every trajectory under one recipe, in trajectory order.
 *
 * @param trajectories Grouped steps.
 * @param recipe A, B or C.
 * @param weights Recipe C weights by trajectory id and order; missing steps weigh 1.
 * @returns One rewards.jsonl line per trajectory.
 * @example Recipe A on the demo's step levels
 * ```ts
 * import { computeRewards, loadSteps, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const steps = valueOrThrow(await loadSteps("data/demo/steps/steps.jsonl"), "steps");
 * const lines = computeRewards(steps.trajectories, "A");
 * const first = lines[0]!;
 * deepEqual([lines.length, first.trajectory_id, first.reward, first.n_steps, first.n_masked], [30, "traj-01", 0.725, 7, 3]);
 * ```
 */
export function computeRewards(
  trajectories: Trajectories,
  recipe: Recipe,
  weights?: ReadonlyMap<string, ReadonlyMap<number, number>>,
): RewardLine[] {
  return trajectories.ids.map((id) => {
    const w = weights?.get(id);
    return trajectoryReward(
      trajectories.steps.get(id)!,
      recipe,
      w ? { weight: (order) => w.get(order) ?? 1 } : {},
    );
  });
}
