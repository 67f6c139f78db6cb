/**
 * Slot resolution (docs/study.md, "Slot resolution"): which
 * attempt decides each planned logical slot, and which attempts break the
 * retry policy.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { ATTEMPT_KINDS, type AttemptKind, type AttemptRecord, type SlotRecord } from "./schema.ts";
import { slotKey, slotLabel } from "./_keys.ts";
import type { JsonlRecord } from "../load/read_jsonl.ts";

/**
 * How a slot ended: decided by a `report` or a `model_failure`; left
 * unresolved by an `ambiguous` attempt, by an infrastructure failure with
 * no usable retry after it (`infra_failure`: the allowance was used up or
 * the retry was never made), or by having no attempt at all.
 */
export type SlotStatus =
  | "report"
  | "model_failure"
  | "ambiguous"
  | "infra_failure"
  | "no_attempts";

/** All slot statuses, in reporting order. */
export const SLOT_STATUSES: readonly SlotStatus[] = [
  "report",
  "model_failure",
  "ambiguous",
  "infra_failure",
  "no_attempts",
];

/** A planned slot with its resolution. */
export interface ResolvedSlot extends SlotRecord {
  /** How the slot was resolved from its attempts. */
  readonly status: SlotStatus;
  /** 0 or 1 when decided, `null` when unresolved. */
  readonly outcome: 0 | 1 | null;
  /** Line in attempts.jsonl of the deciding (or last used) attempt, or null. */
  readonly decidedBy: number | null;
}

/** Counts of the attempts of one arm. */
export interface AttemptTally {
  /** Every attempt of the arm, used or not. */
  attempts: number;
  /** Attempts the policy allows (the rest are violations). */
  used: number;
  /** Attempts beyond the allowances or after the slot was decided. */
  violations: number;
  /** Attempts per kind (all kinds listed). */
  by_kind: Record<AttemptKind, number>;
  /** Per kind, the count of each `reason` text; attempts without a reason are counted under `""`. */
  reasons: Record<string, Record<string, number>>;
  /** Planned slots per final status (all statuses listed). */
  slots: Record<SlotStatus, number>;
}

/** Result of {@linkcode resolveSlots}. */
export interface Resolution {
  /** Planned slots in slots.jsonl order with their resolution. */
  readonly slots: readonly ResolvedSlot[];
  /** Per arm (in first-planned order), the attempt and slot counts. */
  readonly tallies: Readonly<Record<string, AttemptTally>>;
  /** `retry_policy_violation` issues: reported, the attempts are not used. */
  readonly violations: readonly Issue[];
  /** `unplanned_episode` issues for attempts of slots not in slots.jsonl (errors). */
  readonly unplanned: readonly Issue[];
}

/** Options of {@linkcode resolveSlots}. */
export interface ResolveOptions {
  /**
   * File name of the attempts, used in issues.
   * @default {"attempts.jsonl"}
   */
  readonly attemptsFile?: string;
}

function emptyTally(): AttemptTally {
  return {
    attempts: 0,
    used: 0,
    violations: 0,
    by_kind: Object.fromEntries(ATTEMPT_KINDS.map((k) => [k, 0])) as Record<AttemptKind, number>,
    reasons: {},
    slots: Object.fromEntries(SLOT_STATUSES.map((s) => [s, 0])) as Record<SlotStatus, number>,
  };
}

interface SlotState {
  status: SlotStatus;
  outcome: 0 | 1 | null;
  decidedBy: number | null;
  /** Whether the next attempt is allowed. */
  open: boolean;
  verifierRetryUsed: boolean;
  generationRetryUsed: boolean;
}

/**
 * Resolves every planned slot from its attempts, taken in file order:
 *
 * - the first attempt of a slot is always allowed;
 * - `report` decides the slot with its `resolved` value, whatever it is;
 *   `model_failure` decides it with 0; `ambiguous` closes it unresolved;
 * - `verifier_infra` allows one more attempt (the re-verification) and
 *   `generation_infra` one more attempt (the replacement generation), each
 *   at most once per slot; when an allowance is used up (or the retry never
 *   came) the slot stays unresolved (`infra_failure`);
 * - any attempt that is not allowed (after the slot was decided or closed
 *   ambiguous, or beyond an allowance) is a `retry_policy_violation` and is
 *   not used, even if it is a better report.
 *
 * A planned slot without attempts is unresolved (`no_attempts`). Attempts
 * of unplanned slots are `unplanned_episode` issues and are not used.
 *
 * @param slots Planned slots (slots.jsonl records).
 * @param attempts Attempts in file order (attempts.jsonl records).
 * @param options File name for issues.
 * @returns Resolved slots, per-arm tallies, violations and unplanned issues.
 *
 * @example A later better report does not replace the first one
 * ```ts
 * import { resolveSlots } from "./resolve.ts";
 * import { deepEqual } from "node:assert/strict";
 * const slot = { arm: "M", train_seed: 1, task_id: "t", rep: 0 };
 * const r = resolveSlots([{ value: slot, line: 1 }], [
 *   { value: { ...slot, attempt: 0, kind: "verifier_infra" }, line: 1 },
 *   { value: { ...slot, attempt: 1, kind: "report", resolved: 0 }, line: 2 },
 *   { value: { ...slot, attempt: 2, kind: "report", resolved: 1 }, line: 3 },
 * ]);
 * deepEqual([r.slots[0]!.status, r.slots[0]!.outcome], ["report", 0]);
 * deepEqual(r.violations.map((i) => [i.code, i.line]), [["retry_policy_violation", 3]]);
 * ```
 */
export function resolveSlots(
  slots: readonly JsonlRecord<SlotRecord>[],
  attempts: readonly JsonlRecord<AttemptRecord>[],
  options: ResolveOptions = {},
): Resolution {
  const file = options.attemptsFile ?? "attempts.jsonl";
  const states = new Map<string, SlotState>();
  const tallies: Record<string, AttemptTally> = {};
  for (const { value } of slots) {
    states.set(slotKey(value), {
      status: "no_attempts",
      outcome: null,
      decidedBy: null,
      open: true,
      verifierRetryUsed: false,
      generationRetryUsed: false,
    });
    tallies[value.arm] ??= emptyTally();
  }
  const violations: Issue[] = [];
  const unplanned: Issue[] = [];

  for (const { value: a, line } of attempts) {
    const state = states.get(slotKey(a));
    const label = slotLabel(a);
    if (!state) {
      unplanned.push({
        code: "unplanned_episode",
        message:
          `Cannot use attempt ${a.attempt} of slot ${label}: the slot is not planned in slots.jsonl`,
        file,
        line,
        episode: label,
      });
      continue;
    }
    const tally = tallies[a.arm]!;
    tally.attempts++;
    tally.by_kind[a.kind]++;
    const reasons = (tally.reasons[a.kind] ??= {});
    const reason = a.reason ?? "";
    reasons[reason] = (reasons[reason] ?? 0) + 1;

    if (!state.open) {
      tally.violations++;
      const why = state.status === "infra_failure"
        ? "the slot's one re-verification and one replacement generation allowances do not cover it"
        : `the slot was already ${
          state.status === "ambiguous" ? "closed as ambiguous" : "decided"
        } by line ${state.decidedBy}`;
      violations.push({
        code: "retry_policy_violation",
        message: `Cannot use attempt ${a.attempt} (${a.kind}) of slot ${label}: ${why}`,
        file,
        line,
        episode: label,
      });
      continue;
    }
    tally.used++;
    state.open = false;
    state.decidedBy = line;
    switch (a.kind) {
      case "report":
        state.status = "report";
        state.outcome = a.resolved === 1 ? 1 : 0;
        break;
      case "model_failure":
        state.status = "model_failure";
        state.outcome = 0;
        break;
      case "ambiguous":
        state.status = "ambiguous";
        state.outcome = null;
        break;
      case "verifier_infra":
        state.status = "infra_failure";
        if (!state.verifierRetryUsed) state.verifierRetryUsed = state.open = true;
        break;
      case "generation_infra":
        state.status = "infra_failure";
        if (!state.generationRetryUsed) state.generationRetryUsed = state.open = true;
        break;
    }
  }

  const resolved: ResolvedSlot[] = slots.map(({ value }) => {
    const state = states.get(slotKey(value))!;
    tallies[value.arm]!.slots[state.status]++;
    return { ...value, status: state.status, outcome: state.outcome, decidedBy: state.decidedBy };
  });
  return { slots: resolved, tallies, violations, unplanned };
}
