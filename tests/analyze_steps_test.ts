/**
 * The small steps `analyzeDataset` orchestrates (lib/analyze), each on a
 * hand-made input whose answer is worked out in the test. The pipeline as a
 * whole is checked in tests/analyze_pipeline_test.ts.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import {
  analysisWarnings,
  mergeBootstrap,
  metricOutput,
  resolveAnalyzeOptions,
  rowLabeler,
  taskRows,
} from "../lib/analyze/mod.ts";
import type { ContributionsOutput } from "../lib/analyze/mod.ts";
import type { BootstrapResult } from "../lib/infer/bootstrap/bootstrap.ts";

const gate = (id: string, budget: number) => ({ gate_id: id, budget_k: budget, stage: "online" });

Deno.test("analyze steps: resolveAnalyzeOptions fills defaults and refuses a bad metric, budget or empty dataset", () => {
  const d = { metrics: ["reward", "r_success"], gates: [gate("g", 3)] } as never;
  const r = resolveAnalyzeOptions(d);
  deepEqual(
    [r.metric, r.covType, r.command, r.budgetK, r.gateBudget, r.exploratory],
    ["reward", "hc3", "analyze", 3, 3, false],
  );
  // An override equal to the gate's budget is not exploratory; null means "the gate's".
  equal(resolveAnalyzeOptions(d, { budgetK: 3 }).exploratory, false);
  equal(resolveAnalyzeOptions(d, { budgetK: null }).exploratory, false);
  equal(resolveAnalyzeOptions(d, { budgetK: 1 }).exploratory, true);
  equal(resolveAnalyzeOptions(d, { metric: "r_success", covType: "hc1" }).covType, "hc1");
  throws(
    () => resolveAnalyzeOptions(d, { metric: "steps" }),
    {
      name: "RangeError",
      message: `Cannot select by "steps": the gate's metrics are reward, r_success`,
    },
  );
  throws(() => resolveAnalyzeOptions(d, { budgetK: 0 }), /budget 0 is not a positive integer/);
  throws(() => resolveAnalyzeOptions(d, { budgetK: 1.5 }), /budget 1.5 is not a positive integer/);
  throws(
    () => resolveAnalyzeOptions({ metrics: ["reward"], gates: [] } as never),
    /the dataset has no gate/,
  );
});

const episodes = [
  { split: "val", task_id: "t1", sample_id: 0 },
  { split: "val", task_id: "t2", sample_id: 1 },
];

Deno.test("analyze steps: rowLabeler appends @gate_id only when gates are pooled", () => {
  const one = { episodes, gates: [gate("g1", 1)], gateIndex: Uint16Array.from([0, 0]) } as never;
  deepEqual([0, 1].map(rowLabeler(one)), ["val/t1/0", "val/t2/1"]);
  const two = {
    episodes,
    gates: [gate("g1", 1), gate("g2", 1)],
    gateIndex: Uint16Array.from([1, 0]),
  } as never;
  deepEqual([0, 1].map(rowLabeler(two)), ["val/t1/0@g2", "val/t2/1@g1"]);
});

Deno.test("analyze steps: analysisWarnings names leverage-1 rows and versions, in the fixed order", () => {
  const dataset = {
    columns: [{ version_id: "a" }, { version_id: "b" }],
    clusterCount: 2,
    gates: [gate("g", 2)],
  } as never;
  const none = analysisWarnings(dataset, {
    fit: { leverageOneRows: [], hc3UndefinedColumns: [], varianceUndefinedColumns: [] },
    rowLabel: (i) => `row${i}`,
    diagnosticsAvailable: true,
    gateBudget: 2,
  });
  deepEqual(none, []);
  const all = analysisWarnings(
    {
      columns: [{ version_id: "a" }, { version_id: "b" }],
      clusterCount: 1,
      gates: [gate("g", 2), gate("h", 4)],
    } as never,
    {
      fit: { leverageOneRows: [3, 5], hc3UndefinedColumns: [1], varianceUndefinedColumns: [1] },
      rowLabel: (i) => `row${i}`,
      diagnosticsAvailable: false,
      gateBudget: 2,
    },
  );
  deepEqual(all.map((w) => w.kind), [
    "leverage_one",
    "single_cluster",
    "diagnostics_unavailable",
    "budget_differs",
  ]);
  deepEqual([all[0]!.rows, all[0]!.versions], [["row3", "row5"], ["b"]]);
  equal(
    all[0]!.message.startsWith(
      "Cannot compute HC2/HC3 errors of b: row(s) row3, row5 have leverage 1",
    ),
    true,
  );
  equal(
    all[3]!.message,
    "Pooled gates plan different budgets (2, 4); the first gate's budget_k 2 is used",
  );
});

Deno.test("analyze steps: metricOutput turns non-finite numbers into null and carries the AMCE", () => {
  const f = (...v: number[]) => Float64Array.from(v);
  const fit = {
    coefficients: f(0.3, -0.1),
    seHc3: f(NaN, 0.2),
    seRobust: f(0.1, Infinity),
    t: f(3, -0.5),
    p: f(0.01, 0.6),
    seCluster: f(NaN, NaN),
    tCluster: f(NaN, NaN),
    pCluster: f(NaN, NaN),
    dfResid: 2,
    residSe: NaN,
    ssr: 0.04,
    r2Uncentered: 0.75,
  };
  const dataset = {
    n: 4,
    k: 2,
    columns: [{ version_id: "a" }, { version_id: "b" }],
    masked: { reward: f(1, 2, 3, 4) },
    bare: { reward: f(0, 0, 1, 1) },
    delta: { reward: f(1, 2, 2, 3) },
  } as never;
  const amce = [{ amce: 0.25, gap: 0.05 }, { amce: null, gap: null }] as never;
  const out = metricOutput(dataset, "reward", fit as never, amce);
  deepEqual(
    [out.n, out.k, out.df_resid, out.resid_se, out.ssr, out.r2_uncentered],
    [4, 2, 2, null, 0.04, 0.75],
  );
  deepEqual([out.masked_mean, out.bare_mean, out.delta_mean], [2.5, 0.5, 2]);
  deepEqual(Object.keys(out.coefficients), ["a", "b"]);
  deepEqual(out.coefficients.a, {
    estimate: 0.3,
    se_hc3: null,
    se_robust: 0.1,
    t: 3,
    p: 0.01,
    se_cluster: null,
    t_cluster: null,
    p_cluster: null,
    amce: 0.25,
    amce_gap: 0.05,
  });
  deepEqual([out.coefficients.b!.se_robust, out.coefficients.b!.amce], [null, null]);
  const without = metricOutput(dataset, "reward", fit as never, null);
  deepEqual([without.coefficients.a!.amce, without.coefficients.a!.amce_gap], [null, null]);
});

Deno.test("analyze steps: taskRows gives design columns and values per metric, gate_id only when pooled", () => {
  const base = {
    n: 2,
    k: 2,
    columns: [{ version_id: "a" }, { version_id: "b" }],
    design: Uint8Array.from([1, 0, 1, 1]),
    metrics: ["reward", "r_success"],
    masked: { reward: [0.5, 1], r_success: [0, 1] },
    bare: { reward: [0.25, 0.5], r_success: [0, 0] },
    delta: { reward: [0.25, 0.5], r_success: [0, 1] },
    episodes,
  };
  const single = taskRows({ ...base, gates: [gate("g", 1)], gateIndex: [0, 0] } as never);
  deepEqual(single[1], {
    split: "val",
    task_id: "t2",
    sample_id: 1,
    columns: { a: 1, b: 1 },
    values: {
      reward: { masked: 1, bare: 0.5, delta: 0.5 },
      r_success: { masked: 1, bare: 0, delta: 1 },
    },
  });
  deepEqual(single[0]!.columns, { a: 1, b: 0 });
  const pooled = taskRows(
    { ...base, gates: [gate("g", 1), gate("h", 1)], gateIndex: [1, 0] } as never,
  );
  deepEqual(pooled.map((r) => r.gate_id), ["h", "g"]);
  deepEqual(Object.keys(pooled[0]!), [
    "split",
    "task_id",
    "sample_id",
    "gate_id",
    "columns",
    "values",
  ]);
});

Deno.test("analyze steps: mergeBootstrap adds se_bootstrap and ci, puts bootstrap before tasks, leaves the input alone", () => {
  const doc = {
    format: "gatelab.contributions/v1",
    metrics: { reward: { n: 2, coefficients: { a: { estimate: 1 }, b: { estimate: 2 } } } },
    warnings: [],
    tasks: [],
    generator: { tool: "gatelab", version: "v", command: "analyze" },
  } as unknown as ContributionsOutput;
  const before = JSON.stringify(doc);
  // A stand-in for a BootstrapResult: only the parts mergeBootstrap reads, plus raw draws it must drop.
  const merged = mergeBootstrap(doc, {
    draws: 10,
    metrics: { reward: { coefficients: { a: { se_bootstrap: 0.1, ci: [0.8, 1.2] } } } },
    kernel: "raw draws",
  } as unknown as BootstrapResult);
  equal(JSON.stringify(doc), before);
  deepEqual(merged.metrics.reward!.coefficients.a, {
    estimate: 1,
    se_bootstrap: 0.1,
    ci: [0.8, 1.2],
  });
  deepEqual(merged.metrics.reward!.coefficients.b, { estimate: 2 });
  deepEqual(Object.keys(merged.bootstrap!), ["draws", "metrics"]);
  deepEqual(Object.keys(merged), [
    "format",
    "metrics",
    "warnings",
    "bootstrap",
    "tasks",
    "generator",
  ]);
});
