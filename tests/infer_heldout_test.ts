/**
 * Held-out ranking checks (lib/heldout/heldout.ts). Reference numbers:
 * `python3 scripts/reference/infer_heldout.py` (an independent Fisher-Yates
 * on the Python xoshiro128**, numpy.linalg.lstsq refits of each part,
 * scipy.stats.spearmanr / kendalltau) writes
 * tests/data/reference/infer_heldout.json (through
 * scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok } from "node:assert/strict";
import { againstLaterGate, heldoutCheck, parseHeldoutPlan } from "../lib/heldout/heldout.ts";
import { kendallTauB, spearman } from "../lib/heldout/rank_agreement.ts";
import { bootstrapFixture } from "./infer_fixture.ts";
import { referenceJson } from "./reference_data.ts";

/** One split of the reference: rank agreement, selections and gains. */
interface SplitReference {
  readonly repeat: number;
  readonly fold: number;
  readonly spearman: number;
  readonly kendall: number;
  readonly selected_fit: string[];
  readonly selected_heldout: string[];
  readonly overlap: number;
  readonly gain_predicted: number;
  readonly gain_realised: number;
}

const REFERENCE = await referenceJson<SplitReference[]>("infer_heldout");

const close = (a: number | null | undefined, b: number, tol = 1e-10) =>
  ok(
    a !== null && a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)),
    `${a} vs ${b}`,
  );

Deno.test("heldout: kfold splits match the independent reference split for split", () => {
  const plan = parseHeldoutPlan({
    format: "gatelab.heldout-plan/v1",
    scheme: "kfold",
    folds: 3,
    repeats: 2,
    seed: 5,
    budget_k: 1,
  });
  ok(plan.ok);
  const result = heldoutCheck(bootstrapFixture(), plan.value);
  deepEqual(result.splits.length, REFERENCE.length);
  result.splits.forEach((s, i) => {
    const ref = REFERENCE[i]!;
    deepEqual([s.repeat, s.fold, s.ok], [ref.repeat, ref.fold, true]);
    close(s.spearman, ref.spearman);
    close(s.kendall_tau_b, ref.kendall);
    deepEqual([...s.selected_fit].sort(), ref.selected_fit);
    deepEqual([...s.selected_heldout].sort(), ref.selected_heldout);
    deepEqual(s.topk_overlap, ref.overlap);
    close(s.gain_predicted, ref.gain_predicted);
    close(s.gain_realised, ref.gain_realised);
  });
  close(
    result.summary.gain_predicted.mean,
    REFERENCE.reduce((a, r) => a + r.gain_predicted, 0) / REFERENCE.length,
  );
  // Every task is held out exactly once per repeat.
  deepEqual(
    result.splits.filter((s) => s.repeat === 0).reduce((a, s) => a + s.heldout_tasks, 0),
    24,
  );
});

Deno.test("heldout: split_half puts floor(G/2) tasks in the fit part; plans are checked with plan_invalid", () => {
  const plan = parseHeldoutPlan({
    format: "gatelab.heldout-plan/v1",
    scheme: "split_half",
    repeats: 3,
    seed: 2,
  });
  ok(plan.ok);
  const r = heldoutCheck(bootstrapFixture(), plan.value);
  deepEqual(r.splits.map((s) => [s.fit_tasks, s.heldout_tasks]), [[12, 12], [12, 12], [12, 12]]);
  const bad = parseHeldoutPlan({
    format: "x",
    scheme: "kfold",
    folds: "5",
    repeats: 1,
    seed: 1,
    budget_k: -1,
  }, "p.json");
  ok(!bad.ok);
  deepEqual(bad.issues.map((i) => [i.code, i.file, i.path]), [
    ["plan_invalid", "p.json", "format"],
    ["plan_invalid", "p.json", "folds"],
    ["plan_invalid", "p.json", "budget_k"],
  ]);
  deepEqual(parseHeldoutPlan([1]).issues[0]!.code, "plan_invalid");
});

Deno.test("heldout: rank agreement matches scipy on ties", () => {
  // scipy.stats.spearmanr([1, 2, 2, 3, 5], [2, 1, 3, 3, 4]).statistic = 0.7631578947368421
  // scipy.stats.kendalltau([1, 2, 2, 3, 5], [2, 1, 3, 3, 4]).statistic = 0.6666666666666666
  close(spearman([1, 2, 2, 3, 5], [2, 1, 3, 3, 4]), 0.7631578947368421, 1e-14);
  close(kendallTauB([1, 2, 2, 3, 5], [2, 1, 3, 3, 4]), 0.6666666666666666, 1e-14);
  deepEqual(spearman([1, 1, 1], [1, 2, 3]), null);
});

Deno.test("heldout: against a later gate matches versions by id and sums gains over shared selected versions", () => {
  const earlier = bootstrapFixture();
  const later = {
    ...earlier,
    columns: earlier.columns.map((c) => c.version_id === "a" ? { ...c, version_id: "a2" } : c),
  };
  const r = againstLaterGate(earlier, later, { budgetK: 2 });
  deepEqual(r.shared, ["s@old", "s@new"]);
  deepEqual(r.selected_not_in_later, r.selected.includes("a") ? ["a"] : []);
  // Same data, same coefficients on shared versions: realised equals predicted.
  close(r.gain_realised, r.gain_predicted);
  close(r.spearman_shared, 1);
});
