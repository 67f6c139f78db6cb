/**
 * Each gate is paired with its own bare run, through the real CLI (issue
 * 31, item 1): two checkpoints of the demo's Gate A whose bare runs differ
 * (tests/pool_checkpoints.ts). Given together they are refused with one
 * line, with or without a waiver; `--pool-checkpoints` pairs each gate with
 * its own bare run and records each checkpoint's coefficients with Wald
 * tests of equal effects, checked against statsmodels
 * (tests/data/reference/pool_checkpoints_wald.json: python3
 * scripts/reference/pool_checkpoints_wald.py, which rebuilds the fixture and
 * the pairing from the demo's files on its own).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { gate } from "./gate_process.ts";
import { CHECKPOINT_A, CHECKPOINT_B, writeTwoCheckpoints } from "./pool_checkpoints.ts";
import { tempDir } from "./fixtures.ts";
import { readContributions } from "./contributions_file.ts";

interface Wald {
  statistic: number;
  df: number;
  p: number;
}
const REF: {
  n: number;
  tasks: number;
  bare_reward_ws_val_0001: [number, number];
  versions: Record<string, {
    pooled: number;
    pooled_se_cluster: number;
    estimate: [number, number];
    se_cluster: [number, number];
    wald: Wald;
  }>;
  joint: Wald;
} = JSON.parse(
  await Deno.readTextFile(
    new URL("./data/reference/pool_checkpoints_wald.json", import.meta.url),
  ),
);

const close = (a: number | null | undefined, b: number, what: string, tol = 1e-9) =>
  ok(
    a !== null && a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)),
    `${what}: ${a} vs ${b}`,
  );

Deno.test("gates of two checkpoints: refused with one line naming both and the ways on, a waiver included", async () => {
  await using dir = await tempDir();
  const { a, b } = await writeTwoCheckpoints(dir.path);
  for (const extra of [[], ["--exploratory", "provenance_mismatch"]]) {
    const out = join(dir.path, `out-${extra.length}`);
    const r = await gate(dir.path, ["analyze", a, b, "--out", out, "--bootstrap", "0", ...extra]);
    equal(r.code, 2, r.stderr);
    const lines = (r.stdout + r.stderr).split("\n").filter((l) => l.startsWith("usage_error"));
    equal(lines.length, 1, r.stdout + r.stderr);
    for (const part of [CHECKPOINT_A, CHECKPOINT_B, "--pool-checkpoints", "analyze each gate"]) {
      ok(lines[0]!.includes(part), `${part} in ${lines[0]}`);
    }
    // No analysis written: only the refusal.
    ok(![...Deno.readDirSync(out)].some((e) => e.name === "contributions.json"));
  }
});

Deno.test("--pool-checkpoints: each gate with its own bare run, per-checkpoint effects and Wald tests as statsmodels", async () => {
  await using dir = await tempDir();
  const { a, b } = await writeTwoCheckpoints(dir.path);
  for (const extra of [[], ["--exploratory", "provenance_mismatch"]]) {
    const out = join(dir.path, `out-${extra.length}`);
    const r = await gate(dir.path, [
      "analyze",
      a,
      b,
      "--out",
      out,
      "--bootstrap",
      "0",
      "--pool-checkpoints",
      ...extra,
    ]);
    equal(r.code, 0, r.stderr);
    ok(
      r.stderr.includes("joint (all versions): chi2(14)") ||
        r.stdout.includes("joint (all versions): chi2(14)"),
      r.stdout + r.stderr,
    );
    const c = await readContributions(out); // its rows from the tasks table it names
    equal(c.n_pairs, REF.n);
    equal(c.n_tasks, REF.tasks);
    // The q0000-style check of the issue: checkpoint B's row of ws-val-0001 carries B's bare reward.
    const rows = c.tasks.filter((t: { task_id: string }) => t.task_id === "ws-val-0001");
    deepEqual(
      rows.map((
        t: { checkpoint_id: string; values: { reward: { bare: number } } },
      ) => [t.checkpoint_id, t.values.reward.bare]),
      [[CHECKPOINT_A, REF.bare_reward_ws_val_0001[0]], [
        CHECKPOINT_B,
        REF.bare_reward_ws_val_0001[1],
      ]],
    );
    const csv = (await Deno.readTextFile(join(out, "tasks.csv"))).split("\n");
    ok(csv[0]!.startsWith("round,checkpoint_id,split,task_id"), csv[0]);
    deepEqual(c.gates.map((g: { checkpoint_id: string }) => g.checkpoint_id), [
      CHECKPOINT_A,
      CHECKPOINT_B,
    ]);
    const block = c.checkpoints;
    deepEqual(
      block.checkpoints.map((k: { checkpoint_id: string; n: number }) => [k.checkpoint_id, k.n]),
      [[CHECKPOINT_A, 400], [CHECKPOINT_B, 400]],
    );
    const m = block.metrics.reward;
    for (const [v, ref] of Object.entries(REF.versions)) {
      close(c.metrics.reward.coefficients[v].estimate, ref.pooled, `${v} pooled`);
      close(c.metrics.reward.coefficients[v].se_cluster, ref.pooled_se_cluster, `${v} pooled se`);
      ref.estimate.forEach((e, i) => close(m.coefficients[v].estimate[i], e, `${v} estimate ${i}`));
      ref.se_cluster.forEach((e, i) => close(m.coefficients[v].se_cluster[i], e, `${v} se ${i}`));
      close(m.coefficients[v].wald.statistic, ref.wald.statistic, `${v} wald`, 1e-8);
      close(m.coefficients[v].wald.p, ref.wald.p, `${v} p`, 1e-8);
      equal(m.coefficients[v].wald.df, 1);
    }
    const md = await Deno.readTextFile(join(out, "coefficients.md"));
    ok(
      md.includes("coefficients per checkpoint, reward"),
      "the checkpoints table in coefficients.md",
    );
    ok(md.includes(`| all (joint) |  |  |  | ${REF.joint.statistic.toFixed(2)} | 14 |`), md);
    close(m.joint.statistic, REF.joint.statistic, "joint", 1e-8);
    close(m.joint.p, REF.joint.p, "joint p", 1e-8);
    equal(m.joint.df, REF.joint.df);
  }
  // Results of other bare runs never share the directory: ckA alone (same first baseline) is
  // refused in the pooled analysis's --out; the pooled analysis again is not.
  const out0 = join(dir.path, "out-0");
  const alone = await gate(dir.path, ["analyze", a, "--out", out0, "--bootstrap", "0"]);
  equal(alone.code, 2, alone.stdout + alone.stderr);
  ok((alone.stdout + alone.stderr).includes("baseline_changed"), alone.stdout + alone.stderr);
  const again = await gate(dir.path, [
    "analyze",
    a,
    b,
    "--out",
    out0,
    "--bootstrap",
    "0",
    "--pool-checkpoints",
    "--quiet",
  ]);
  equal(again.code, 0, again.stdout + again.stderr);
  // The tasks table reads back (gate import table): one bare run per checkpoint_id, and the
  // pooled analysis of the import gives the same coefficients and tests.
  const imported = join(dir.path, "imported");
  const imp = await gate(dir.path, [
    "import",
    "table",
    join(dir.path, "out-0", "tasks.csv"),
    "--out",
    imported,
    "--quiet",
  ]);
  equal(imp.code, 0, imp.stdout + imp.stderr);
  const again2 = join(dir.path, "again");
  const re = await gate(dir.path, [
    "analyze",
    imported,
    "--out",
    again2,
    "--bootstrap",
    "0",
    "--pool-checkpoints",
    "--quiet",
  ]);
  equal(re.code, 0, re.stdout + re.stderr);
  const c2 = JSON.parse(await Deno.readTextFile(join(again2, "contributions.json")));
  for (const [v, ref] of Object.entries(REF.versions)) {
    close(c2.metrics.reward.coefficients[v].estimate, ref.pooled, `${v} pooled, imported`);
  }
  close(
    c2.checkpoints.metrics.reward.joint.statistic,
    REF.joint.statistic,
    "joint, imported",
    1e-8,
  );
  // A history step is one checkpoint: a pooled-checkpoints analysis is refused as one.
  const h = await gate(dir.path, [
    "history",
    join(dir.path, "out-0"),
    "--out",
    join(dir.path, "h"),
  ]);
  equal(h.code, 2, h.stdout + h.stderr);
  ok((h.stdout + h.stderr).includes("a history step is one checkpoint"), h.stdout + h.stderr);
});

Deno.test("a study step takes pool-checkpoints: true", async () => {
  await using dir = await tempDir();
  await writeTwoCheckpoints(dir.path);
  const study = join(dir.path, "gatelab.yaml");
  await Deno.writeTextFile(
    study,
    [
      "study: pool",
      "steps:",
      "  - analyze: [ckA/gate-a, ckB/gate-a]",
      "    pool-checkpoints: true",
      "    bootstrap: 0",
      "    id: pooled",
      "",
    ].join("\n"),
  );
  const out = join(dir.path, "built");
  const r = await gate(dir.path, ["build", study, "--out", out]);
  equal(r.code, 0, r.stdout + r.stderr);
  const c = JSON.parse(await Deno.readTextFile(join(out, "pooled", "contributions.json")));
  deepEqual(
    c.checkpoints.checkpoints.map((k: { checkpoint_id: string }) => k.checkpoint_id),
    [CHECKPOINT_A, CHECKPOINT_B],
  );
});
