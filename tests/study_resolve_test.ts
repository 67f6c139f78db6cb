/**
 * Slot resolution, bounds and plan checks of the study stage. Expected
 * values follow from the rules of docs/study.md by hand (closed forms: counts,
 * S/H and (S+H-J)/H), stated next to each assertion; the unbalanced bounds come from
 * scripts/reference/study_bounds.py (numpy, every completion enumerated).
 */
import { deepEqual, ok } from "node:assert/strict";
import { analyzeStudy, type StudyInput } from "../lib/study/analyze.ts";
import { resolveSlots } from "../lib/study/resolve.ts";
import { buildArmGrid } from "../lib/study/arm_grid.ts";
import type { AttemptRecord, SlotRecord } from "../lib/study/schema.ts";

type Kind = AttemptRecord["kind"];
const slot = (arm: string, rep: number, task_id = "t", train_seed: number | string = 1) => ({
  arm,
  train_seed,
  task_id,
  rep,
});

function attemptsOf(
  s: SlotRecord,
  seq: (Kind | [Kind, 0 | 1])[],
  start = 1,
): { value: AttemptRecord; line: number }[] {
  return seq.map((step, i) => {
    const [kind, resolved] = Array.isArray(step) ? step : [step, undefined];
    const value: AttemptRecord = resolved === undefined
      ? { ...s, attempt: i, kind }
      : { ...s, attempt: i, kind, resolved };
    return { value, line: start + i };
  });
}

function resolveOne(seq: (Kind | [Kind, 0 | 1])[]) {
  const s = slot("M", 0);
  const r = resolveSlots([{ value: s, line: 1 }], attemptsOf(s, seq));
  return {
    status: r.slots[0]!.status,
    outcome: r.slots[0]!.outcome,
    violations: r.violations.map((i) => i.line),
    tally: r.tallies["M"]!,
  };
}

Deno.test("resolve: the first report decides, whatever its score", () => {
  const first = resolveOne([["report", 0], ["report", 1]]);
  deepEqual([first.status, first.outcome, first.violations], ["report", 0, [2]]);
  const r = resolveOne([["report", 1]]);
  deepEqual([r.status, r.outcome, r.violations], ["report", 1, []]);
});

Deno.test("resolve: model_failure scores 0 and ambiguous stays unresolved", () => {
  const m = resolveOne(["model_failure", ["report", 1]]);
  deepEqual([m.status, m.outcome, m.violations], ["model_failure", 0, [2]]);
  const a = resolveOne(["ambiguous", ["report", 1]]);
  deepEqual([a.status, a.outcome, a.violations], ["ambiguous", null, [2]]);
});

Deno.test("resolve: one re-verification after verifier_infra, one replacement after generation_infra", () => {
  const v = resolveOne(["verifier_infra", ["report", 1]]);
  deepEqual([v.status, v.outcome, v.violations], ["report", 1, []]);
  const g = resolveOne(["generation_infra", ["report", 0]]);
  deepEqual([g.status, g.outcome, g.violations], ["report", 0, []]);
  // Each allowance once: V, G, V would need a second re-verification.
  const both = resolveOne(["generation_infra", "verifier_infra", ["report", 1]]);
  deepEqual([both.status, both.outcome, both.violations], ["report", 1, []]);
  const vv = resolveOne(["verifier_infra", "verifier_infra", ["report", 1]]);
  deepEqual([vv.status, vv.outcome, vv.violations], ["infra_failure", null, [3]]);
  const gg = resolveOne(["generation_infra", "generation_infra", "generation_infra"]);
  deepEqual([gg.status, gg.outcome, gg.violations], ["infra_failure", null, [3]]);
  // A failure whose allowed retry never came leaves the slot unresolved.
  const lone = resolveOne(["verifier_infra"]);
  deepEqual([lone.status, lone.outcome], ["infra_failure", null]);
});

Deno.test("resolve: every attempt and reason is counted, violations included", () => {
  const s = slot("M", 0);
  const attempts = attemptsOf(s, ["verifier_infra", "verifier_infra", ["report", 1]]);
  const withReason = attempts.map((a, i) =>
    i === 0 ? { ...a, value: { ...a.value, reason: "timeout" } } : a
  );
  const r = resolveSlots([{ value: s, line: 1 }, { value: slot("M", 1), line: 2 }], withReason);
  const t = r.tallies["M"]!;
  deepEqual([t.attempts, t.used, t.violations], [3, 2, 1]);
  deepEqual(t.by_kind, {
    report: 1,
    model_failure: 0,
    verifier_infra: 2,
    generation_infra: 0,
    ambiguous: 0,
  });
  deepEqual(t.reasons, { verifier_infra: { timeout: 1, "": 1 }, report: { "": 1 } });
  deepEqual(t.slots, {
    report: 0,
    model_failure: 0,
    ambiguous: 0,
    infra_failure: 1,
    no_attempts: 1,
  });
  deepEqual(r.violations[0]!.code, "retry_policy_violation");
});

Deno.test("resolve: an attempt of an unplanned slot is an unplanned_episode issue", () => {
  const s = slot("M", 0);
  const r = resolveSlots([{ value: s, line: 1 }], attemptsOf(slot("M", 9), [["report", 1]], 4));
  deepEqual(r.unplanned.map((i) => [i.code, i.line, i.episode]), [
    ["unplanned_episode", 4, "M/1/t/9"],
  ]);
  deepEqual(r.slots[0]!.status, "no_attempts");
});

function plan(
  slots: SlotRecord[],
  attempts: { value: AttemptRecord; line: number }[],
  comparisons: [string, string][],
): StudyInput {
  return {
    plan: { format: "gatelab.studyplan/v1", comparisons, bootstrap: { draws: 100, seed: 1 } },
    slots: slots.map((value, i) => ({ value, line: i + 1 })),
    attempts,
  };
}

Deno.test("study: bounds [S/H, (S+H-J)/H] and opposite-end difference bounds", () => {
  // Arm M: 4 slots on tasks a, b (2 reps): outcomes 1, 0, 1, unresolved -> S=2, J=3, H=4.
  // Arm B: 4 slots, all resolved: 1, 0, 0, 0 -> S=1, J=H=4.
  const M = [slot("M", 0, "a"), slot("M", 1, "a"), slot("M", 0, "b"), slot("M", 1, "b")];
  const B = [slot("B", 0, "a"), slot("B", 1, "a"), slot("B", 0, "b"), slot("B", 1, "b")];
  const att = [
    ...attemptsOf(M[0]!, [["report", 1]]),
    ...attemptsOf(M[1]!, [["report", 0]]),
    ...attemptsOf(M[2]!, ["verifier_infra", ["report", 1]]),
    ...attemptsOf(M[3]!, ["ambiguous"]),
    ...attemptsOf(B[0]!, [["report", 1]]),
    ...attemptsOf(B[1]!, ["model_failure"]),
    ...attemptsOf(B[2]!, [["report", 0]]),
    ...attemptsOf(B[3]!, [["report", 0]]),
  ];
  const r = analyzeStudy(plan([...M, ...B], att, [["M", "B"], ["B", "M"]]));
  ok(r.ok);
  const [m, b] = r.value.arms;
  deepEqual([m!.planned, m!.observed, m!.successes, m!.estimate, m!.bounds], [
    4,
    3,
    2,
    null,
    [0.5, 0.75],
  ]);
  deepEqual([b!.complete, b!.estimate, b!.bounds], [true, 0.25, [0.25, 0.25]]);
  const [mb, bm] = r.value.comparisons;
  // M - B: [0.5 - 0.25, 0.75 - 0.25]; B - M: [0.25 - 0.75, 0.25 - 0.5].
  deepEqual([mb!.complete, mb!.estimate, mb!.ci, mb!.bounds], [false, null, null, [0.25, 0.5]]);
  deepEqual([bm!.complete, bm!.estimate, bm!.ci, bm!.bounds], [false, null, null, [-0.5, -0.25]]);
  deepEqual(r.issues, []);
});

Deno.test("study: unknown arms, unpaired arms and non-crossed arms are plan_invalid", () => {
  const a = [slot("M", 0, "a", 1), slot("M", 0, "a", 2)];
  const b = [slot("B", 0, "a", 1), slot("B", 0, "a", 3)];
  const c = [slot("C", 0, "a", 1), slot("C", 0, "b", 2)]; // seed 1 lacks task b
  const all = [...a, ...b, ...c];
  const att = all.flatMap((s, i) => attemptsOf(s, [["report", 1]], i + 1));
  const r = analyzeStudy(plan(all, att, [["M", "B"], ["M", "X"]]));
  ok(!r.ok);
  deepEqual(r.issues.map((i) => [i.code, i.path ?? i.episode]), [
    ["plan_invalid", "C/1/b"],
    ["plan_invalid", "C/2/a"],
    ["plan_invalid", "comparisons.0"],
    ["plan_invalid", "comparisons.1"],
  ]);
});

Deno.test("study: unbalanced reps use the nested mean, and the bounds the same nesting", () => {
  // Seed 1: task a has 1 rep (1), task b has 3 reps (0, 0, 0).
  // Nested mean = (1 + 0) / 2 = 0.5 (pooled S/H would be 1/4); complete, so the bounds are the
  // estimate itself.
  const s = [slot("M", 0, "a"), slot("M", 0, "b"), slot("M", 1, "b"), slot("M", 2, "b")];
  const att = s.flatMap((x, i) => attemptsOf(x, [["report", i === 0 ? 1 : 0]], i + 1));
  const r = analyzeStudy(plan(s, att, []));
  ok(r.ok);
  deepEqual([r.value.arms[0]!.estimate, r.value.arms[0]!.bounds], [0.5, [0.5, 0.5]]);
});

Deno.test("study: unbalanced bounds match the range over all completions (numpy, enumerated)", async () => {
  // tests/data/reference/study_bounds.json: python3 scripts/reference/study_bounds.py enumerates
  // every 0/1 completion of the unresolved slots and takes the min and max of the nested mean.
  const ref = JSON.parse(
    await Deno.readTextFile(new URL("./data/reference/study_bounds.json", import.meta.url)),
  ) as {
    arms: Record<string, {
      slots: { train_seed: number; task_id: string; rep: number; outcome: 0 | 1 | null }[];
      bounds: [number, number];
    }>;
  };
  const names = Object.keys(ref.arms);
  deepEqual(names, ["unbalanced", "unbalanced_one_seed", "issue_example"]);
  for (const name of names) {
    const { slots, bounds } = ref.arms[name]!;
    const grid = buildArmGrid(
      "M",
      slots.map((x) => ({
        arm: "M",
        ...x,
        decidedBy: null,
        status: x.outcome === null ? "ambiguous" as const : "report" as const,
      })),
    );
    ok(grid.ok);
    const got = grid.value.bounds;
    ok(
      Math.abs(got[0] - bounds[0]) < 1e-15 && Math.abs(got[1] - bounds[1]) < 1e-15,
      `${name}: ${got} vs ${bounds}`,
    );
  }
  // The issue's case: pooled S/H = 1/4 would not contain a completion's nested mean of 0.5.
  deepEqual(ref.arms["issue_example"]!.bounds, [0.5, 0.6666666666666666]);
});
