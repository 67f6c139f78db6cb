/**
 * `gate history` and the exploratory re-analysis on the demo's three
 * checkpoints. Reference numbers: tests/data/history_wls_reference.json,
 * made by `python3 scripts/reference/history_wls.py` (statsmodels: OLS with
 * HC3 or task-clustered errors per step, WLS with the scale fixed at 1 for
 * the trend; OLS with an intercept on R - mean(B) for the legacy fit).
 */
import { deepEqual, ok } from "node:assert/strict";
import { main } from "../lib/cli/main.ts";
import { wlsTrend } from "../lib/history/wls_trend.ts";
import { quiet } from "./fixtures.ts";

const REF = JSON.parse(
  await Deno.readTextFile(new URL("./data/history_wls_reference.json", import.meta.url)),
);
const DEMO = "data/demo";
const A = `${DEMO}/ckpt-a/gate-a`;
const B = [`${DEMO}/ckpt-b/gate-online-r1`, `${DEMO}/ckpt-b/gate-online-r2`];
const C = `${DEMO}/ckpt-c/gate-online-c`;
const XSVC = `${DEMO}/ckpt-c/gate-online-c-xsvc`;

const close = (a: number, b: number, tol = 1e-12) =>
  ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("wlsTrend matches statsmodels WLS (fixed scale) on a synthetic case", () => {
  const s = REF.synthetic;
  const fit = wlsTrend(s.x, s.y, s.se);
  close(fit.slope, s.slope);
  close(fit.slopeSe, s.slope_se);
  close(fit.slopeCi[0], s.slope_ci[0]);
  close(fit.slopeCi[1], s.slope_ci[1]);
});

Deno.test("history a -> b -> c: strict lineage fails at step 2 with exactly the demo's gaps", async () => {
  const out = await Deno.makeTempDir();
  const code = await quiet(() => main(["history", A, ...B, C, "--out", out, "--no-png"]));
  deepEqual(code, 2);
  const v = await readJson(`${out}/validation.json`);
  deepEqual(v.counts, { lineage_mismatch: 8 });
  // ckpt-b starts from two chunks Gate A did not select and lacks six it did.
  deepEqual(
    v.issues.map((i: { path: string }) => i.path.replace("slots.", "")).sort(),
    [
      "candidate-comparison",
      "candidate-inspection",
      "explicit-constraint-checklist",
      "persona-budget-inference",
      "persona-preference-reasoning",
      "query-refinement",
      "review-reading",
      "variant-option-selection",
    ],
  );
  ok(v.issues.every((i: { file: string }) => i.file === `${B[0]}/gate.json`));
  deepEqual(await exists(`${out}/history.json`), false);
  await Deno.remove(out, { recursive: true });
});

Deno.test("history b -> c is a clean lineage", async () => {
  const out = await Deno.makeTempDir();
  deepEqual(await quiet(() => main(["history", ...B, C, "--out", out, "--no-png"])), 0);
  const h = await readJson(`${out}/history.json`);
  deepEqual([h.lineage.ok, h.steps.length], [true, 2]);
  await Deno.remove(out, { recursive: true });
});

Deno.test("history with gaps allowed: lifecycles, exposure and the internalization screen", async () => {
  const out = await Deno.makeTempDir();
  const code = await quiet(() =>
    main(["history", A, ...B, C, "--out", out, "--allow-lineage-gaps", "--no-png"])
  );
  deepEqual(code, 0);
  const h = await readJson(`${out}/history.json`);
  const v = await readJson(`${out}/validation.json`);
  deepEqual([v.ok, v.counts], [true, { lineage_mismatch: 8 }]);
  ok(v.issues.every((i: { severity: string }) => i.severity === "warning"));
  deepEqual(h.format, "gatelab.history/v1");
  deepEqual(h.steps.map((s: { checkpoint_id: string }) => s.checkpoint_id), [
    "qwen3.5-4b-sft@rev-8d2f1c0",
    "qwen3.5-4b-grpo-round3@rev-41b9e77",
    "qwen3.5-4b-grpo-round6@rev-c75e0d2",
  ]);
  deepEqual(h.steps.map((s: { gate_ids: string[] }) => s.gate_ids), [
    ["gate-a"],
    ["gate-online-r1", "gate-online-r2"],
    ["gate-online-c"],
  ]);
  const at = (chunk: string) =>
    h.chunks[chunk].map((e: { version_id: string; status: string; transition: string } | null) =>
      e === null ? null : [e.version_id, e.status, e.transition]
    );
  // Planted: the internalizing chunk stays selected at all three steps.
  deepEqual(at("query-formulation"), [
    ["query-formulation.v1", "selected", "added"],
    ["query-formulation.v1", "selected", "kept"],
    ["query-formulation.v1", "selected", "kept"],
  ]);
  // Planted: retired at ckpt-c.
  deepEqual(at("candidate-comparison")[2], ["candidate-comparison.v1", "retired", "retired"]);
  // Not planted, a draw of the noise (docs/history.md says so): also retired at ckpt-c.
  deepEqual(at("variant-price-check")[2], ["variant-price-check.v2", "retired", "retired"]);
  // Planted: a rewrite that wins, one that loses.
  deepEqual(at("attribute-matching")[2], ["attribute-matching.v2", "selected", "replaced"]);
  deepEqual(at("purchase-termination")[2], ["purchase-termination.v3", "selected", "kept"]);
  deepEqual(h.chunks["purchase-termination"][2].others, [{
    version_id: "purchase-termination.v4",
    role: "new",
    estimate: h.chunks["purchase-termination"][2].others[0].estimate,
    status: "rewrite_loser",
  }]);
  // The re-proposed brand guard: rejected at ckpt-b (v1) and again at ckpt-c (v2, a new id).
  deepEqual(at("brand-guard"), [
    null,
    ["brand-guard.v1", "non_positive", "rejected"],
    ["brand-guard.v2", "non_positive", "rejected"],
  ]);
  deepEqual(h.exposure["query-formulation"], { steps_in_skill: 2, steps_selected: 3 });
  // Internalization: only query-formulation has three selected steps of one version.
  deepEqual(h.internalization.length, 1);
  const row = h.internalization[0];
  const ref = REF.demo;
  deepEqual([row.chunk_id, row.steps, row.flagged], [ref.chunk_id, ref.steps, true]);
  ref.estimates.forEach((e: number, i: number) => close(row.estimates[i], e, 1e-10));
  ref.standard_errors.forEach((s: number, i: number) => close(row.standard_errors[i], s, 1e-10));
  close(row.slope, ref.slope, 1e-10);
  close(row.slope_se, ref.slope_se, 1e-10);
  close(row.slope_ci[0], ref.slope_ci[0], 1e-10);
  close(row.slope_ci[1], ref.slope_ci[1], 1e-10);
  ok(h.conventions.internalization.note.includes("does not prove internalization"));
  for (
    const f of ["history.md", "history.tex", "history_lifecycle.svg", "history_trajectories.svg"]
  ) {
    ok(await exists(`${out}/${f}`), f);
  }
  ok((await Deno.readTextFile(`${out}/history_lifecycle.svg`)).includes("attribute-matching.v2"));
  // The history reaches the HTML report: its tables and both figures.
  deepEqual(await quiet(() => main(["report", out, "--out", `${out}/report`])), 0);
  const html = await Deno.readTextFile(`${out}/report/report.html`);
  deepEqual([...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]), [
    "Contents",
    "History across checkpoints",
  ]);
  ok(
    html.includes('data-figure="history_lifecycle"') &&
      html.includes('data-figure="history_trajectories"'),
  );
  ok(html.includes("Internalization screen (descriptive)"));
  await Deno.remove(out, { recursive: true });
});

Deno.test("the cross-service gate fails strict pairing on provenance only", async () => {
  const out = await Deno.makeTempDir();
  deepEqual(await quiet(() => main(["analyze", XSVC, "--out", out, "--bootstrap", "0"])), 2);
  const v = await readJson(`${out}/validation.json`);
  deepEqual(v.counts, { provenance_mismatch: 1 });
  deepEqual(v.issues[0].path, "provenance.endpoint");
  await Deno.remove(out, { recursive: true });
});

Deno.test("analyze --exploratory: waived issues listed, no selection, no ledger; legacy side by side", async () => {
  const out = await Deno.makeTempDir();
  const code = await quiet(() =>
    main([
      "analyze",
      XSVC,
      "--out",
      out,
      "--bootstrap",
      "0",
      "--exploratory",
      "provenance_mismatch",
      "--estimator",
      "legacy_intercept",
    ])
  );
  deepEqual(code, 0);
  const contributions = await readJson(`${out}/contributions.json`);
  deepEqual(contributions.exploratory, true);
  deepEqual(contributions.waived_codes, ["provenance_mismatch"]);
  deepEqual(contributions.waived_issues.map((i: { code: string }) => i.code), [
    "provenance_mismatch",
  ]);
  deepEqual(await exists(`${out}/selection.json`), false);
  deepEqual(await exists(`${out}/ledger.jsonl`), false);
  const legacy = await readJson(`${out}/legacy_comparison.json`);
  const ref = REF.legacy_xsvc;
  deepEqual(legacy.rows.map((r: { version_id: string }) => r.version_id), ref.versions);
  legacy.rows.forEach(
    (
      r: {
        paired_delta: { estimate: number };
        legacy_intercept: { estimate: number; se_hc3: number };
      },
      j: number,
    ) => {
      close(r.paired_delta.estimate, ref.paired_delta[j], 1e-10);
      close(r.legacy_intercept.estimate, ref.legacy_intercept[j], 1e-10);
      close(r.legacy_intercept.se_hc3, ref.legacy_intercept_se_hc3[j], 1e-10);
    },
  );
  close(legacy.legacy_intercept_estimate, ref.intercept, 1e-10);
  close(legacy.bare_mean, ref.bare_mean, 1e-12);
  // gate report marks every section of an exploratory analysis.
  deepEqual(await quiet(() => main(["report", out, "--out", `${out}/report`])), 0);
  const html = await Deno.readTextFile(`${out}/report/report.html`);
  deepEqual([...html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => m[1]), [
    "Contents",
    "Exploratory (waived: provenance_mismatch): Gate analysis (gate-online-c-xsvc)",
  ]);
  // The two estimators would select differently on this gate.
  ok(
    JSON.stringify(legacy.selected.paired_delta) !==
      JSON.stringify(legacy.selected.legacy_intercept),
  );
  await Deno.remove(out, { recursive: true });
});

Deno.test("analyze --exploratory refuses codes that are not differences of conditions", async () => {
  const out = await Deno.makeTempDir();
  const code = await quiet(() =>
    main(["analyze", XSVC, "--out", out, "--exploratory", "coverage_incomplete"])
  );
  deepEqual(code, 2);
  await Deno.remove(out, { recursive: true });
});

Deno.test("history reads analysis directories (bootstrap intervals) and refuses an exploratory one", async () => {
  const tmp = await Deno.makeTempDir();
  deepEqual(
    await quiet(() =>
      main(["analyze", A, "--out", `${tmp}/a`, "--bootstrap", "200", "--seed", "7"])
    ),
    0,
  );
  deepEqual(
    await quiet(() => main(["history", `${tmp}/a`, "--out", `${tmp}/h`, "--no-png"])),
    0,
  );
  const h = await readJson(`${tmp}/h/history.json`);
  const c = await readJson(`${tmp}/a/contributions.json`);
  const qf = h.chunks["query-formulation"][0];
  const coef = c.metrics.reward.coefficients["query-formulation.v1"];
  deepEqual(
    [qf.interval, qf.se, qf.ci_lower, qf.ci_upper],
    ["bootstrap", coef.se_bootstrap, coef.ci[0], coef.ci[1]],
  );
  deepEqual(h.steps[0].bootstrap, { draws: 200, seed: 7 });
  deepEqual(h.steps[0].source, { kind: "analysis", dirs: [`${tmp}/a`] });
  deepEqual(
    await quiet(() =>
      main([
        "analyze",
        XSVC,
        "--out",
        `${tmp}/x`,
        "--bootstrap",
        "0",
        "--exploratory",
        "provenance_mismatch",
      ])
    ),
    0,
  );
  deepEqual(
    await quiet(() => main(["history", `${tmp}/a`, `${tmp}/x`, "--out", `${tmp}/h2`])),
    2,
  );
  const v = await readJson(`${tmp}/h2/validation.json`);
  deepEqual(v.counts, { usage_error: 1 });
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("lineage: a changed text under a selected version id, and a reused rejected id", async () => {
  const { lineageIssues } = await import("../lib/history/lineage.ts");
  const v = (
    version_id: string,
    role: "add" | "current" | "new" | "old",
    status: "selected" | "non_positive" | "rewrite_loser",
    text_sha256: string | null,
  ) => ({
    version_id,
    slot_id: version_id.split(".")[0]!,
    chunk_id: version_id.split(".")[0]!,
    role,
    text_sha256,
    estimate: 0.1,
    se: 0.05,
    ci_lower: 0,
    ci_upper: 0.2,
    interval: "hc3_normal" as const,
    status,
    rank: 1,
    retired: false,
  });
  const step = (n: number, versions: ReturnType<typeof v>[]) => ({
    step: n,
    gate_ids: [`g${n}`],
    gate_dirs: [`g${n}`],
    plan_files: [`g${n}/gate.json`],
    checkpoint_id: null,
    stage: "online" as const,
    metric: "reward",
    budget_k: 4,
    baseline_sha256: "",
    bootstrap: null,
    source: { kind: "analysis" as const, dirs: [] },
    selected: versions.filter((x) => x.status === "selected").map((x) => x.version_id),
    versions,
  });
  const issues = lineageIssues([
    step(1, [
      v("a.v1", "old", "selected", "aaa"),
      v("a.v2", "new", "rewrite_loser", "bbb"),
    ]),
    step(2, [v("a.v1", "old", "selected", "ccc"), v("a.v2", "new", "selected", "bbb")]),
  ]);
  deepEqual(issues.map((i) => [i.code, i.file, i.path]), [
    ["lineage_mismatch", "g2/gate.json", "slots.a"],
    ["version_reused", "g2/gate.json", "slots.a"],
  ]);
  ok(issues[0]!.message.includes("text_sha256 ccc") && issues[0]!.message.includes("aaa"));
});
