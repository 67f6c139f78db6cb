/**
 * Misfit diagnostics and selection stability inside `gate analyze`: the
 * AMCE beside every coefficient (checked against a hand computation: mean
 * delta where the version is present minus mean delta where its slot is
 * absent), diagnostics.json (interaction screen, residuals by count,
 * conventions) and stability.md/.tex. The screen's statistics themselves
 * are checked against statsmodels in tests/infer_diagnostics_test.ts; here
 * the pipeline must compute them on the right metric and pass them through.
 */
import { columnNames } from "../lib/table/format.ts";
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  addSlots,
  ONLINE_EFFECTS,
  ONLINE_SLOTS,
  quiet,
  tempDir,
  writeGateFixture,
  writePooledRounds,
} from "./fixtures.ts";
import { validateGates } from "../lib/validate/mod.ts";
import { analyzeDataset } from "../lib/analyze/mod.ts";
import { run } from "../lib/cli/analyze.ts";
import { createPrng } from "../lib/math/prng.ts";
import type { PairedDataset } from "../lib/core/types.ts";

const run0 = { run_id: "r", run_dir: "r", sha256: "00" };

/** An in-memory dataset of plain (one-version) columns with one row per task. */
function plainDataset(
  names: readonly string[],
  design: Uint8Array,
  delta: Float64Array,
): PairedDataset {
  const n = delta.length;
  return {
    baseline: run0,
    gates: [{
      gate_id: "g",
      gate_dir: "g",
      stage: "cold_start",
      budget_k: 1,
      mask_seed: 1,
      p_present: 0.5,
      masked: run0,
    }],
    columns: names.map((v) => ({ version_id: v, slot_id: v, chunk_id: v, role: "add" as const })),
    metrics: ["reward"],
    n,
    k: names.length,
    design,
    masked: { reward: delta },
    bare: { reward: new Float64Array(n) },
    delta: { reward: delta },
    episodes: Array.from(
      { length: n },
      (_, i) => ({ split: "val", task_id: `t${i}`, sample_id: 0 }),
    ),
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from({ length: n }, (_, i) => i),
    clusterCount: n,
  };
}

const close = (a: number | null | undefined, b: number, tol = 1e-12) =>
  ok(typeof a === "number" && Math.abs(a - b) <= tol, `${a} vs ${b}`);

Deno.test("analyze diagnostics: AMCE and gap by hand on a six-row design (with a leverage-1 row)", () => {
  // Rows: a, none, a, none, a+b, a. b is present only in row 4.
  const d = plainDataset(
    ["a", "b"],
    Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0]),
    Float64Array.from([0.2, 0.1, 0.3, 0.0, 0.6, -0.1]),
  );
  const { contributions: c, diagnostics } = analyzeDataset(d);
  const a = c.metrics.reward!.coefficients.a!, b = c.metrics.reward!.coefficients.b!;
  // OLS: row 4 pins b, so a = (0.2 + 0.3 - 0.1) / 3 and b = 0.6 - a.
  close(a.estimate, 0.4 / 3);
  close(b.estimate, 0.6 - 0.4 / 3);
  // AMCE(a) = mean(0.2, 0.3, 0.6, -0.1) - mean(0.1, 0.0) = 0.25 - 0.05 = 0.2.
  close(a.amce, 0.2);
  // AMCE(b) = 0.6 - mean(0.2, 0.1, 0.3, 0.0, -0.1) = 0.6 - 0.1 = 0.5.
  close(b.amce, 0.5);
  // The gap is exactly estimate - amce of the same document.
  deepEqual(a.amce_gap, a.estimate - a.amce!);
  deepEqual(b.amce_gap, b.estimate - b.amce!);
  close(a.amce_gap, 0.4 / 3 - 0.2);
  ok(c.conventions.amce?.startsWith("amce = mean delta over rows with the version present"));

  ok(diagnostics !== null);
  deepEqual(diagnostics.metric, "reward");
  deepEqual(diagnostics.amce.map((r) => [r.version_id, r.beta, r.amce, r.gap]), [
    ["a", a.estimate, a.amce, a.amce_gap],
    ["b", b.estimate, b.amce, b.amce_gap],
  ]);
  // Welch se of AMCE(a): s1^2 = var(0.2, 0.3, 0.6, -0.1) = 0.0833..., s0^2 = var(0.1, 0) = 0.005.
  close(diagnostics.amce[0]!.amce_se, Math.sqrt(0.25 / 3 / 4 + 0.005 / 2));
  // The product a x b equals column b: the pair is not testable and there is no joint test.
  deepEqual(diagnostics.interactions.pairs.map((p) => [p.a, p.b, p.n_both, p.testable]), [
    ["a", "b", 1, false],
  ]);
  deepEqual(diagnostics.interactions.joint, null);
  deepEqual(diagnostics.interactions.flagged, []);
  deepEqual(diagnostics.interactions.covariance, "HC3");
  // Residuals by count: none -> (0.1, 0); one -> (0.2, 0.3, -0.1) - a; two -> 0 (pinned).
  const res = diagnostics.residuals_by_count;
  deepEqual(res.map((r) => [r.count, r.n]), [[0, 2], [1, 3], [2, 1]]);
  close(res[0]!.mean, 0.05);
  close(res[1]!.mean, 0, 1e-12);
  close(res[2]!.mean, 0, 1e-12);
  deepEqual(res[2]!.sd, null);
  ok(!JSON.stringify(diagnostics).includes("NaN"));
});

Deno.test("analyze diagnostics: every metric's AMCE equals the hand computation from the tasks rows, REWRITE slots against slot absent", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 60,
    slots: ONLINE_SLOTS,
    effects: ONLINE_EFFECTS,
    stage: "online",
    budgetK: 2,
    components: ["r_strict", "r_success"],
  });
  const v = await validateGates([fx.gateDir]);
  ok(v.ok && v.dataset, JSON.stringify(v.issues));
  const { contributions: c, diagnostics } = analyzeDataset(v.dataset, { metric: "r_success" });
  const slotOf = new Map(c.columns.map((col) => [col.version_id, col.slot_id]));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  let checked = 0;
  for (const [m, out] of Object.entries(c.metrics)) {
    for (const [version, coef] of Object.entries(out.coefficients)) {
      const slot = slotOf.get(version)!;
      const present: number[] = [], absent: number[] = [];
      for (const row of c.tasks) {
        const value = row.values[m]!.delta;
        if (row.columns[version] === 1) present.push(value);
        else if (
          c.columns.every((col) => col.slot_id !== slot || row.columns[col.version_id] === 0)
        ) {
          absent.push(value);
        }
      }
      ok(present.length > 0 && absent.length > 0);
      close(coef.amce, mean(present) - mean(absent));
      deepEqual(coef.amce_gap, coef.estimate - coef.amce!);
      checked++;
    }
  }
  deepEqual(checked, 3 * 5);
  // diagnostics.json is about the selection metric and repeats its AMCE columns.
  ok(diagnostics !== null);
  deepEqual(diagnostics.metric, "r_success");
  const coefs = c.metrics.r_success!.coefficients;
  deepEqual(
    diagnostics.amce.map((r) => [r.version_id, r.beta, r.amce, r.gap]),
    c.columns.map((
      col,
    ) => [
      col.version_id,
      coefs[col.version_id]!.estimate,
      coefs[col.version_id]!.amce,
      coefs[col.version_id]!.amce_gap,
    ]),
  );
  // Pairs in different slots only: cur x add, cur x rw.*, add x rw.* = 1 + 3 + 3.
  deepEqual(diagnostics.interactions.pairs.length, 7);
  ok(!diagnostics.interactions.pairs.some((p) => p.a.startsWith("rw.") && p.b.startsWith("rw.")));
  deepEqual(diagnostics.interactions.correction, "holm");
  deepEqual(diagnostics.interactions.covariance, "HC3");
  deepEqual(diagnostics.residuals_by_count.reduce((s, r) => s + r.n, 0), 60);
  deepEqual(diagnostics.generator, c.generator);
  deepEqual(diagnostics.baseline, c.baseline);
});

Deno.test("analyze diagnostics: a planted interaction is the first flagged pair, by far", () => {
  // 300 rows, four plain columns present with probability 1/2 (xoshiro128**, seed 11),
  // delta = 0.1 (a + b + c + d) + 0.3 a b + noise uniform in [-0.2, 0.2).
  const n = 300, k = 4;
  const prng = createPrng(11);
  const design = new Uint8Array(n * k);
  const delta = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) design[i * k + j] = prng.nextFloat() < 0.5 ? 1 : 0;
    const x = (j: number) => design[i * k + j]!;
    delta[i] = 0.1 * (x(0) + x(1) + x(2) + x(3)) + 0.3 * x(0) * x(1) +
      0.4 * (prng.nextFloat() - 0.5);
  }
  const { diagnostics } = analyzeDataset(plainDataset(["a", "b", "c", "d"], design, delta));
  ok(diagnostics !== null);
  const screen = diagnostics.interactions;
  deepEqual(screen.flagged[0], "a x b");
  const pHolm = Object.fromEntries(screen.pairs.map((p) => [`${p.a} x ${p.b}`, p.p_holm!]));
  ok(pHolm["a x b"]! < 1e-20, `${pHolm["a x b"]}`);
  // The screen tests one product at a time, so a strong omitted a x b leaks into pairs that share
  // a column (a x d here, adjusted p about 1e-3); every other pair stays far behind the planted one.
  for (const [pair, p] of Object.entries(pHolm)) if (pair !== "a x b") ok(p > 1e-4, `${pair} ${p}`);
  ok(screen.joint !== null && screen.joint.df1 === 6 && screen.joint.p_value < 1e-20);
});

Deno.test("analyze diagnostics: pooled rounds screen interactions with CR1 by task (df2 = tasks - 1)", async () => {
  await using dir = await tempDir();
  const [a, b] = await writePooledRounds(dir.path, { tasks: 30, slots: addSlots(3) });
  const v = await validateGates([a.gateDir, b.gateDir]);
  ok(v.ok && v.dataset, JSON.stringify(v.issues));
  const { diagnostics } = analyzeDataset(v.dataset);
  ok(diagnostics !== null);
  deepEqual(diagnostics.interactions.covariance, "CR1");
  deepEqual(diagnostics.interactions.df2_rule, "clusters - 1");
  ok(diagnostics.conventions.interaction_covariance?.startsWith("CR1 clustered by task"));
  deepEqual(diagnostics.interactions.joint?.df2, 29);
  deepEqual(diagnostics.gates.map((g) => g.gate_id), ["r1", "r2"]);
  deepEqual([diagnostics.n_pairs, diagnostics.n_tasks], [60, 30]);
});

Deno.test("gate analyze: diagnostics and stability files are written in the same call and are deterministic", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 40,
    slots: ONLINE_SLOTS,
    effects: ONLINE_EFFECTS,
    stage: "online",
    budgetK: 2,
  });
  const out = join(dir.path, "out");
  const args = [fx.gateDir, "--out", out, "--bootstrap", "200", "--seed", "5"];
  deepEqual(await quiet(() => run(args)), 0);
  const names = [...Deno.readDirSync(out)].map((e) => e.name).sort();
  for (const f of ["diagnostics.json", "diagnostics.md", "diagnostics.tex"]) ok(names.includes(f));
  for (const f of ["stability.md", "stability.tex"]) ok(names.includes(f));
  const first = Object.fromEntries(names.map((n) => [n, Deno.readTextFileSync(join(out, n))]));
  deepEqual(await quiet(() => run(args)), 0);
  for (const n of names) deepEqual(Deno.readTextFileSync(join(out, n)), first[n], n);

  const diag = JSON.parse(first["diagnostics.json"]!);
  deepEqual(diag.format, "gatelab.diagnostics/v1");
  deepEqual(diag.metric, "reward");
  deepEqual(diag.generator.command, ["gate", "analyze", ...args].join(" "));
  deepEqual(Object.keys(diag.conventions).sort(), [
    "amce",
    "amce_gap",
    "amce_se",
    "interaction_covariance",
    "interaction_screen",
    "joint_test",
    "multiplicity",
    "residuals_by_count",
  ]);
  const contributions = JSON.parse(first["contributions.json"]!);
  for (const row of diag.amce) {
    const coef = contributions.metrics.reward.coefficients[row.version_id];
    deepEqual([row.beta, row.amce, row.gap], [coef.estimate, coef.amce, coef.amce_gap]);
  }
  ok(first["diagnostics.md"]!.includes("OLS coefficient beside AMCE (reward)"));
  ok(first["diagnostics.tex"]!.includes("\\toprule"));
  // Stability renders contributions.json's bootstrap.stability, one row per version.
  const stability = contributions.bootstrap.stability;
  deepEqual(stability.draws_used + stability.draws_excluded, 200);
  const md = first["stability.md"]!;
  ok(md.includes(`Out: selection stability of reward (K = 2)`)); // captions name the run (--out)
  // Rows are named like the coefficient tables: a one-version slot by its chunk.
  const chunkNames = columnNames(contributions.columns);
  for (const s of stability.versions) {
    const name = chunkNames.get(s.version_id)!;
    ok(md.includes(`| ${name} | ${s.selected_point ? "yes" : "no"} |`), s.version_id);
  }

  // Without the bootstrap there is no stability table, but the diagnostics remain.
  const out0 = join(dir.path, "out0");
  deepEqual(await quiet(() => run([fx.gateDir, "--out", out0, "--bootstrap", "0"])), 0);
  const names0 = [...Deno.readDirSync(out0)].map((e) => e.name);
  ok(names0.includes("diagnostics.json"));
  ok(!names0.some((n) => n.startsWith("stability.")));
});
