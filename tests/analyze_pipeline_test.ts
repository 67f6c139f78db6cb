/**
 * The analysis pipeline and `gate analyze` end to end on fixture gates
 * (tests/fixtures.ts). Numbers of the kernels themselves are checked
 * against statsmodels in tests/fit_ols_test.ts; here the pipeline must pass
 * them through unchanged, shape the outputs as docs/FORMAT.md section 5 says,
 * and follow the refusal, determinism and ledger rules.
 */
import { deepEqual, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import {
  addSlots,
  mutateJsonl,
  ONLINE_EFFECTS,
  ONLINE_SLOTS,
  quiet,
  tempDir,
  writeGateFixture,
  writePooledRounds,
} from "./fixtures.ts";
import { validateGates } from "../lib/validate/mod.ts";
import { analyzeDataset, runAnalysis } from "../lib/analyze/mod.ts";
import { factorDesign, fitOls } from "../lib/fit/mod.ts";
import { run } from "../lib/cli/analyze.ts";
import type { PairedDataset } from "../lib/core/types.ts";
import { UsageError } from "../lib/cli/args.ts";

Deno.test("analyze: pipeline passes the shared-QR fits through and shapes contributions as FORMAT section 5", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 60,
    slots: ONLINE_SLOTS,
    effects: ONLINE_EFFECTS,
    stage: "online",
    budgetK: 2,
    components: ["r_strict", "r_success", "r_type"],
  });
  const v = await validateGates([fx.gateDir]);
  ok(v.ok && v.dataset, JSON.stringify(v.issues));
  const d = v.dataset;
  const { contributions: c, selection: s } = analyzeDataset(d);
  deepEqual(c.estimator, {
    name: "paired_delta_ols_no_intercept",
    formula: "R_i - B_i = C_i' beta + e_i",
    intercept: 0,
  });
  deepEqual(Object.keys(c.metrics), ["reward", "r_strict", "r_success", "r_type"]);
  deepEqual(c.n_pairs, 60);
  deepEqual(c.tasks.length, 60);
  deepEqual(c.columns.map((x) => x.version_id), ["cur.v1", "add.v1", "rw.v1", "rw.v2", "rw.v3"]);
  deepEqual(c.masked, c.gates[0]!.masked);
  ok(!("gate_id" in c.tasks[0]!)); // only pooled analyses label rows by gate
  const f = factorDesign(d.design, [d.n, d.k]);
  for (const m of d.metrics) {
    const direct = fitOls(f, d.delta[m]!, { cluster: d.cluster, clusterCount: d.clusterCount });
    d.columns.forEach((col, j) => {
      const out = c.metrics[m]!.coefficients[col.version_id]!;
      deepEqual(out.estimate, direct.coefficients[j]);
      deepEqual(out.se_hc3, direct.seHc3[j]);
      deepEqual(out.se_cluster, direct.seCluster[j]);
    });
    // means and per-row values agree with the dataset
    // A plain left-to-right mean; gatelab's (simple-statistics) sums with compensation, so the two
    // agree to rounding.
    const mean = (a: Float64Array) => a.reduce((x, y) => x + y, 0) / a.length;
    ok(Math.abs(c.metrics[m]!.delta_mean - mean(d.delta[m]!)) <= 1e-15);
    deepEqual(c.tasks[7]!.values[m]!.delta, d.delta[m]![7]);
  }
  // One row per task: CR1 = HC1, so se_cluster = sqrt(n/(n-k)) x HC0 (checked via HC1).
  const hc1 = fitOls(f, d.delta.reward!, { covType: "hc1" });
  const cr1 = c.metrics.reward!.coefficients["cur.v1"]!.se_cluster!;
  ok(Math.abs(cr1 / hc1.seRobust[0]! - 1) < 1e-12);
  // The fixture's r_success is 0.5 x reward + 0.1, so its coefficients are half reward's.
  const ratio = c.metrics.r_success!.coefficients["rw.v2"]!.estimate /
    c.metrics.reward!.coefficients["rw.v2"]!.estimate;
  ok(Math.abs(ratio - 0.5) < 1e-9);
  // Selection: rw.v2 (true 0.15) wins its family; the budget is the gate's.
  deepEqual(s.budget_k, 2);
  deepEqual(s.exploratory, false);
  deepEqual(s.stage, "online");
  const rw = s.decisions.filter((x) => x.slot_id === "rw");
  deepEqual(rw.map((x) => x.status), ["rewrite_loser", "selected", "rewrite_loser"]);
  deepEqual(rw.map((x) => x.retired), [true, false, false]);
});

Deno.test("analyze: pooled rounds share one bare run, label rows by gate and cluster by task", async () => {
  await using dir = await tempDir();
  const [a, b] = await writePooledRounds(dir.path, { tasks: 30, slots: addSlots(3) });
  const v = await validateGates([a.gateDir, b.gateDir]);
  ok(v.ok && v.dataset, JSON.stringify(v.issues));
  const { contributions: c } = analyzeDataset(v.dataset);
  deepEqual(c.n_pairs, 60);
  deepEqual(c.n_tasks, 30);
  deepEqual(c.gates.map((g) => g.gate_id), ["r1", "r2"]);
  deepEqual(c.tasks[0]!.gate_id, "r1");
  deepEqual(c.tasks[59]!.gate_id, "r2");
  // Two rows per cluster: CR1 differs from HC1.
  const f = factorDesign(v.dataset.design, [60, 3]);
  const hc1 = fitOls(f, v.dataset.delta.reward!, { covType: "hc1" });
  ok(Math.abs(c.metrics.reward!.coefficients.c1!.se_cluster! - hc1.seRobust[0]!) > 1e-6);
});

Deno.test("analyze: a leverage-1 row gives a warning naming rows and versions and null HC3, never NaN", () => {
  const run = { run_id: "r", run_dir: "r", sha256: "00" };
  // Column b is present only in row 4.
  const design = Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0]);
  const delta = Float64Array.from([0.2, 0.1, 0.3, 0.0, 0.6, -0.1]);
  const d: PairedDataset = {
    baseline: run,
    gates: [{
      gate_id: "g",
      gate_dir: "g",
      stage: "cold_start",
      budget_k: 1,
      mask_seed: 1,
      p_present: 0.5,
      masked: run,
    }],
    columns: [
      { version_id: "a", slot_id: "a", chunk_id: "a", role: "add" },
      { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" },
    ],
    metrics: ["reward"],
    n: 6,
    k: 2,
    design,
    masked: { reward: delta },
    bare: { reward: new Float64Array(6) },
    delta: { reward: delta },
    episodes: Array.from(
      { length: 6 },
      (_, i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 }),
    ),
    gateIndex: new Uint16Array(6),
    cluster: Int32Array.from([0, 1, 2, 3, 4, 5]),
    clusterCount: 6,
  };
  const { contributions: c } = analyzeDataset(d);
  deepEqual(c.warnings.length, 1);
  deepEqual(c.warnings[0]!.kind, "leverage_one");
  deepEqual(c.warnings[0]!.rows, ["val/t4/0"]);
  deepEqual(c.warnings[0]!.versions, ["b"]);
  deepEqual(c.metrics.reward!.coefficients.b!.se_hc3, null);
  deepEqual(c.metrics.reward!.coefficients.b!.p, null);
  ok(c.metrics.reward!.coefficients.a!.se_hc3! > 0);
  ok(!JSON.stringify(c).includes("NaN"));
  // Row 4 pins b: a = mean delta of the other rows with a, (0.2 + 0.3 - 0.1) / 3, and b = 0.6 - a.
  ok(Math.abs(c.metrics.reward!.coefficients.b!.estimate - (0.6 - 0.4 / 3)) < 1e-12);
});

Deno.test("analyze: the bootstrap fills se_bootstrap and ci of every coefficient; 0 skips it; bca is selectable", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 20 });
  const v = await validateGates([fx.gateDir]);
  const skipped = await runAnalysis(v.dataset!, { draws: 0 });
  ok(!("bootstrap" in skipped.contributions));
  // Draws are resolved and checked once, where runAnalysis is called: a negative count is refused.
  await rejects(() => runAnalysis(v.dataset!, { draws: -1 }), {
    name: "RangeError",
    message: "Cannot bootstrap: draws must be a non-negative integer, got -1",
  });
  const asked = await runAnalysis(v.dataset!, { draws: 50, seed: 3 });
  const b = asked.contributions.bootstrap as Record<string, unknown>;
  deepEqual([b.draws, b.seed, b.interval], [50, 3, "percentile"]);
  for (const metric of Object.values(asked.contributions.metrics)) {
    for (const c of Object.values(metric.coefficients)) {
      ok(c.se_bootstrap! > 0 && c.ci && c.ci[0] <= c.ci[1], JSON.stringify(c));
    }
  }
  const bca = await runAnalysis(v.dataset!, { draws: 50, seed: 3, interval: "bca" });
  const blocks = bca.contributions.bootstrap as {
    interval: string;
    metrics: Record<string, { coefficients: Record<string, { ci: unknown; ci_bca: unknown }> }>;
  };
  deepEqual(blocks.interval, "bca");
  for (const [metric, m] of Object.entries(blocks.metrics)) {
    for (const [version, c] of Object.entries(m.coefficients)) {
      deepEqual(c.ci, c.ci_bca);
      const merged = bca.contributions.metrics[metric]!.coefficients[version] as { ci: unknown };
      deepEqual(merged.ci, c.ci_bca);
    }
  }
});

Deno.test("gate analyze: writes all outputs, is deterministic, and re-running does not duplicate the ledger", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 40,
    slots: ONLINE_SLOTS,
    effects: ONLINE_EFFECTS,
    stage: "online",
    budgetK: 2,
  });
  const out = join(dir.path, "out");
  const args = [fx.gateDir, "--out", out, "--bootstrap", "0"];
  deepEqual(await quiet(() => run(args)), 0);
  const names = [...Deno.readDirSync(out)].map((e) => e.name).sort();
  deepEqual(names, [
    ".gatelab-output.json",
    "coefficients.csv",
    "coefficients.md",
    "coefficients.parquet",
    "coefficients.tex",
    "contributions.json",
    "diagnostics.json",
    "diagnostics.md",
    "diagnostics.tex",
    "ledger.jsonl",
    "selection.csv",
    "selection.json",
    "selection.md",
    "selection.parquet",
    "selection.tex",
    "tasks.csv",
    "tasks.parquet",
    "validation.json",
  ]);
  const first = Object.fromEntries(names.map((n) => [n, Deno.readTextFileSync(join(out, n))]));
  deepEqual(await quiet(() => run(args)), 0);
  for (const n of names) deepEqual(Deno.readTextFileSync(join(out, n)), first[n], n);
  // The fixed metadata is written as the contract spells it, a float 0.0.
  ok(first["contributions.json"]!.includes('"intercept": 0.0\n'));
  const ledger = first["ledger.jsonl"]!.trim().split("\n").map((l) => JSON.parse(l));
  deepEqual(ledger.length, 5);
  deepEqual(
    ledger.map((e) => [e.candidate_id, e.operation, e.target_chunk_id, e.replacement_family_id]),
    [
      ["cur.v1", null, null, null],
      ["add.v1", "ADD", null, null],
      ["rw.v1", null, null, "rw"],
      ["rw.v2", "REWRITE", "chunk-rw.v1", "rw"],
      ["rw.v3", "REWRITE", "chunk-rw.v1", "rw"],
    ],
  );
  ok(ledger.every((e) => e.stage === "online" && typeof e.proposal_checkpoint === "string"));
  const selection = JSON.parse(first["selection.json"]!);
  deepEqual(Object.keys(selection).slice(0, 5), [
    "format",
    "metric",
    "budget_k",
    "selected",
    "decisions",
  ]);

  // An exploratory budget appends its own ledger lines (different key) and is marked.
  const ledger2 = join(dir.path, "elsewhere", "ledger.jsonl");
  Deno.mkdirSync(join(dir.path, "elsewhere")); // a ledger's directory is never made silently
  const out2 = join(dir.path, "out2");
  deepEqual(
    await quiet(() =>
      run([
        fx.gateDir,
        "--out",
        out2,
        "--bootstrap",
        "0",
        "--budget-k",
        "1",
        "--ledger",
        ledger2,
        "--cov",
        "hc1",
      ])
    ),
    0,
  );
  const sel2 = JSON.parse(Deno.readTextFileSync(join(out2, "selection.json")));
  deepEqual([sel2.budget_k, sel2.exploratory, sel2.gate_budget_k], [1, true, 2]);
  const c2 = JSON.parse(Deno.readTextFileSync(join(out2, "contributions.json")));
  deepEqual(c2.conventions.cov_type, "hc1");
  ok(!Deno.readDirSync(out2).some((e) => e.name === "ledger.jsonl"));
  deepEqual(Deno.readTextFileSync(ledger2).trim().split("\n").length, 5);
});

Deno.test("gate analyze: invalid input writes only validation.json and exits 2", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 20 });
  // Break pairing: the masked trace injects something else than assigned.
  await mutateJsonl(
    join(fx.gateDir, "traces.jsonl"),
    (o, line) => line === 3 ? { ...o, injected: ["c9"] } : o,
  );
  const out = join(dir.path, "out");
  deepEqual(await quiet(() => run([fx.gateDir, "--out", out, "--bootstrap", "0"])), 2);
  deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "validation.json",
  ]);
  const report = JSON.parse(Deno.readTextFileSync(join(out, "validation.json")));
  deepEqual(report.ok, false);
  ok(report.issues.length > 0);
});

Deno.test("gate analyze: an output directory from another baseline is refused (baseline_changed)", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(join(dir.path, "a"), { tasks: 20, worldSeed: 7 });
  const b = await writeGateFixture(join(dir.path, "b"), { tasks: 20, worldSeed: 8 });
  const out = join(dir.path, "out");
  deepEqual(await quiet(() => run([a.gateDir, "--out", out, "--bootstrap", "0"])), 0);
  const before = Deno.readTextFileSync(join(out, "contributions.json"));
  deepEqual(await quiet(() => run([b.gateDir, "--out", out, "--bootstrap", "0"])), 2);
  deepEqual(Deno.readTextFileSync(join(out, "contributions.json")), before);
  // The earlier result stays whole (its own ok validation.json too); the
  // failed run's report goes beside it, to <out>.failed.
  deepEqual(JSON.parse(Deno.readTextFileSync(join(out, "validation.json"))).ok, true);
  const report = JSON.parse(Deno.readTextFileSync(join(`${out}.failed`, "validation.json")));
  deepEqual(report.issues.map((i: { code: string }) => i.code), ["baseline_changed"]);
  // A corrupt ledger is refused (parse_error naming it), never rewritten; the result stays.
  const ledgerPath = join(dir.path, "ledger.jsonl");
  await Deno.writeTextFile(ledgerPath, "not json\n");
  deepEqual(
    await quiet(() => run([a.gateDir, "--out", out, "--bootstrap", "0", "--ledger", ledgerPath])),
    2,
  );
  deepEqual(Deno.readTextFileSync(ledgerPath), "not json\n");
  deepEqual(Deno.readTextFileSync(join(out, "contributions.json")), before);
  const corrupt = JSON.parse(Deno.readTextFileSync(join(`${out}.failed`, "validation.json")));
  deepEqual(corrupt.issues.map((i: { code: string; file: string }) => [i.code, i.file]), [
    ["parse_error", ledgerPath],
  ]);
  // A later successful run into the same --out removes the stale failure report.
  deepEqual(await quiet(() => run([a.gateDir, "--out", out, "--bootstrap", "0"])), 0);
  deepEqual(await Deno.stat(`${out}.failed`).then(() => true, () => false), false);
});

Deno.test("gate analyze: bad usage is a UsageError (exit 2 from main), not a crash", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 20 });
  const out = join(dir.path, "out");
  await rejects(
    quiet(() => run([fx.gateDir, "--out", out, "--bootstrap", "0", "--metric", "r_nope"])),
    UsageError,
  );
  await rejects(quiet(() => run([fx.gateDir, "--out", out, "--cov", "hc4"])), UsageError);
  await rejects(quiet(() => run([fx.gateDir, "--out", out, "--interval", "bc"])), UsageError);
  await rejects(quiet(() => run([fx.gateDir, "--out", out, "--budget-k", "0"])), UsageError);
  await rejects(quiet(() => run([fx.gateDir])), UsageError);
});
