import type { Issue } from "../core/issue.ts";
import type { DesignColumn } from "../core/types.ts";
import type { GatePlan } from "../contract/gate.ts";

/**
 * The design columns of a gate plan: every version of every slot, in
 * gate.json order.
 *
 * @example
 * ```ts
 * import { gateColumns } from "./slots.ts";
 * import { deepEqual } from "node:assert/strict";
 * const cols = gateColumns({ slots: [{ slot_id: "s", versions: [{ version_id: "o", chunk_id: "c", role: "old" }, { version_id: "n", chunk_id: "c2", role: "new" }] }] });
 * deepEqual(cols.map((c) => `${c.slot_id}:${c.version_id}:${c.role}`), ["s:o:old", "s:n:new"]);
 * ```
 */
export function gateColumns(plan: Pick<GatePlan, "slots">): DesignColumn[] {
  return plan.slots.flatMap((slot) =>
    slot.versions.map((v) => ({
      version_id: v.version_id,
      slot_id: slot.slot_id,
      chunk_id: v.chunk_id,
      role: v.role,
    }))
  );
}

/**
 * Checks the shape of every slot (`family_invalid`): a slot with an `old`
 * or `new` version is a REWRITE family and must hold exactly one `old`, at
 * least one `new` and nothing else; any other slot is a plain chunk and
 * must hold exactly one version (`current` or `add`).
 *
 * @param plan The gate plan.
 * @param file gate.json path for the issues.
 * @returns One issue per bad slot.
 *
 * @example
 * ```ts
 * import { slotIssues } from "./slots.ts";
 * import { deepEqual } from "node:assert/strict";
 * const issues = slotIssues({ slots: [{ slot_id: "s", versions: [{ version_id: "a", chunk_id: "c", role: "old" }, { version_id: "b", chunk_id: "c", role: "old" }] }] }, "gate.json");
 * deepEqual(issues.map((i) => [i.code, i.path]), [["family_invalid", "slots.0"]]);
 * ```
 */
export function slotIssues(plan: Pick<GatePlan, "slots">, file: string): Issue[] {
  const out: Issue[] = [];
  plan.slots.forEach((slot, s) => {
    const count = { current: 0, add: 0, old: 0, new: 0 };
    for (const v of slot.versions) count[v.role]++;
    const path = `slots.${s}`;
    if (count.old + count.new > 0) {
      const problems: string[] = [];
      if (count.old !== 1) problems.push(`${count.old} old versions (need exactly 1)`);
      if (count.new < 1) problems.push("no new version (need at least 1)");
      if (count.current + count.add > 0) problems.push("current/add versions mixed into a family");
      if (problems.length > 0) {
        out.push({
          code: "family_invalid",
          message: `REWRITE family "${slot.slot_id}" is malformed: ${problems.join(", ")}`,
          file,
          path,
        });
      }
    } else if (slot.versions.length !== 1) {
      out.push({
        code: "family_invalid",
        message:
          `slot "${slot.slot_id}" has ${slot.versions.length} current/add versions; several mutually exclusive versions must form a REWRITE family (one old, one or more new)`,
        file,
        path,
      });
    }
  });
  return out;
}
