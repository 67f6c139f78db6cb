import type { Issue } from "../core/issue.ts";
import { type EpisodeKey, episodeLabel } from "../core/types.ts";
import type { GatePlan } from "../contract/gate.ts";
import { AssignmentTable, type LoadedAssignment } from "../load/assignment_table.ts";
import type { EpisodeCursor } from "../load/attempt_table.ts";
import { PlannedMap } from "./plan.ts";

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
 * Episodes with the same valid assignment share one entry (one object per
 * distinct mask, not per line).
 *
 * @param assignments Assignment lines in file order (objects, or the reader's columns).
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
  assignments: readonly LoadedAssignment[] | AssignmentTable,
  plan: Pick<GatePlan, "slots">,
  planned: readonly EpisodeKey[],
  file: string,
): { byKey: PlannedMap<AssignmentEntry>; issues: Issue[] } {
  const issues: Issue[] = [];
  const table = assignments instanceof AssignmentTable
    ? assignments
    : AssignmentTable.from(assignments);
  const slots = new Map(
    plan.slots.map((s) => [s.slot_id, new Set(s.versions.map((v) => v.version_id))]),
  );
  // By plan position: the entry, and the line of the episode's first assignment (-1: none yet).
  const byKey = new PlannedMap<AssignmentEntry>(planned);
  const index = byKey.index;
  const lineOf = new Float64Array(planned.length).fill(-1);
  const entries = new Map<string, AssignmentEntry>();
  // Per slot shape: each slot's versions (undefined: unknown slot) and the plan's slots it lacks.
  const shapes = new Map<number, { versions: (Set<string> | undefined)[]; missing: string[] }>();
  const key: EpisodeCursor = { split: "", task_id: "", sample_id: 0 };
  for (let r = 0; r < table.length; r++) {
    const a = table.keyOf(r, key), line = table.lineOf(r);
    const where = () => ({ file, line, episode: episodeLabel(a) });
    const at = index.get(a);
    if (at === undefined) {
      issues.push({
        code: "assignment_invalid",
        message: "assignment for an episode outside the masked run's plan",
        ...where(),
      });
      continue;
    }
    const first = lineOf[at]!;
    if (first < 0) lineOf[at] = line;
    else {
      issues.push({
        code: "assignment_invalid",
        message:
          `second assignment for one episode (first at line ${first}); one line per planned episode`,
        ...where(),
      });
      byKey.setAt(at, { valid: false, present: [] });
      continue;
    }
    const names = table.slotNames(r);
    let shape = shapes.get(table.shapeOf(r));
    if (shape === undefined) {
      shape = {
        versions: names.map((n) => slots.get(n)),
        missing: [...slots.keys()].filter((id) => !table.hasSlot(r, id)),
      };
      shapes.set(table.shapeOf(r), shape);
    }
    let valid = true, id = "";
    const present: string[] = [];
    for (let p = 0; p < names.length; p++) {
      const slotId = names[p]!, versionId = table.versionAt(r, p);
      const versions = shape.versions[p];
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
      } else if (versionId !== null) present.push(versionId), id += `${table.versionIdAt(r, p)},`;
    }
    for (const slotId of shape.missing) {
      issues.push({
        code: "assignment_invalid",
        message: `slot "${slotId}" is not assigned (use null for an absent slot)`,
        ...where(),
        path: `slots.${slotId}`,
      });
      valid = false;
    }
    if (!valid) byKey.setAt(at, { valid, present });
    else {
      // One entry per distinct mask (its version ids in order name it).
      let entry = entries.get(id);
      if (entry === undefined) entries.set(id, entry = { valid, present });
      byKey.setAt(at, entry);
    }
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
