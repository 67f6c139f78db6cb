/**
 * The paired dataset built from a clean gate: design rows and deltas
 * against values computed by hand from small hand-written files; pooled
 * gates over one bare run; deterministic validation.json bytes.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { run } from "../lib/cli/validate.ts";
import { fixtureManifest, mutateJsonl, tempDir, writeGateFixture } from "./fixtures.ts";

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** Four tasks, one plain chunk c1 and a family (o old, n new); values are exact binary fractions. */
async function writeHandGate(root: string): Promise<string> {
  const tasks = ["t0", "t1", "t2", "t3"];
  const manifest = (arm: "bare" | "masked") => ({
    ...fixtureManifest(arm, { components: ["r_strict", "r_type"] }),
    tasks,
  });
  const line = (
    task_id: string,
    reward: number,
    r_type: number,
    injected: string[],
    attempt = 0,
  ) => ({
    split: "val",
    task_id,
    sample_id: 0,
    attempt,
    status: "completed",
    reward,
    rewards: { r_strict: reward, r_type },
    injected,
    job_seed: 7,
  });
  await Deno.mkdir(join(root, "bare"), { recursive: true });
  await Deno.mkdir(join(root, "gate"), { recursive: true });
  await Deno.writeTextFile(join(root, "bare", "manifest.json"), JSON.stringify(manifest("bare")));
  await Deno.writeTextFile(
    join(root, "bare", "traces.jsonl"),
    jsonl([
      line("t0", 0.5, 0.5, []),
      line("t1", 0.25, 1, []),
      line("t2", 1, 1, []),
      line("t3", 0, 0.25, []),
    ]),
  );
  await Deno.writeTextFile(join(root, "gate", "manifest.json"), JSON.stringify(manifest("masked")));
  await Deno.writeTextFile(
    join(root, "gate", "gate.json"),
    JSON.stringify({
      format: "gatelab.gate/v1",
      gate_id: "hand",
      stage: "online",
      bare_run_dir: "../bare",
      estimator: "paired_delta_ols_no_intercept",
      mask_seed: 3,
      p_present: 0.5,
      budget_k: 2,
      slots: [
        { slot_id: "s1", versions: [{ version_id: "c1", chunk_id: "k1", role: "add" }] },
        {
          slot_id: "f",
          versions: [
            { version_id: "o", chunk_id: "k2", role: "old" },
            { version_id: "n", chunk_id: "k2b", role: "new" },
          ],
        },
      ],
    }),
  );
  // Assignment lines out of plan order: rows must follow the plan (manifest tasks).
  await Deno.writeTextFile(
    join(root, "gate", "assignments.jsonl"),
    jsonl([
      { split: "val", task_id: "t2", sample_id: 0, slots: { s1: "c1", f: "n" } },
      { split: "val", task_id: "t0", sample_id: 0, slots: { s1: "c1", f: null } },
      { split: "val", task_id: "t1", sample_id: 0, slots: { s1: null, f: "o" } },
      { split: "val", task_id: "t3", sample_id: 0, slots: { s1: null, f: null } },
    ]),
  );
  const failed = {
    ...line("t2", 0, 0, ["n", "c1"]),
    status: "failed",
    reward: null,
    rewards: {},
    error: "timeout",
  };
  await Deno.writeTextFile(
    join(root, "gate", "traces.jsonl"),
    jsonl([
      line("t3", 0.125, 0.5, []),
      failed,
      line("t0", 0.75, 0.5, ["c1"]),
      line("t1", 0.25, 0.75, ["o"]),
      line("t2", 0.5, 1, ["n", "c1"], 1),
    ]) + "\n\n",
  );
  return join(root, "gate");
}

Deno.test("a clean hand-written gate builds the expected design and deltas", async () => {
  await using dir = await tempDir();
  const gateDir = await writeHandGate(dir.path);
  const v = await validateGates([gateDir]);
  deepEqual(v.issues, []);
  const d = v.dataset!;
  deepEqual(d.columns.map((c) => `${c.slot_id}/${c.version_id}/${c.chunk_id}/${c.role}`), [
    "s1/c1/k1/add",
    "f/o/k2/old",
    "f/n/k2b/new",
  ]);
  deepEqual(d.metrics, ["reward", "r_strict", "r_type"]);
  deepEqual([d.n, d.k, d.clusterCount], [4, 3, 4]);
  deepEqual(d.episodes.map((e) => e.task_id), ["t0", "t1", "t2", "t3"]);
  // Rows t0..t3: {c1}, {o}, {c1, n}, {}.
  deepEqual([...d.design], [1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0]);
  // reward: masked 0.75, 0.25, 0.5, 0.125 minus bare 0.5, 0.25, 1, 0.
  deepEqual([...d.masked["reward"]!], [0.75, 0.25, 0.5, 0.125]);
  deepEqual([...d.bare["reward"]!], [0.5, 0.25, 1, 0]);
  deepEqual([...d.delta["reward"]!], [0.25, 0, -0.5, 0.125]);
  deepEqual([...d.delta["r_strict"]!], [0.25, 0, -0.5, 0.125]);
  // r_type: masked 0.5, 0.75, 1, 0.5 minus bare 0.5, 1, 1, 0.25.
  deepEqual([...d.delta["r_type"]!], [0, -0.25, 0, 0.25]);
  deepEqual([...d.gateIndex], [0, 0, 0, 0]);
  deepEqual([...d.cluster], [0, 1, 2, 3]);
  deepEqual(d.gates.map((g) => [g.gate_id, g.stage, g.budget_k, g.mask_seed]), [[
    "hand",
    "online",
    2,
    3,
  ]]);
  deepEqual(d.baseline.run_dir, join(dir.path, "bare"));
  ok(/^[0-9a-f]{64}$/.test(d.baseline.sha256));
});

Deno.test("a fixture gate's dataset reproduces the generating rows", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 12, repeats: 2, failedFirst: [1, 5] });
  const d = (await validateGates([fx.gateDir])).dataset!;
  deepEqual(d.n, 24);
  deepEqual(d.clusterCount, 12);
  deepEqual([...d.cluster].slice(0, 6), [0, 0, 1, 1, 2, 2]);
  fx.rows.forEach((row, i) => {
    deepEqual(
      d.columns.map((c, j) => d.design[i * d.k + j] === 1 ? c.version_id : null).filter(Boolean),
      row.present,
    );
    deepEqual(d.delta["reward"]![i], row.masked - row.bare);
    // r_success = 0.5 reward + 0.1 in both arms (see fixtures.ts).
    deepEqual(d.delta["r_success"]![i], (0.5 * row.masked + 0.1) - (0.5 * row.bare + 0.1));
  });
});

Deno.test("pooled gates over one bare run: rows per (gate, episode), columns in first-seen order", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(dir.path, {
    tasks: 10,
    gateName: "round1",
    gateId: "r1",
    seed: 1,
  });
  const b = await writeGateFixture(dir.path, {
    tasks: 10,
    gateName: "round2",
    gateId: "r2",
    seed: 2,
    existingBareDir: a.bareDir,
    slots: [
      { slot_id: "s3", versions: [{ version_id: "c3", role: "add" }] },
      { slot_id: "s5", versions: [{ version_id: "c5", role: "add" }] },
    ],
  });
  const v = await validateGates([a.gateDir, b.gateDir]);
  deepEqual(v.issues, []);
  const d = v.dataset!;
  deepEqual(d.columns.map((c) => c.version_id), ["c1", "c2", "c3", "c4", "c5"]);
  deepEqual(d.n, 20);
  deepEqual([...d.gateIndex], [...Array(10).fill(0), ...Array(10).fill(1)]);
  deepEqual(d.clusterCount, 10);
  deepEqual([...d.cluster], [...Array(10).keys(), ...Array(10).keys()]);
  // Gate 2 rows: c1, c2, c4 are 0; c3, c5 as drawn.
  b.rows.forEach((row, i) => {
    const got = d.columns.map((c, j) => d.design[(10 + i) * d.k + j] === 1 ? c.version_id : null)
      .filter(Boolean);
    deepEqual(got, row.present);
    deepEqual(d.bare["reward"]![10 + i], a.rows[i]!.bare);
  });
  deepEqual(v.inputs.map((i) => i.kind), ["bare", "gate", "masked", "gate", "masked"]);
});

Deno.test("pooled gates with different bare runs are refused, waiver or not; pooled checkpoints pair each with its own", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(join(dir.path, "x"), { tasks: 10 });
  const b = await writeGateFixture(join(dir.path, "y"), { tasks: 10, worldSeed: 99 });
  for (const waive of [[], ["provenance_mismatch" as const]]) {
    const v = await validateGates([a.gateDir, b.gateDir], { waive });
    deepEqual([v.counts, v.dataset], [{ usage_error: 1 }, null]);
    deepEqual(v.issues[0]!.path, "bare_run_dir");
    ok(v.issues[0]!.message.includes("--pool-checkpoints"));
  }
  const v = await validateGates([a.gateDir, b.gateDir], { poolCheckpoints: true });
  const d = v.dataset!;
  deepEqual([v.counts, d.checkpoints?.length, d.gates.map((g) => g.checkpoint)], [{}, 2, [0, 1]]);
  // Gate y's rows carry y's own bare rewards, never x's.
  b.rows.forEach((row, i) => deepEqual(d.bare["reward"]![a.rows.length + i], row.bare));
  a.rows.forEach((row, i) => deepEqual(d.bare["reward"]![i], row.bare));
  deepEqual(v.inputs.map((i) => i.kind), ["bare", "bare", "gate", "masked", "gate", "masked"]);
});

Deno.test("validation.json is deterministic: same inputs, same bytes", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 15 });
  await mutateJsonl(
    join(fx.gateDir, "traces.jsonl"),
    (o, line) => (line % 4 === 0 ? { ...o, job_seed: 1 } : o),
  );
  const out1 = join(dir.path, "out1"), out2 = join(dir.path, "out2");
  const log = console.log;
  let first = "";
  console.log = () => {};
  try {
    deepEqual(await run([fx.gateDir, "--out", out1]), 2);
    first = await Deno.readTextFile(join(out1, "validation.json"));
    deepEqual(await run([fx.gateDir, "--out", out1]), 2);
    deepEqual(await run([fx.gateDir, "--out", out2, "--quiet"]), 2);
  } finally {
    console.log = log;
  }
  const text = await Deno.readTextFile(join(out1, "validation.json"));
  deepEqual(text, first);
  const again = await Deno.readTextFile(join(out2, "validation.json"));
  const report = JSON.parse(text);
  deepEqual(report.counts, { seed_mismatch: 3 });
  deepEqual(report.format, "gatelab.validation/v1");
  // Only the recorded command differs (its --out and --quiet).
  deepEqual(text.replace(/"command": ".*"/, ""), again.replace(/"command": ".*"/, ""));
  deepEqual(report.ok, false);
  deepEqual((await Array.fromAsync(Deno.readDir(out1))).map((e) => e.name).sort(), [
    ".gatelab-output.json",
    "validation.json",
  ]);
});

Deno.test("the CLI exits 0 on a clean gate and writes ok validation.json", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 10 });
  const log = console.log;
  const lines: string[] = [];
  console.log = (s: string) => lines.push(s);
  try {
    deepEqual(await run([fx.gateDir, "--out", join(dir.path, "out")]), 0);
  } finally {
    console.log = log;
  }
  deepEqual(JSON.parse(await Deno.readTextFile(join(dir.path, "out", "validation.json"))).ok, true);
  ok(lines.at(-1)!.startsWith("ok: 1 gate(s), 10 paired rows, 4 columns, 3 metrics"));
});

Deno.test("the same gate given twice is a usage error, not twice the evidence", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { tasks: 10 });
  const v = await validateGates([fx.gateDir, fx.gateDir + "/"]);
  deepEqual(v.counts, { usage_error: 1 });
  deepEqual(v.dataset, null);
});

Deno.test("pooled checkpoints must share the reward definition", async () => {
  await using dir = await tempDir();
  const a = await writeGateFixture(join(dir.path, "x"), { tasks: 10 });
  const b = await writeGateFixture(join(dir.path, "y"), { tasks: 10, components: ["r_strict"] });
  const v = await validateGates([a.gateDir, b.gateDir], { poolCheckpoints: true });
  deepEqual([v.counts, v.dataset], [{ usage_error: 1 }, null]);
  deepEqual([v.issues[0]!.file, v.issues[0]!.path], [
    join(b.bareDir, "manifest.json"),
    "provenance.reward",
  ]);
});
