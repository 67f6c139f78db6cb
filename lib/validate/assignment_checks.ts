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
  // Valid entries by mask: a trie over the present versions' string ids, in order.
  const masks: MaskNode = { next: undefined, entry: undefined };
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
    let valid = true, node = masks;
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
      } else if (versionId !== null) node = childOf(node, table.versionIdAt(r, p));
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
    // One entry per distinct valid mask; the versions listed only for a new one.
    const entry = valid && node.entry !== undefined
      ? node.entry
      : { valid, present: presentVersions(table, r, shape.versions) };
    if (valid) node.entry = entry;
    byKey.setAt(at, entry);
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

/** A node of the trie of valid masks: the entry of the mask ending here, and longer masks. */
interface MaskNode {
  next: Map<number, MaskNode> | undefined;
  entry: AssignmentEntry | undefined;
}

function childOf(node: MaskNode, id: number): MaskNode {
  node.next ??= new Map();
  let child = node.next.get(id);
  if (child === undefined) node.next.set(id, child = { next: undefined, entry: undefined });
  return child;
}

/** The versions line r makes present: each known slot's version that is one of the slot's, in order. */
function presentVersions(
  table: AssignmentTable,
  r: number,
  versions: readonly (Set<string> | undefined)[],
): string[] {
  const present: string[] = [];
  for (let p = 0; p < versions.length; p++) {
    const v = table.versionAt(r, p), known = versions[p];
    if (known && v !== null && known.has(v)) present.push(v);
  }
  return present;
}
