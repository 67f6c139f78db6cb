/**
 * Reads the reward inputs: steps.jsonl, groups.jsonl and the
 * `--prm-weights` file, collecting every issue with file and line.
 *
 * @module
 */
import type { Issue, Result } from "../core/issue.ts";
import { readJsonlRecords, readValidatedJson } from "../load/read_jsonl.ts";
import { groupTrajectories, type Trajectories } from "./rewards.ts";
import { type GroupRecord, groupSchema, prmWeightsSchema, stepSchema } from "./schema.ts";

/**
 * Reads and groups steps.jsonl.
 *
 * @param path The steps file.
 * @returns Trajectories and the file's sha256, or the issues.
 * @example
 * ```ts
 * import { loadSteps } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const steps = await loadSteps("data/demo/steps/steps.jsonl");
 * deepEqual(steps.ok && steps.value.trajectories.ids.length, 30);
 * const missing = await loadSteps("data/demo/steps/no-such-file.jsonl");
 * deepEqual(!missing.ok && missing.issues[0]!.code, "io_error");
 * ```
 */
export async function loadSteps(
  path: string,
): Promise<Result<{ trajectories: Trajectories; sha256: string }>> {
  const read = await readJsonlRecords(path, stepSchema);
  if (read.issues.length > 0) return { ok: false, issues: read.issues };
  const grouped = groupTrajectories(read.records, path);
  if (!grouped.ok) return grouped;
  return { ok: true, issues: [], value: { trajectories: grouped.value, sha256: read.sha256 } };
}

/**
 * Reads groups.jsonl. A trajectory listed twice is a `schema_error`; one
 * without steps is `coverage_incomplete`.
 *
 * @param path The groups file.
 * @param trajectories The steps' trajectories.
 * @returns Groups in file order and the sha256, or the issues.
 * @example
 * ```ts
 * import { loadGroups, loadSteps, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const steps = valueOrThrow(await loadSteps("data/demo/steps/steps.jsonl"), "steps");
 * const groups = valueOrThrow(await loadGroups("data/demo/steps/groups.jsonl", steps.trajectories), "groups");
 * deepEqual(groups.groups.length, 30);
 * deepEqual(groups.groups[0], { trajectory_id: "traj-01", group: "good", reference: 0.8 });
 * ```
 */
export async function loadGroups(
  path: string,
  trajectories: Trajectories,
): Promise<Result<{ groups: GroupRecord[]; sha256: string }>> {
  const read = await readJsonlRecords(path, groupSchema);
  const issues: Issue[] = [...read.issues];
  const seen = new Map<string, number>();
  for (const { value, line } of read.records) {
    const first = seen.get(value.trajectory_id);
    if (first !== undefined) {
      issues.push({
        code: "schema_error",
        message:
          `Cannot group trajectory ${value.trajectory_id} twice: it is already grouped on line ${first}`,
        file: path,
        line,
        path: "trajectory_id",
      });
    } else seen.set(value.trajectory_id, line);
    if (!trajectories.steps.has(value.trajectory_id)) {
      issues.push({
        code: "coverage_incomplete",
        message:
          `Cannot score trajectory ${value.trajectory_id}: it is grouped but has no steps in the steps file`,
        file: path,
        line,
        path: "trajectory_id",
      });
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    issues: [],
    value: { groups: read.records.map((r) => r.value), sha256: read.sha256 },
  };
}

/**
 * Reads a `--prm-weights` file: a JSON object from
 * `"<trajectory_id>:<order>"` (split at the last colon, order an integer)
 * to a finite weight > 0. A key that names no step is a `schema_error`.
 *
 * @param path The weights file.
 * @param trajectories The steps' trajectories.
 * @returns Weights by trajectory and order, and the sha256, or the issues.
 */
export async function loadPrmWeights(
  path: string,
  trajectories: Trajectories,
): Promise<Result<{ weights: Map<string, Map<number, number>>; sha256: string }>> {
  const read = await readValidatedJson(path, prmWeightsSchema);
  if (read.value === undefined) return { ok: false, issues: read.issues };
  const weights = new Map<string, Map<number, number>>();
  const issues: Issue[] = [];
  for (const [key, weight] of Object.entries(read.value)) {
    const cut = key.lastIndexOf(":");
    const id = key.slice(0, cut), orderText = key.slice(cut + 1), order = Number(orderText);
    const steps = trajectories.steps.get(id);
    if (cut < 0 || !/^-?\d+$/.test(orderText) || !steps?.some((s) => s.order === order)) {
      issues.push({
        code: "schema_error",
        message:
          `Cannot use PRM weight "${key}": it names no step (keys are "<trajectory_id>:<order>")`,
        file: path,
        path: key,
      });
      continue;
    }
    const map = weights.get(id) ?? new Map<number, number>();
    map.set(order, weight);
    weights.set(id, map);
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, issues: [], value: { weights, sha256: read.sha256 } };
}
