/**
 * A unit's verdict: one boolean, or INFRA.
 *
 * @module
 */
import type { Member } from "./schema.ts";

/** Stop reasons that make a unit INFRA (an infrastructure failure, not an answer). */
export const INFRA_STOP_REASONS: readonly string[] = ["error", "parse_error"];

/**
 * Folds a unit's members into one verdict: `"INFRA"` when any member
 * stopped with `error` or `parse_error` or has no verdict (`correct: null`);
 * otherwise the AND of the members (an AR pair is right only when both
 * directions are).
 *
 * @param members The unit's members (one, or two for an AR pair).
 * @returns true, false or "INFRA".
 *
 * @example
 * ```ts
 * import { foldUnit } from "./fold_unit.ts";
 * import { deepEqual } from "node:assert/strict";
 * const m = (correct: boolean | null, stop_reason = "stop") => ({ question_id: "q", correct, stop_reason });
 * deepEqual([foldUnit([m(true), m(true)]), foldUnit([m(true), m(false)]), foldUnit([m(true), m(true, "error")])], [true, false, "INFRA"]);
 * ```
 */
export function foldUnit(members: readonly Member[]): boolean | "INFRA" {
  let all = true;
  for (const m of members) {
    if (INFRA_STOP_REASONS.includes(m.stop_reason) || m.correct === null) return "INFRA";
    all &&= m.correct;
  }
  return all;
}
