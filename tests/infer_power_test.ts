/**
 * Power planning (lib/power/power.ts). Reference numbers: `python3
 * scripts/reference/infer_power.py` (numpy 2.4 inverse of
 * p(1-p) I + p^2 J, scipy 1.17 norm.ppf, and a 20000-sim numpy Monte Carlo)
 * writes tests/data/reference/infer_power.json (through
 * scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import { referenceJson } from "./reference_data.ts";
import {
  analyticStandardError,
  minimumDetectableEffect,
  planPower,
  simulatePower,
} from "../lib/power/power.ts";
import { powerInputsFromContributions } from "../lib/power/power_from.ts";

const REFERENCE = await referenceJson<{
  cases: { tasks: number; columns: number; p: number; s: number; se: number; mde: number }[];
  monte_carlo_se_400_16: number;
}>("infer_power");
const CASES = REFERENCE.cases;
const MONTE_CARLO_SE_400_16 = REFERENCE.monte_carlo_se_400_16;

Deno.test("power: analytic SE and MDE match numpy/scipy", () => {
  for (const c of CASES) {
    const se = analyticStandardError({
      tasks: c.tasks,
      columns: c.columns,
      pPresent: c.p,
      residSd: c.s,
    });
    ok(Math.abs(se / c.se - 1) < 1e-12, `${se} vs ${c.se}`);
    ok(Math.abs(minimumDetectableEffect(se) / c.mde - 1) < 1e-12);
  }
});

Deno.test("power: the simulated SE agrees with numpy's Monte Carlo within simulation error", () => {
  const sim = simulatePower({ tasks: 400, columns: 16, pPresent: 0.5, residSd: 0.3 }, {
    sims: 400,
    seed: 3,
  });
  // 400 sims x 16 columns: relative sampling error of the pooled SD is about 1/sqrt(2 x 6400) = 0.9%.
  ok(Math.abs(sim.simulated_se / MONTE_CARLO_SE_400_16 - 1) < 0.04, `${sim.simulated_se}`);
  deepEqual(sim.degenerate_sims, 0);
});

Deno.test("power: selection probability is 1 for large separated effects and the truly best set is top-K positive", () => {
  const effects = [0.3, 0.25, -0.2, 0, 0.2, 0.01];
  const r = simulatePower({ tasks: 400, columns: 6, pPresent: 0.5, residSd: 0.05 }, {
    effects,
    budgetK: 3,
    sims: 50,
    seed: 9,
  });
  deepEqual(r.true_best, [0, 1, 4]);
  deepEqual(r.p_exact_best_set, 1);
  deepEqual(r.selected_frequency[2], 0);
  // Small effects against noise: the set is found far less often.
  const weak = simulatePower({ tasks: 100, columns: 6, pPresent: 0.5, residSd: 2 }, {
    effects,
    budgetK: 3,
    sims: 100,
    seed: 9,
  });
  ok(weak.p_exact_best_set! < 0.5);
  // No positive effect: no best set, selection power undefined.
  const none = simulatePower({ tasks: 50, columns: 3, pPresent: 0.5, residSd: 1 }, {
    sims: 20,
    seed: 1,
  });
  deepEqual([none.p_exact_best_set, none.mean_best_recall], [null, null]);
  ok(none.selection_note!.includes("--effects"));
});

Deno.test("power: plan records conventions and grids; bad designs are refused", () => {
  const plan = planPower({ tasks: 200, columns: 8, pPresent: 0.5, residSd: 0.2 }, {
    sims: 20,
    seed: 1,
    budgetK: 4,
  });
  deepEqual(plan.design.budget_k, 4);
  ok(plan.analytic.approximation.includes("Bernoulli"));
  ok(plan.mde_by_tasks.some((r) => r.tasks === 200 && r.mde_80 === plan.analytic.mde_80));
  throws(
    () => analyticStandardError({ tasks: 0, columns: 8, pPresent: 1.2, residSd: 0.2 }),
    /tasks 0.*p_present 1.2/,
  );
  throws(
    () =>
      simulatePower({ tasks: 10, columns: 2, pPresent: 0.5, residSd: 1 }, {
        effects: [1],
        seed: 1,
      }),
    /1 effects for 2 columns/,
  );
});

Deno.test("power --from: pooled rounds count distinct tasks (n_tasks), not rows (n_pairs)", () => {
  // Two rounds on the same 4 tasks: 8 rows. residual SD: numpy
  // np.sqrt(np.linalg.lstsq(X, y)[1][0] / (8 - 2)) = 0.0756912588524373 for the rows below.
  const rows = [[1, 0, 0.3], [0, 1, 0.1], [1, 1, 0.5], [0, 0, 0.05], [1, 0, 0.2], [0, 1, 0.0], [
    1,
    1,
    0.4,
  ], [1, 0, 0.25]] as const;
  const tasks = rows.map(([a, b, d]) => ({ columns: { a, b }, values: { reward: { delta: d } } }));
  const doc = {
    n_pairs: 8,
    n_tasks: 4,
    columns: [{ version_id: "a" }, { version_id: "b" }],
    tasks,
    metrics: { reward: { coefficients: { a: { estimate: 0.2 }, b: { estimate: 0.1 } } } },
  };
  const r = powerInputsFromContributions(doc);
  ok(r.ok);
  deepEqual([r.value.tasks, r.value.columns], [4, 2]);
  ok(r.value.how.startsWith("tasks = n_tasks"));
  ok(Math.abs(r.value.residSd - 0.0756912588524373) < 1e-14, `${r.value.residSd}`);
});
