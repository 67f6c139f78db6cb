/**
 * End-to-end tests of the inference commands on fixture gates
 * (tests/fixtures.ts): `gate heldout`, `gate plan-power` (also `--from` an
 * analysis) and the bootstrap block `gate analyze` writes through the hook.
 * The numbers themselves are checked against references in the other
 * infer_* tests; here we check wiring, outputs, conventions and exit codes.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { addSlots, quiet, tempDir, writeGateFixture } from "./fixtures.ts";

const run = (args: string[]): Promise<number> => quiet(() => main(args));
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("cli heldout: writes heldout.json with plan, conventions and per-split numbers; a bad plan exits 2", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 60,
    slots: addSlots(4),
    effects: { c1: 0.3, c2: 0.15, c3: 0, c4: -0.1 },
    budgetK: 2,
  });
  const plan = join(dir.path, "plan.json");
  await Deno.writeTextFile(
    plan,
    JSON.stringify({
      format: "gatelab.heldout-plan/v1",
      scheme: "kfold",
      folds: 3,
      repeats: 2,
      seed: 4,
    }),
  );
  const out = join(dir.path, "out");
  deepEqual(
    await run(["heldout", fx.gateDir, "--plan", plan, "--against", fx.gateDir, "--out", out]),
    0,
  );
  const doc = await readJson(join(out, "heldout.json"));
  deepEqual(doc.format, "gatelab.heldout/v1");
  deepEqual([doc.plan.scheme, doc.plan.folds, doc.plan.seed, doc.budget_k], ["kfold", 3, 4, 2]);
  deepEqual(doc.splits.length, 6);
  ok(doc.generator.command.startsWith("gate heldout"));
  ok(doc.plan_file.sha256.length === 64);
  // The same gate as "later" gate: identical coefficients.
  deepEqual(doc.against.spearman_shared, 1);
  ok(doc.summary.spearman.mean > 0.5, "strong planted effects rank alike across folds");
  for (const f of ["heldout.md", "heldout.tex", "validation.json"]) {
    ok((await Deno.stat(join(out, f))).isFile);
  }

  await Deno.writeTextFile(
    plan,
    JSON.stringify({
      format: "gatelab.heldout-plan/v1",
      scheme: "kfold",
      folds: 3,
      repeats: 0,
      seed: 4,
    }),
  );
  const bad = join(dir.path, "bad");
  deepEqual(await run(["heldout", fx.gateDir, "--plan", plan, "--out", bad]), 2);
  deepEqual([...Deno.readDirSync(bad)].map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "validation.json",
  ]);
  const v = await readJson(join(bad, "validation.json"));
  deepEqual([v.ok, v.issues[0].code, v.issues[0].path], [false, "plan_invalid", "repeats"]);
});

Deno.test("cli analyze + plan-power --from: bootstrap block recorded; power inputs read from the analysis", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, {
    tasks: 80,
    slots: addSlots(5),
    effects: { c1: 0.2, c2: 0.1 },
    noise: 0.1,
    budgetK: 2,
  });
  const an = join(dir.path, "an");
  deepEqual(
    await run(["analyze", fx.gateDir, "--bootstrap", "300", "--seed", "9", "--out", an]),
    0,
  );
  const contributions = await readJson(join(an, "contributions.json"));
  const b = contributions.bootstrap;
  deepEqual([b.method, b.draws, b.seed, b.se_ddof, b.degenerate.singular_draws], [
    "task_bootstrap",
    300,
    9,
    1,
    0,
  ]);
  ok(b.quantile_rule.includes("floor(q*(B-1))"));
  ok(b.stability.versions.length === 5 && b.stability.budget_k === 2);
  const c1 = contributions.metrics.reward.coefficients.c1;
  ok(c1.se_bootstrap > 0 && c1.ci[0] < c1.estimate && c1.estimate < c1.ci[1]);

  const pw = join(dir.path, "pw");
  deepEqual(
    await run(["plan-power", "--from", an, "--sims", "50", "--seed", "2", "--out", pw]),
    0,
  );
  const power = await readJson(join(pw, "power.json"));
  deepEqual([power.design.tasks, power.design.columns, power.design.budget_k], [80, 5, 2]);
  ok(power.design.p_present > 0.2 && power.design.p_present < 0.8);
  ok(power.effects.length === 5 && power.from.how.includes("resid_sd"));
  ok(power.se_ratio_simulated_to_analytic > 0.7 && power.se_ratio_simulated_to_analytic < 1.4);

  const pw2 = join(dir.path, "pw2");
  deepEqual(
    await run([
      "plan-power",
      "--tasks",
      "400",
      "--columns",
      "16",
      "--p-present",
      "0.5",
      "--resid-sd",
      "0.3",
      "--sims",
      "20",
      "--out",
      pw2,
    ]),
    0,
  );
  const p2 = await readJson(join(pw2, "power.json"));
  // numpy reference (scripts/reference/infer_power.py): 0.029104275004359956
  ok(Math.abs(p2.analytic.se_beta - 0.029104275004359956) < 1e-12);
  deepEqual(await run(["plan-power", "--tasks", "400", "--out", pw2]), 2); // usage error: missing options

  // A hand-broken analysis is refused with the file and field path of the mismatch.
  contributions.metrics.reward.coefficients.c2.estimate = "0.1";
  await Deno.writeTextFile(join(an, "contributions.json"), JSON.stringify(contributions));
  const pw3 = join(dir.path, "pw3");
  deepEqual(await run(["plan-power", "--from", an, "--sims", "20", "--out", pw3]), 2);
  const refused = await readJson(join(pw3, "validation.json"));
  deepEqual(
    refused.issues.map((
      i: { code: string; file: string; path: string },
    ) => [i.code, i.file, i.path]),
    [[
      "output_schema_mismatch",
      join(an, "contributions.json"),
      "metrics.reward.coefficients.c2.estimate",
    ]],
  );
});

Deno.test("cli plan-power: an unestimable or always-degenerate design exits 2 with one line and writes no plan", async () => {
  await using dir = await tempDir();
  const run = async (args: string[]) => {
    const lines: string[] = [];
    const log = console.log, error = console.error;
    console.log = () => {};
    console.error = (...a: unknown[]) => lines.push(a.join(" "));
    try {
      return { code: await main(args), lines };
    } finally {
      console.log = log;
      console.error = error;
    }
  };
  const base = ["plan-power", "--p-present", "0.5", "--resid-sd", "0.3", "--sims", "20"];
  const out = join(dir.path, "pw");
  const a = await run([...base, "--tasks", "10", "--columns", "20", "--out", out]);
  deepEqual(a.code, 2);
  deepEqual(a.lines, [
    "usage_error  Cannot plan power: 10 tasks cannot estimate 20 columns (the no-intercept OLS " +
    "needs more tasks than columns)",
  ]);
  ok(!(await Deno.stat(join(out, "power.json")).catch(() => null)));
  // 25 tasks, 20 columns present with probability 0.01: some column is absent in every simulated gate.
  const b = await run([
    "plan-power",
    "--p-present",
    "0.01",
    "--resid-sd",
    "0.3",
    "--sims",
    "20",
    "--tasks",
    "25",
    "--columns",
    "20",
    "--out",
    out,
  ]);
  deepEqual(b.code, 2);
  deepEqual(b.lines.filter((l) => l.startsWith("usage_error")).length, 1);
  ok(b.lines.some((l) => l.includes("all 20 simulated gates were degenerate")));
  ok(!(await Deno.stat(join(out, "power.json")).catch(() => null)));
});

Deno.test("cli heldout on an import's --out: the unrecorded fields are one line, as in analyze, not one per field", async () => {
  await using dir = await tempDir();
  // 30 tasks, a bare and a masked row each, versions a.v1 and b.v1 masked in a fixed pattern.
  const rows: string[] = [];
  for (let t = 0; t < 30; t++) {
    const a = t % 2, b = (t >> 1) % 2, bare = ((t * 37) % 10) / 10;
    rows.push(
      JSON.stringify({
        task_id: `t${t}`,
        arm: "bare",
        reward: bare,
        "mask:a.v1": 0,
        "mask:b.v1": 0,
      }),
    );
    rows.push(JSON.stringify({
      task_id: `t${t}`,
      arm: "masked",
      reward: bare + 0.2 * a + 0.05 * b + ((t * 13) % 7) / 100,
      "mask:a.v1": a,
      "mask:b.v1": b,
    }));
  }
  await Deno.writeTextFile(join(dir.path, "rows.jsonl"), rows.join("\n") + "\n");
  const imp = join(dir.path, "imp");
  deepEqual(await run(["import", "table", join(dir.path, "rows.jsonl"), "--out", imp]), 0);
  const plan = join(dir.path, "plan.json");
  await Deno.writeTextFile(
    plan,
    JSON.stringify({
      format: "gatelab.heldout-plan/v1",
      scheme: "kfold",
      folds: 3,
      repeats: 1,
      seed: 1,
    }),
  );
  const out = join(dir.path, "held");
  const printed: string[] = [], errors: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...x: unknown[]) => void printed.push(x.join(" "));
  console.error = (...x: unknown[]) => void errors.push(x.join(" "));
  let code: number;
  try {
    code = await main(["heldout", imp, "--plan", plan, "--out", out, "--quiet"]);
  } finally {
    console.log = log;
    console.error = error;
  }
  deepEqual(code, 0, errors.join("\n"));
  const validation = await readJson(join(out, "validation.json"));
  const unrecorded = validation.warnings.filter((w: { code: string }) =>
    w.code === "provenance_unrecorded"
  );
  ok(unrecorded.length >= 10, `${unrecorded.length} unrecorded fields`);
  deepEqual(errors.filter((l) => l.includes("provenance_unrecorded")), []);
  deepEqual(printed.filter((l) => l.startsWith("unverifiable:")), [
    `unverifiable: ${unrecorded.length} check(s) not made, fields not recorded (${
      unrecorded.slice(0, 4).map((w: { path: string }) => w.path).join(", ")
    }, ...); listed as provenance_unrecorded warnings in ${out}/validation.json`,
  ]);
});
