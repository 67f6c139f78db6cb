import type { Issue } from "../core/issue.ts";
import { type EpisodeKey, episodeLabel } from "../core/types.ts";
import type { GatePlan } from "../contract/gate.ts";
import type { LoadedAssignment } from "../load/read_gate.ts";
import { EpisodeMap } from "./episode_map.ts";
import { plannedSet } from "./plan.ts";

/** One episode's assignment: whether it is valid, and the versions it makes present. */
export interface AssignmentEntry {
  readonly valid: boolean;
  readonly present: readonly string[];
}

/**
 * The checks of a gate's assignments (`assignment_invalid`) against its
 * plan and the masked run's planned episodes: no assignment outside the
 * plan, one line per planned episode (a second one makes the episode's
 * assignment invalid), every slot of the plan assigned (`null` for
 * absent), only known slots and each slot's own versions.
 *
 * @param assignments Assignment lines in file order.
 * @param plan The gate plan (its slots).
 * @param planned The masked run's planned episodes.
 * @param file assignments.jsonl path for the issues.
 * @returns The assignment per episode key, and the issues.
 *
 * @example
 * ```ts
 * import { assignmentChecks } from "./assignment_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = { slots: [{ slot_id: "s", versions: [{ version_id: "v", chunk_id: "c", role: "add" as const }] }] };
 * const planned = [{ split: "val", task_id: "a", sample_id: 0 }, { split: "val", task_id: "b", sample_id: 0 }];
 * const r = assignmentChecks([{ split: "val", task_id: "a", sample_id: 0, slots: { s: "v" }, line: 1 }], plan, planned, "a.jsonl");
 * deepEqual([r.byKey.size, r.issues.map((i) => [i.message, i.episode])], [1, [["planned episode has no assignment line", "val/b/0"]]]);
 * ```
 */
export function assignmentChecks(
  assignments: readonly LoadedAssignment[],
  plan: Pick<GatePlan, "slots">,
  planned: readonly EpisodeKey[],
  file: string,
): { byKey: EpisodeMap<AssignmentEntry>; issues: Issue[] } {
  const issues: Issue[] = [];
  const plannedKeys = plannedSet(planned);
  const slots = new Map(
    plan.slots.map((s) => [s.slot_id, new Set(s.versions.map((v) => v.version_id))]),
  );
  const byKey = new EpisodeMap<AssignmentEntry>();
  const lineOf = new EpisodeMap<number>();
  for (const a of assignments) {
    const where = () => ({ file, line: a.line, episode: episodeLabel(a) });
    if (!plannedKeys.has(a)) {
      issues.push({
        code: "assignment_invalid",
        message: "assignment for an episode outside the masked run's plan",
        ...where(),
      });
      continue;
    }
    const first = lineOf.setIfAbsent(a, a.line);
    if (first !== undefined) {
      issues.push({
        code: "assignment_invalid",
        message:
          `second assignment for one episode (first at line ${first}); one line per planned episode`,
        ...where(),
      });
      byKey.set(a, { valid: false, present: [] });
      continue;
    }
    let valid = true;
    const present: string[] = [];
    for (const slotId in a.slots) {
      const versionId = a.slots[slotId] as string | null;
      const versions = slots.get(slotId);
      if (!versions) {
        issues.push({
          code: "assignment_invalid",
          message: `unknown slot "${slotId}"`,
          ...where(),
          path: `slots.${slotId}`,
        });
        valid = false;
      } else if (versionId !== null && !versions.has(versionId)) {
        issues.push({
          code: "assignment_invalid",
          message: `version "${versionId}" is not a version of slot "${slotId}"`,
          ...where(),
          path: `slots.${slotId}`,
        });
        valid = false;
      } else if (versionId !== null) present.push(versionId);
    }
    for (const slotId of slots.keys()) {
      if (!Object.hasOwn(a.slots, slotId)) {
        issues.push({
          code: "assignment_invalid",
          message: `slot "${slotId}" is not assigned (use null for an absent slot)`,
          ...where(),
          path: `slots.${slotId}`,
        });
        valid = false;
      }
    }
    byKey.set(a, { valid, present });
  }
  for (const e of planned) {
    if (!byKey.has(e)) {
      issues.push({
        code: "assignment_invalid",
        message: "planned episode has no assignment line",
        file,
        episode: episodeLabel(e),
      });
    }
  }
  return { byKey, issues };
}
