/**
 * The demo's one planted interaction (candidate-inspection.v1 x
 * candidate-comparison.v1 in cold-start Gate A, substitutes) is what the
 * misfit diagnostics' interaction screen finds on the committed files, and
 * nothing else on reward.
 *
 * Reference numbers: `python3 scripts/reference/demo_interaction.py data/demo --json`
 * (statsmodels 0.15: OLS of the paired delta on the 14 columns plus the single
 * product column, no intercept, `cov_type="HC3"`, `wald_test(use_f=True)`,
 * F(1, 385); the same for all 91 pairs and `multipletests(method="holm")`)
 * writes tests/data/reference/demo_interaction.json (through
 * scripts/reference/regenerate.sh), read here for all seven metrics.
 */
import { deepEqual, ok } from "node:assert/strict";
import { misfitDiagnostics } from "../lib/infer/diagnostics/diagnostics.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { referenceJson } from "./reference_data.ts";

const ROOT = new URL("../data/demo/", import.meta.url).pathname;
const PAIR = "candidate-inspection.v1 x candidate-comparison.v1";

/** statsmodels per metric: the planted pair, its rank by p, all Holm-flagged pairs, the best other Holm p. */
const REFERENCE = (await referenceJson<{
  metrics: Record<string, {
    pairs: number;
    df2: number;
    gamma: number;
    se: number;
    f: number;
    p: number;
    holm: number;
    rank: number;
    flagged: string[];
    best_other_holm: number;
  }>;
}>("demo_interaction")).metrics;

const truth = JSON.parse(Deno.readTextFileSync(ROOT + "truth.json"));
const validation = await validateGates([ROOT + "ckpt-a/gate-a"]);
const close = (a: number, b: number, rel: number) => Math.abs(a - b) <= rel * Math.abs(b) + 1e-12;

Deno.test("demo interaction: Gate A validates and truth plants the pair at reward scale >= 0.3", () => {
  ok(validation.ok && validation.dataset, "Gate A validates clean");
  const planted = truth.gate_a.interaction;
  deepEqual(planted.versions, ["candidate-inspection.v1", "candidate-comparison.v1"]);
  // Substitutes: each alone helps, together they add far less than the sum.
  const a = truth.gate_a.latent_effects["candidate-inspection.v1"] as number[];
  const b = truth.gate_a.latent_effects["candidate-comparison.v1"] as number[];
  (planted.latent_effect as number[]).forEach((g, c) => {
    ok(a[c]! > 1 && b[c]! > 1 && g < -(Math.min(a[c]!, b[c]!)));
    ok(a[c]! + b[c]! + g > 0, "together still slightly better than neither");
  });
  ok(planted.expected_product_coefficient.reward <= -0.3);
});

for (const [metric, ref] of Object.entries(REFERENCE)) {
  Deno.test(`demo interaction: the screen on ${metric} agrees with statsmodels (planted pair rank ${ref.rank}, ${ref.flagged.length} flagged)`, () => {
    const d = misfitDiagnostics(validation.dataset!, { metric });
    const screen = d.interactions;
    deepEqual([screen.covariance, screen.correction, screen.alpha], ["HC3", "holm", 0.05]);
    deepEqual(screen.pairs.length, ref.pairs);
    deepEqual(screen.pairs.filter((q) => q.testable).length, ref.pairs);
    deepEqual(screen.flagged, ref.flagged);
    const ranked = [...screen.pairs].sort((u, v) => u.p_value! - v.p_value!);
    const rank = ranked.findIndex((q) => `${q.a} x ${q.b}` === PAIR) + 1;
    deepEqual(rank, ref.rank);
    const pair = ranked[rank - 1]!;
    ok(close(pair.gamma!, ref.gamma, 1e-10), `gamma ${pair.gamma}`);
    ok(close(pair.se!, ref.se, 1e-10), `se ${pair.se}`);
    ok(close(pair.f!, ref.f, 1e-10), `F ${pair.f}`);
    ok(close(pair.p_value!, ref.p, 1e-10), `p ${pair.p_value}`);
    ok(close(pair.p_holm!, ref.holm, 1e-10), `holm ${pair.p_holm}`);
    const others = screen.pairs.filter((q) => `${q.a} x ${q.b}` !== PAIR);
    const best = Math.min(...others.map((q) => q.p_holm!));
    ok(close(best, ref.best_other_holm, 1e-10), `best other holm ${best}`);
    if (ref.flagged.includes(PAIR)) {
      // The realised interaction is within 2 se of what the truth expects.
      const expected = truth.gate_a.interaction.expected_product_coefficient[metric];
      ok(Math.abs(pair.gamma! - expected) < 2 * pair.se!, `${pair.gamma} vs expected ${expected}`);
    }
  });
}

Deno.test("demo interaction: on reward the planted pair is the only Holm-significant pair", () => {
  const screen = misfitDiagnostics(validation.dataset!).interactions;
  deepEqual(screen.metric, "reward");
  deepEqual(screen.flagged, [PAIR]);
  const others = screen.pairs.filter((q) => `${q.a} x ${q.b}` !== PAIR);
  ok(others.every((q) => !q.flagged && q.p_holm! >= 0.05));
});
