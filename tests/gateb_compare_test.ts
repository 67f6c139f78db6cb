/**
 * Gate B (`gate compare`). Reference numbers in tests/data/gateb_reference.json
 * were made once, independently, with
 *   python3 scripts/reference/fit_gateb_bootstrap.py > tests/data/gateb_reference.json
 * (numpy; the paired task bootstrap is driven by the independent Python
 * xoshiro128** in scripts/reference/prng_xoshiro.py with the documented draw
 * order; the file also holds the two runs the numbers were computed from).
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { run } from "../lib/cli/compare.ts";
import { quiet, tempDir } from "./fixtures.ts";

interface RunDoc {
  manifest: Record<string, unknown>;
  traces: Record<string, unknown>[];
}
const reference = JSON.parse(
  await Deno.readTextFile(new URL("./data/gateb_reference.json", import.meta.url)),
) as {
  draws: number;
  seed: number;
  bare: RunDoc;
  equipped: RunDoc;
  expected: Record<string, Record<string, number | number[]>>;
};

async function writeRun(dir: string, doc: RunDoc): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(doc.manifest, null, 2));
  await Deno.writeTextFile(
    join(dir, "traces.jsonl"),
    doc.traces.map((t) => JSON.stringify(t)).join("\n") + "\n",
  );
  return dir;
}

function close(actual: number, expected: number, label: string): void {
  ok(
    Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)),
    `${label}: ${actual} vs ${expected}`,
  );
}

Deno.test("gate compare: arm means, differences and paired task-bootstrap intervals match the numpy reference", async () => {
  await using dir = await tempDir();
  const bare = await writeRun(join(dir.path, "bare"), reference.bare);
  const eq = await writeRun(join(dir.path, "eq"), reference.equipped);
  const out = join(dir.path, "out");
  const code = await quiet(() =>
    run([
      "--bare",
      bare,
      "--equipped",
      eq,
      "--out",
      out,
      "--bootstrap",
      String(reference.draws),
      "--seed",
      String(reference.seed),
    ])
  );
  deepEqual(code, 0);
  const c = JSON.parse(await Deno.readTextFile(join(out, "comparison.json")));
  deepEqual([c.n_tasks, c.n_pairs], [6, 12]);
  deepEqual(c.bootstrap.draws, reference.draws);
  deepEqual(c.bootstrap.seed, reference.seed);
  for (const [name, want] of Object.entries(reference.expected)) {
    const got = name.startsWith("metric:") ? c.metrics[name.slice(7)] : c.behaviour[name];
    ok(got, name);
    for (const field of ["bare", "equipped", "difference"]) {
      close(got[field], want[field] as number, `${name}.${field}`);
    }
    for (const field of ["ci", "bare_ci", "equipped_ci"]) {
      const w = want[field] as number[];
      close(got[field][0], w[0]!, `${name}.${field}[0]`);
      close(got[field][1], w[1]!, `${name}.${field}[1]`);
    }
  }
  const names = [...Deno.readDirSync(out)].map((e) => e.name).sort();
  deepEqual(names, [
    ".gatelab-output.json",
    "comparison.csv",
    "comparison.json",
    "comparison.md",
    "comparison.parquet",
    "comparison.tex",
    "validation.json",
  ]);
  ok((await Deno.readTextFile(join(out, "comparison.md"))).includes("| r_success |"));
});

type Edit = (bare: RunDoc, eq: RunDoc) => void;
const refusals: [string, Edit, string][] = [
  [
    "a different model",
    (_b, e) => ((e.manifest.provenance as Record<string, unknown>).model = "other"),
    "provenance_mismatch",
  ],
  [
    "a different max_steps",
    (
      _b,
      e,
    ) => (((e.manifest.provenance as Record<string, unknown>).runtime as Record<string, unknown>)
      .max_steps = 20),
    "provenance_mismatch",
  ],
  [
    "max_skills below the selection",
    (_b, e) => ((e.manifest.skill as Record<string, unknown>).max_skills = 1),
    "comparison_invalid",
  ],
  [
    "a bare run with skills",
    (b) => ((b.manifest.skill as Record<string, unknown>).selected_skills = ["c1"]),
    "bare_not_skill_free",
  ],
  [
    "different task plans",
    (_b, e) => (e.manifest.tasks = ["t0", "t1", "t2", "t3", "t4", "t9"]),
    "comparison_invalid",
  ],
  [
    "an equipped attempt without the skill",
    (_b, e) => (e.traces[0]!.injected = ["c1"]),
    "injection_mismatch",
  ],
];

for (const [what, edit, code] of refusals) {
  Deno.test(`gate compare: refuses ${what} (${code}) and writes only validation.json`, async () => {
    await using dir = await tempDir();
    const b = structuredClone(reference.bare), e = structuredClone(reference.equipped);
    edit(b, e);
    const bare = await writeRun(join(dir.path, "bare"), b);
    const eq = await writeRun(join(dir.path, "eq"), e);
    const out = join(dir.path, "out");
    deepEqual(
      await quiet(() => run(["--bare", bare, "--equipped", eq, "--out", out, "--bootstrap", "0"])),
      2,
    );
    deepEqual([...Deno.readDirSync(out)].map((x) => x.name).sort(), [
      ".gatelab-output.json",
      "validation.json",
    ]);
    const report = JSON.parse(await Deno.readTextFile(join(out, "validation.json")));
    deepEqual(report.ok, false);
    ok(report.issues.some((i: { code: string }) => i.code === code), JSON.stringify(report.issues));
  });
}

Deno.test("gate compare: --selection refuses an equipped skill that is not the frozen Gate A selection", async () => {
  await using dir = await tempDir();
  const bare = await writeRun(join(dir.path, "bare"), reference.bare);
  const eq = await writeRun(join(dir.path, "eq"), reference.equipped);
  const good = join(dir.path, "good.json"), bad = join(dir.path, "bad.json");
  // A Gate A selection.json with every field gatelab writes (it is read with its schema).
  const selectionJson = (selected: string[]) =>
    JSON.stringify({
      format: "gatelab.selection/v1",
      metric: "reward",
      budget_k: 2,
      selected,
      decisions: selected.map((version_id, i) => ({
        slot_id: version_id,
        version_id,
        role: "add",
        alpha: 0.1,
        rank: i + 1,
        status: "selected",
        retired: false,
      })),
      tie_tolerance: 1e-12,
      exploratory: false,
      gate_budget_k: 2,
      stage: "cold_start",
      gate_ids: ["gate-a"],
      baseline_sha256: "0",
      estimator: "paired_delta_ols_no_intercept",
      conventions: {},
      generator: { tool: "gatelab", version: "0", command: "gate analyze gate-a --out a" },
    });
  await Deno.writeTextFile(good, selectionJson(["c2", "c1"]));
  await Deno.writeTextFile(bad, selectionJson(["c1", "c3"]));
  const out = join(dir.path, "out");
  const base = ["--bare", bare, "--equipped", eq, "--bootstrap", "0"];
  deepEqual(await quiet(() => run([...base, "--out", out, "--selection", good])), 0);
  const c = JSON.parse(await Deno.readTextFile(join(out, "comparison.json")));
  deepEqual(c.selection_file, good);
  const out2 = join(dir.path, "out2");
  deepEqual(await quiet(() => run([...base, "--out", out2, "--selection", bad])), 2);
  const report = JSON.parse(await Deno.readTextFile(join(out2, "validation.json")));
  deepEqual(report.issues.map((i: { code: string }) => i.code), ["comparison_invalid"]);
  ok(/missing c3; not selected but equipped c2/.test(report.issues[0].message));
  // A selection.json that is not a gatelab selection is refused with its field path.
  const partial = join(dir.path, "partial.json");
  await Deno.writeTextFile(
    partial,
    JSON.stringify({
      format: "gatelab.selection/v1",
      selected: ["c2", "c1"],
      metric: "reward",
      budget_k: 2,
      decisions: [],
    }),
  );
  const out3 = join(dir.path, "out3");
  deepEqual(await quiet(() => run([...base, "--out", out3, "--selection", partial])), 2);
  const refused = JSON.parse(await Deno.readTextFile(join(out3, "validation.json")));
  deepEqual(refused.issues[0].code, "output_schema_mismatch");
  deepEqual(refused.issues[0].path, "tie_tolerance");
});
