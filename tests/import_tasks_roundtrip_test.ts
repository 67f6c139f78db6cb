/**
 * Round trip through gatelab's own paired `tasks` table: `gate analyze`
 * writes tasks.csv and tasks.parquet (one row per paired row, docs/FORMAT.md
 * "Tidy tables"); `gate import table` reads either back as it is (the
 * paired layout, docs/import.md) and `gate analyze` of the import gives the
 * original analysis again: every coefficient, standard error (HC3, robust,
 * cluster, bootstrap), interval, metric summary and the selection, compared
 * with deepStrictEqual (primitives by Object.is, so -0 and the last bit
 * count), and the tidy coefficients, selection and tasks tables byte for
 * byte. The reference is the original analysis of the demo's gates
 * (data/demo/ckpt-a/gate-a; checkpoint B's two pooled online rounds with
 * their REWRITE families).
 *
 * The tasks table does not carry the gate's budget, stage or version roles:
 * Gate A's single-version slots are ADD candidates by default (roles from the
 * mask:<version_id> columns), so its mapping holds only the budget; for
 * checkpoint B the test writes the roles, the budget and the stage from the
 * original contributions.json into the mapping. Everything else the table
 * does not record is unrecorded, never invented.
 *
 * Needs `deno` only.
 */
import { readContributions } from "./contributions_file.ts";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { checkedImport, exists, gate, ROOT, tempDir } from "./import_gate.ts";

const ANALYZE = ["--bootstrap", "200", "--seed", "7", "--quiet"];
const TIDY = ["coefficients.csv", "selection.csv", "tasks.csv"];

async function json(path: string) {
  return JSON.parse(await Deno.readTextFile(path));
}

/** The numbers of an analysis: metrics, bootstrap, pairs, columns, per-task rows, the selection. */
async function numbers(dir: string) {
  const c = await readContributions(dir);
  const s = await json(join(dir, "selection.json"));
  return {
    metrics: c.metrics,
    bootstrap: c.bootstrap,
    n_pairs: c.n_pairs,
    n_tasks: c.n_tasks,
    columns: c.columns,
    tasks: c.tasks,
    selected: s.selected,
    decisions: s.decisions,
    budget_k: s.budget_k,
    stage: s.stage,
    tie_tolerance: s.tie_tolerance,
  };
}

async function analyze(cwd: string, inputs: readonly string[], out: string) {
  const ran = await gate(cwd, ["analyze", ...inputs, "--out", out, ...ANALYZE]);
  equal(ran.code, 0, ran.stderr);
  return ran;
}

async function importTable(cwd: string, table: string, map: string, out: string) {
  const ran = await gate(cwd, ["import", "table", table, "--map", map, "--out", out]);
  equal(ran.code, 0, ran.stderr);
  return { ran, doc: checkedImport(await json(join(cwd, out, "import.json"))) };
}

Deno.test("tasks round trip: Gate A's tasks.csv and tasks.parquet import back to the same analysis, exactly", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await analyze(t, [join(ROOT, "data/demo/ckpt-a/gate-a")], "original");
  const want = await numbers(join(t, "original"));
  equal(want.n_pairs, 400);
  equal(want.decisions.length, 14);
  equal(want.selected.length, 10);
  // The budget is the one thing the selection needs that the table does not hold.
  equal(want.budget_k, 10);
  await Deno.writeTextFile(
    join(t, "map.json"),
    JSON.stringify({ format: "gatelab.import-map/v1", budget_k: want.budget_k }),
  );
  for (const table of ["tasks.parquet", "tasks.csv"]) {
    const out = `back-${table}`;
    const { ran, doc } = await importTable(t, join("original", table), "map.json", out);
    match(ran.stdout, /ok: imported 400 rows from 1 file\(s\): 1 bare run\(s\), 1 gate\(s\)/);
    deepEqual(doc.gates.map((g: { dir: string }) => g.dir), ["checkpoint-unrecorded/gate-a"]);
    deepEqual(
      doc.columns.map((c: unknown) => (c as { layout: string }).layout),
      ["paired"],
    );
    // Nothing invented: the table holds no checkpoint, provenance, plan or mask seed, and its
    // injected list restates the mask columns (checked) rather than recording the injection.
    deepEqual(doc.unrecorded.map((u: { field: string }) => u.field), [
      "provenance.checkpoint_id",
      "provenance.model",
      "provenance.endpoint",
      "provenance.sampling",
      "provenance.send_seed",
      "provenance.base_prompt_sha256",
      "provenance.environment",
      "provenance.runtime",
      "provenance.reward.version",
      "tasks",
      "mask_seed",
      "p_present",
      "traces.injected",
    ]);
    // Roles from the mask:<version_id> columns: one version per slot, an ADD candidate.
    deepEqual(
      doc.defaults.filter((d: { field: string }) => d.field.endsWith(".role")).length,
      14,
    );
    const back = `${out}-analysis`;
    const analysed = await analyze(t, [out], back);
    match(analysed.stdout, /^unverifiable: 13 check\(s\) not made/m);
    deepEqual(await numbers(join(t, back)), want, table);
    for (const f of TIDY) {
      equal(
        await Deno.readTextFile(join(t, back, f)),
        await Deno.readTextFile(join(t, "original", f)),
        `${table}: ${f}`,
      );
    }
    const validation = await json(join(t, back, "validation.json"));
    equal(validation.ok, true);
    ok(validation.warnings.every((w: { code: string }) => w.code === "provenance_unrecorded"));
  }
});

Deno.test("docs/import.md: the paired-layout example's commands, run as shown, give the same analysis", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  const doc = await Deno.readTextFile(join(ROOT, "docs", "import.md"));
  const section = doc.slice(doc.indexOf("### gatelab's own tasks table (the paired layout)"));
  const shown = /```\n(\$ [\s\S]*?)```/.exec(section)![1]!.trimEnd().split("\n");
  equal(shown.length, 4);
  const echo = /^\$ echo '(\{.*\})' > (\S+)$/.exec(shown[0]!)!;
  await Deno.writeTextFile(join(t, echo[2]!), echo[1]!);
  // The commands name the demo as a user in the repository does.
  await Deno.symlink(join(ROOT, "data"), join(t, "data"));
  for (const line of shown.slice(1)) {
    ok(line.startsWith("$ deno task gate "), line);
    const ran = await gate(t, line.slice("$ deno task gate ".length).split(" "));
    equal(ran.code, 0, `${line}\n${ran.stderr}`);
  }
  const want = await numbers(join(t, "out/gate-a"));
  deepEqual(await numbers(join(t, "out/back")), want);

  // Without the mapping the default budget (all design columns) selects one version more.
  const unmapped =
    /design\s+columns\s+\((\d+)\),\s+and\s+the\s+selection\s+takes\s+(\d+)\s+versions\s+\(`([^`]+)`/
      .exec(section)!;
  const plain = await gate(t, ["import", "table", "out/gate-a/tasks.parquet", "--out", "plain"]);
  equal(plain.code, 0, plain.stderr);
  equal((await gate(t, ["analyze", "plain", "--out", "out/plain"])).code, 0);
  const defaulted = await numbers(join(t, "out/plain"));
  equal(defaulted.budget_k, Number(unmapped[1]));
  equal(defaulted.selected.length, Number(unmapped[2]));
  deepEqual(defaulted.selected.filter((v: string) => !want.selected.includes(v)), [unmapped[3]]);
  deepEqual(defaulted.metrics, want.metrics);

  // The row order matters, as the page says: the same rows reversed select the same versions,
  // but every estimate moves in the last bits and the bootstrap standard errors in the third digit.
  const said =
    /all\s+(\d+)\s+`reward`\s+estimates\s+move[\s\S]*?`query-formulation\.v1`:\s+(0\.\d+)\s+as\s+exported,\s+(0\.\d+)\s+reversed/
      .exec(section)!;
  const [header, ...lines] = (await Deno.readTextFile(join(t, "out/gate-a/tasks.csv"))).trimEnd()
    .split("\n");
  await Deno.writeTextFile(join(t, "reversed.csv"), [header, ...lines.reverse()].join("\n") + "\n");
  const imported = await gate(t, [
    "import",
    "table",
    "reversed.csv",
    "--map",
    echo[2]!,
    "--out",
    "rev",
  ]);
  equal(imported.code, 0, imported.stderr);
  const analysed = await gate(t, ["analyze", "rev", "--out", "out/rev"]);
  equal(analysed.code, 0, analysed.stderr);
  const reversed = await numbers(join(t, "out/rev"));
  deepEqual(reversed.selected, want.selected);
  const coefficients = (n: typeof want) => n.metrics.reward.coefficients;
  const moved = Object.keys(coefficients(want)).filter((v) =>
    !Object.is(coefficients(want)[v].estimate, coefficients(reversed)[v].estimate)
  );
  equal(moved.length, Number(said[1]));
  for (const v of moved) {
    ok(Math.abs(coefficients(want)[v].estimate - coefficients(reversed)[v].estimate) < 1e-14, v);
  }
  const q = "query-formulation.v1";
  equal(coefficients(want)[q].se_bootstrap.toFixed(5), said[2]);
  equal(coefficients(reversed)[q].se_bootstrap.toFixed(5), said[3]);
});

Deno.test("tasks round trip: checkpoint B's two pooled online rounds (REWRITE families) import back to the same analysis", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  const gates = ["gate-online-r1", "gate-online-r2"].map((g) => join(ROOT, "data/demo/ckpt-b", g));
  await analyze(t, gates, "original");
  const want = await numbers(join(t, "original"));
  equal(want.n_pairs, 800);
  // Roles of a REWRITE family cannot come from the column names: the mapping gives them, with
  // the budget and the stage, all from the original analysis.
  const c = await json(join(t, "original", "contributions.json"));
  const versions = Object.fromEntries(
    c.columns.map((v: { version_id: string; slot_id: string; chunk_id: string; role: string }) => [
      v.version_id,
      { slot: v.slot_id, chunk_id: v.chunk_id, role: v.role },
    ]),
  );
  ok(Object.values(versions).some((v) => (v as { role: string }).role === "old"));
  await Deno.writeTextFile(
    join(t, "map.json"),
    JSON.stringify({
      format: "gatelab.import-map/v1",
      versions,
      budget_k: c.gates[0].budget_k,
      stage: c.gates[0].stage,
    }),
  );
  for (const table of ["tasks.parquet", "tasks.csv"]) {
    const out = `back-${table}`;
    const { doc } = await importTable(t, join("original", table), "map.json", out);
    // The round column names the gates; the bare attempt of each task is written once.
    deepEqual(doc.gates.map((g: { gate_id: string }) => g.gate_id), [
      "gate-online-r1",
      "gate-online-r2",
    ]);
    deepEqual(doc.runs.map((r: { rows: number }) => r.rows), [400]);
    const back = `${out}-analysis`;
    await analyze(t, [out], back);
    deepEqual(await numbers(join(t, back)), want, table);
    for (const f of TIDY) {
      equal(
        await Deno.readTextFile(join(t, back, f)),
        await Deno.readTextFile(join(t, "original", f)),
        `${table}: ${f}`,
      );
    }
  }
});

Deno.test("tasks import, bad input: one line per issue naming the paired table's row and column, exit 2, nothing written", async () => {
  await using dir = await tempDir();
  const t = dir.path;
  await Deno.writeTextFile(
    join(t, "tasks.csv"),
    [
      "round,split,task_id,sample_id,reward_masked,reward_bare,reward_delta,mask:q.v1",
      "g,val,t1,0,1,0.5,0.5,1",
      // a bare value but no masked value
      "g,val,t2,0,,0.25,,0",
      // a delta that is not masked - bare
      "g,val,t3,0,0.5,0.25,0.5,1",
      // a mask value that is not 0/1 (reported on the masked attempt: this row)
      "g,val,t4,0,0.5,0.25,0.25,2",
      // round h repeats t1's bare rollout with another value
      "h,val,t1,0,0.75,0.25,0.5,0",
    ].join("\n") + "\n",
  );
  const bad = await gate(t, ["import", "table", "tasks.csv", "--out", "imp"]);
  equal(bad.code, 2, bad.stdout + bad.stderr);
  deepEqual(bad.stderr.trimEnd().split("\n"), [
    "reward_incomplete  tasks.csv:2 reward_masked  reward_masked (empty) is not a finite number " +
    "(reward_bare 0.25); a paired row needs both arms' values",
    "schema_error  tasks.csv:3 reward_delta  reward_delta 0.5 is not reward_masked - reward_bare (0.25)",
    "assignment_invalid  tasks.csv:4 mask:q.v1  mask value 2 is not 0 or 1",
    "duplicate_completed  tasks.csv:5 reward_bare  reward_bare 0.25 differs from row 1 (0.5) of the " +
    "same episode: one episode has one bare rollout, repeated in every round",
    "not imported: 4 issue(s); nothing written",
  ]);
  ok(!exists(join(t, "imp")), "nothing written");

  // Issues of the unfolded attempts name the paired row and column too.
  await Deno.writeTextFile(
    join(t, "mask.csv"),
    "round,task_id,reward_masked,reward_bare,mask:q.v1\ng,t1,1,0.5,1\ng,t2,0.5,0.25,2\n",
  );
  const mask = await gate(t, ["import", "table", "mask.csv", "--out", "imp"]);
  equal(mask.code, 2, mask.stdout + mask.stderr);
  deepEqual(mask.stderr.trimEnd().split("\n"), [
    "assignment_invalid  mask.csv:2 mask:q.v1  mask value 2 is not 0 or 1",
    "not imported: 1 issue(s); nothing written",
  ]);

  // The injected list restates the mask columns; a row where it does not is refused.
  await Deno.writeTextFile(
    join(t, "inj.csv"),
    'task_id,reward_masked,reward_bare,injected,mask:q.v1,mask:a.v1\nt1,1,0.5,"[""q.v1""]",1,0\n' +
      't2,1,0.5,"[""q.v1""]",0,1\n',
  );
  const inj = await gate(t, ["import", "table", "inj.csv", "--out", "imp"]);
  equal(inj.code, 2, inj.stdout + inj.stderr);
  deepEqual(inj.stderr.trimEnd().split("\n"), [
    'injection_mismatch  inj.csv:2 injected  injected ["q.v1"] is not the versions whose mask ' +
    'column is 1 (["a.v1"]): in a paired table the injected list restates the mask',
    "not imported: 1 issue(s); nothing written",
  ]);

  // A metric with one arm's column only.
  await Deno.writeTextFile(
    join(t, "half.csv"),
    "task_id,reward_masked,reward_bare,r_x_masked,mask:q.v1\nt1,1,0.5,1,1\n",
  );
  const half = await gate(t, ["import", "table", "half.csv", "--out", "imp"]);
  equal(half.code, 2, half.stdout + half.stderr);
  deepEqual(half.stderr.trimEnd().split("\n"), [
    'schema_error  half.csv r_x_masked  column "r_x_masked" has no "r_x_bare": a paired table ' +
    "gives each metric as <metric>_masked and <metric>_bare",
    "not imported: 1 issue(s); nothing written",
  ]);
  ok(!exists(join(t, "imp")), "nothing written");
});
