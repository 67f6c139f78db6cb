/**
 * Lineage checks between consecutive steps of a history: the active skill
 * a gate starts from must be exactly the selection of the step before, and
 * a candidate must not reuse a version id that was already rejected.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import type { HistoryStep } from "./step.ts";

const inSkill = (role: string) => role === "current" || role === "old";
const isCandidate = (role: string) => role === "add" || role === "new";

/**
 * Checks the lineage of a history, step by step:
 *
 * - `lineage_mismatch`: the versions step t+1 starts from (roles `current`
 *   and `old`) differ from step t's selection: a selected version missing,
 *   a version in the skill that step t did not select, or the same version
 *   id with another `text_sha256` (compared when both plans give one);
 * - `version_reused`: an ADD or REWRITE candidate (role `add` or `new`) of
 *   step t+1 whose version id was already a candidate in an earlier step
 *   and not selected there (non-positive, budget-excluded or rewrite
 *   loser): a rejected text must come back under a new version id.
 *
 * @param steps The steps in training order.
 * @returns Issues, each naming the gate (its gate.json), the version and what differs.
 *
 * @example A selected version missing from the next skill
 * ```ts
 * import { lineageIssues } from "./lineage.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = (version_id: string, role: "add" | "current", status: "selected" | "non_positive") => ({
 *   version_id, slot_id: version_id, chunk_id: version_id, role, text_sha256: null, estimate: 0.1,
 *   se: 0.05, ci_lower: 0, ci_upper: 0.2, interval: "hc3_normal" as const, status, rank: 1, retired: false,
 * });
 * const step = (n: number, versions: ReturnType<typeof v>[]) => ({
 *   step: n, gate_ids: [`g${n}`], gate_dirs: [`g${n}`], plan_files: [`g${n}/gate.json`], checkpoint_id: null,
 *   stage: "online" as const, metric: "reward", budget_k: 2, baseline_sha256: "", bootstrap: null,
 *   source: { kind: "analysis" as const, dirs: [] },
 *   selected: versions.filter((x) => x.status === "selected").map((x) => x.version_id), versions,
 * });
 * const issues = lineageIssues([
 *   step(1, [v("a", "add", "selected"), v("b", "add", "selected"), v("c", "add", "non_positive")]),
 *   step(2, [v("a", "current", "selected"), v("c", "add", "selected")]),
 * ]);
 * deepEqual(issues.map((i) => [i.code, i.path]), [
 *   ["lineage_mismatch", "slots.b"],
 *   ["version_reused", "slots.c"],
 * ]);
 * ```
 */
export function lineageIssues(steps: readonly HistoryStep[]): Issue[] {
  const issues: Issue[] = [];
  const rejected = new Map<string, { step: number; status: string }>();
  for (let t = 0; t < steps.length; t++) {
    const step = steps[t]!;
    const file = step.plan_files[0] ?? step.gate_dirs[0] ?? `step ${step.step}`;
    const gate = step.gate_ids.join("+");
    if (t > 0) {
      const prev = steps[t - 1]!;
      const prevGate = prev.gate_ids.join("+");
      const selected = new Map(
        prev.versions.filter((v) => v.status === "selected").map((v) => [v.version_id, v]),
      );
      const skill = step.versions.filter((v) => inSkill(v.role));
      const skillIds = new Set(skill.map((v) => v.version_id));
      for (const v of skill) {
        const before = selected.get(v.version_id);
        if (before === undefined) {
          issues.push({
            code: "lineage_mismatch",
            message:
              `gate ${gate} (step ${step.step}) starts from ${v.version_id} (role ${v.role}), which step ${prev.step} (${prevGate}) did not select; its skill must be exactly that selection`,
            file,
            path: `slots.${v.slot_id}`,
          });
        } else if (
          before.text_sha256 !== null && v.text_sha256 !== null &&
          before.text_sha256 !== v.text_sha256
        ) {
          issues.push({
            code: "lineage_mismatch",
            message:
              `gate ${gate} (step ${step.step}) starts from ${v.version_id} with text_sha256 ${
                v.text_sha256.slice(0, 12)
              }…, but step ${prev.step} (${prevGate}) selected that version id with text_sha256 ${
                before.text_sha256.slice(0, 12)
              }…: a changed text needs a new version id`,
            file,
            path: `slots.${v.slot_id}`,
          });
        }
      }
      for (const [id, before] of selected) {
        if (skillIds.has(id)) continue;
        issues.push({
          code: "lineage_mismatch",
          message:
            `gate ${gate} (step ${step.step}) does not start from ${id}, which step ${prev.step} (${prevGate}) selected; its skill must be exactly that selection`,
          file,
          path: `slots.${before.slot_id}`,
        });
      }
    }
    for (const v of step.versions) {
      if (!isCandidate(v.role)) continue;
      const earlier = rejected.get(v.version_id);
      if (earlier !== undefined) {
        issues.push({
          code: "version_reused",
          message:
            `gate ${gate} (step ${step.step}) proposes ${v.version_id} (role ${v.role}), a version id already rejected at step ${earlier.step} (${earlier.status}); a re-proposed text needs a new version id`,
          file,
          path: `slots.${v.slot_id}`,
        });
      }
    }
    for (const v of step.versions) {
      if (isCandidate(v.role) && v.status !== "selected" && !rejected.has(v.version_id)) {
        rejected.set(v.version_id, { step: step.step, status: v.status });
      }
    }
  }
  return issues;
}
