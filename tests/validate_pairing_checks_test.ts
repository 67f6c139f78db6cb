/** The masked run against the bare run (lib/validate/pairing_checks.ts), on in-memory runs. */
import { deepEqual } from "node:assert/strict";
import { pairingChecks } from "../lib/validate/pairing_checks.ts";
import { attempt, episode, manifest } from "./validate_units.ts";

const tasks = (n: number) => Array.from({ length: n }, (_, i) => `t${String(i).padStart(3, "0")}`);
const clean = (n: number) => tasks(n).map((t, i) => attempt(t, i + 1));
const bare = manifest("bare", { tasks: 4 });

Deno.test("pairing checks: a clean masked run is planned task-major and indexed", () => {
  const r = pairingChecks({
    dir: "g",
    manifest: manifest("masked", { tasks: 4 }),
    attempts: clean(4),
  }, bare);
  deepEqual(r.issues, []);
  deepEqual(r.planned.map((e) => e.task_id), tasks(4));
  deepEqual(r.completed.get(episode("t003"))!.line, 4);
});

Deno.test("pairing checks: provenance_mismatch names the field and both values, in field order", () => {
  const m = manifest("masked", { tasks: 4 }, (m) => {
    m.provenance.sampling.temperature = 1.0;
    m.provenance.checkpoint_id = "ckpt-other";
    m.provenance.environment.version = "1.0.1";
    m.provenance.reward.components = ["r_strict"];
  });
  const r = pairingChecks({ dir: "g", manifest: m, attempts: clean(4) }, bare);
  deepEqual(r.issues.map((i) => [i.code, i.file, i.message]), [
    [
      "provenance_mismatch",
      "g/manifest.json",
      'provenance.checkpoint_id differs: bare "ckpt-fixture", masked "ckpt-other"',
    ],
    [
      "provenance_mismatch",
      "g/manifest.json",
      "provenance.sampling.temperature differs: bare 0.7, masked 1",
    ],
    [
      "provenance_mismatch",
      "g/manifest.json",
      'provenance.environment.version differs: bare "1.0.0", masked "1.0.1"',
    ],
    [
      "provenance_mismatch",
      "g/manifest.json",
      'provenance.reward.components differs: bare ["r_strict","r_success"], masked ["r_strict"]',
    ],
  ]);
});

Deno.test("pairing checks: different task sets, with at most three named per side", () => {
  const m = manifest("masked", { tasks: 4 }, (m) => {
    m.tasks = ["t001", "x1", "x2", "x3", "x4"];
  });
  const attempts = ["t001", "x1", "x2", "x3", "x4"].map((t, i) => attempt(t, i + 1));
  const r = pairingChecks({ dir: "g", manifest: m, attempts }, bare);
  deepEqual(r.issues.map((i) => [i.code, i.path, i.message]), [[
    "provenance_mismatch",
    "tasks",
    "tasks differ: bare plans 4 tasks, masked 5; 3 only in bare (t000, t002, t003); 4 only in masked (x1, x2, x3, ...)",
  ]]);
});

Deno.test("pairing checks: a run that is not masked; without a bare manifest only the run's own checks", () => {
  const equipped = manifest("masked", { tasks: 4 }, (m) => {
    m.arm = "equipped";
    m.provenance.model = "other";
  });
  const attempts = clean(3);
  const r = pairingChecks({ dir: "g", manifest: equipped, attempts }, bare);
  deepEqual(r.issues.map((i) => [i.code, i.path ?? i.episode]), [
    ["schema_error", "arm"],
    ["provenance_mismatch", "provenance.model"],
    ["coverage_incomplete", "val/t003/0"],
  ]);
  deepEqual(r.issues[0]!.message, 'a gate\'s run must have arm "masked", got "equipped"');
  const alone = pairingChecks({ dir: "g", manifest: equipped, attempts }, null);
  deepEqual(alone.issues.map((i) => i.code), ["schema_error", "coverage_incomplete"]);
});

Deno.test("pairing checks: masked rewards and per-attempt provenance are checked against the masked manifest", () => {
  const attempts = clean(4);
  attempts[0] = { ...attempts[0]!, rewards: { r_strict: 0.5 } };
  attempts[2] = {
    ...attempts[2]!,
    provenance: { environment: { version: "2.0.0" }, host: "node-3" },
  };
  const r = pairingChecks({ dir: "g", manifest: manifest("masked", { tasks: 4 }), attempts }, bare);
  deepEqual(r.issues.map((i) => [i.code, i.file, i.line, i.path, i.message]), [
    [
      "reward_incomplete",
      "g/traces.jsonl",
      1,
      "rewards.r_success",
      "reward component r_success is missing or not a finite number",
    ],
    [
      "provenance_mismatch",
      "g/traces.jsonl",
      3,
      "provenance.environment.version",
      'provenance.environment.version differs: attempt "2.0.0", manifest "1.0.0"',
    ],
  ]);
});
