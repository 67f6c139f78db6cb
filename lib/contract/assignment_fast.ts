import type { AssignmentLine } from "./assignment.ts";
import { isCount, isNonEmptyString, isObject } from "./_fast_predicates.ts";

/**
 * A fast structural check of one assignments.jsonl line that accepts only
 * values `AssignmentLineSchema` also accepts (it is never more
 * lenient). The gate reader uses it to skip zod on the common, valid line
 * and falls back to zod, for its precise issues, whenever this returns
 * false.
 *
 * @param value A parsed JSON object.
 * @returns Whether the line certainly satisfies the schema.
 *
 * @example
 * ```ts
 * import { isAssignmentLineFast } from "./assignment_fast.ts";
 * import { deepEqual } from "node:assert/strict";
 * const line = { split: "val", task_id: "t", sample_id: 0, slots: { s1: "v1", s2: null } };
 * deepEqual([isAssignmentLineFast(line), isAssignmentLineFast({ ...line, slots: { s1: 1 } })], [true, false]);
 * ```
 */
export function isAssignmentLineFast(value: Record<string, unknown>): value is AssignmentLine {
  const { split, task_id, sample_id, slots } = value;
  if (!isNonEmptyString(split) || !isNonEmptyString(task_id) || !isCount(sample_id)) return false;
  if (!isObject(slots)) return false;
  for (const key of Object.keys(slots)) {
    const v = slots[key];
    if (v !== null && typeof v !== "string") return false;
  }
  return true;
}
