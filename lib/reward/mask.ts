import type { StepRecord } from "./schema.ts";

/** Why a step is masked. Verdict reasons take precedence over `level_minus_one`. */
export type MaskReason =
  | "revoked"
  | "provisional_not_final"
  | "no_verdict_record"
  | "level_minus_one";

/** All mask reasons in output order. */
export const MASK_REASONS: readonly MaskReason[] = [
  "revoked",
  "provisional_not_final",
  "no_verdict_record",
  "level_minus_one",
];

/** `session` when any step of the trajectory carries a verdict, else `legacy`. */
export type VerdictMode = "session" | "legacy";

/**
 * Masks the steps of one trajectory (docs/FORMAT.md section 4, docs/reward.md
 * section 8). In session mode (some step carries a verdict) a `revoked`
 * step is masked as `revoked`, a `provisional` one as
 * `provisional_not_final` and one without a verdict as `no_verdict_record`;
 * in legacy mode (no verdicts at all) every step counts as final. Then a
 * remaining level -1 is masked as `level_minus_one`. Each masked step has
 * exactly one reason.
 *
 * @param steps The trajectory's steps (any order).
 * @returns The mode and, per step in input order, its reason or `null`.
 *
 * @example
 * ```ts
 * import { maskSteps } from "./mask.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = "x";
 * deepEqual(maskSteps([
 *   { trajectory_id: t, order: 0, level: -1, verdict: "revoked" },
 *   { trajectory_id: t, order: 1, level: 3 },
 *   { trajectory_id: t, order: 2, level: -1, verdict: "final" },
 * ]), { mode: "session", reasons: ["revoked", "no_verdict_record", "level_minus_one"] });
 * deepEqual(maskSteps([{ trajectory_id: t, order: 0, level: -1 }]), { mode: "legacy", reasons: ["level_minus_one"] });
 * ```
 */
export function maskSteps(
  steps: readonly StepRecord[],
): { mode: VerdictMode; reasons: (MaskReason | null)[] } {
  const hasVerdict = (s: StepRecord) => s.verdict !== undefined && s.verdict !== null;
  const mode: VerdictMode = steps.some(hasVerdict) ? "session" : "legacy";
  const reasons = steps.map((s): MaskReason | null => {
    if (mode === "session") {
      if (s.verdict === "revoked") return "revoked";
      if (s.verdict === "provisional") return "provisional_not_final";
      if (!hasVerdict(s)) return "no_verdict_record";
    }
    return s.level === -1 ? "level_minus_one" : null;
  });
  return { mode, reasons };
}
