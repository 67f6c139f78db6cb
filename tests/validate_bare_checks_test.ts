/** The bare run's checks on their own (lib/validate/bare_checks.ts), on in-memory runs. */
import { deepEqual } from "node:assert/strict";
import { bareRunChecks } from "../lib/validate/bare_checks.ts";
import { attempt, episode, manifest } from "./validate_units.ts";

const tasks = (n: number) => Array.from({ length: n }, (_, i) => `t00${i}`);
const clean = (n: number) => tasks(n).map((t, i) => attempt(t, i + 1));

Deno.test("bare checks: a clean bare run has no issue and indexes every completed attempt", () => {
  const r = bareRunChecks({
    dir: "b",
    manifest: manifest("bare", { tasks: 3 }),
    attempts: clean(3),
  });
  deepEqual(r.issues, []);
  deepEqual([...r.completed.entries()].map(([e]) => e), [
    episode("t000"),
    episode("t001"),
    episode("t002"),
  ]);
});

Deno.test("bare checks: a skill bank and selected skills are two issues on manifest.json", () => {
  const m = manifest("bare", { tasks: 2 }, (m) => {
    m.skill.bank = "bank-v1";
    m.skill.selected_skills = ["c1"];
  });
  const r = bareRunChecks({ dir: "b", manifest: m, attempts: clean(2) });
  deepEqual(r.issues.map((i) => [i.code, i.file, i.path, i.message]), [
    [
      "bare_not_skill_free",
      "b/manifest.json",
      "skill.bank",
      `the bare run's skill bank is "bank-v1", expected "NoSkills"`,
    ],
    [
      "bare_not_skill_free",
      "b/manifest.json",
      "skill.selected_skills",
      "the bare run selected skills [c1], expected []",
    ],
  ]);
});

Deno.test("bare checks: a masked run given as the bare run is not skill-free", () => {
  const m = manifest("masked", { tasks: 1 }, (m) => {
    m.skill = { bank: "NoSkills", selected_skills: [], max_skills: null };
  });
  const r = bareRunChecks({ dir: "b", manifest: m, attempts: clean(1) });
  deepEqual(r.issues.map((i) => [i.code, i.path]), [["bare_not_skill_free", "arm"]]);
});

Deno.test("bare checks: an attempt that injected something names its line and episode", () => {
  const attempts = clean(3);
  attempts[1] = { ...attempts[1]!, injected: ["c1", "c2"] };
  const r = bareRunChecks({ dir: "b", manifest: manifest("bare", { tasks: 3 }), attempts });
  deepEqual(r.issues.map((i) => [i.code, i.file, i.line, i.episode, i.message]), [[
    "bare_not_skill_free",
    "b/traces.jsonl",
    2,
    "val/t001/0",
    "bare attempt injected versions [c1, c2]; a bare run carries no skill",
  ]]);
});

Deno.test("bare checks: skill issues first, then coverage, duplicates, rewards, attempt provenance", () => {
  const attempts = [
    attempt("t000", 1, { reward: 0.5, rewards: { r_strict: 0.25, r_success: 0.35 } }),
    attempt("t001", 2, { status: "failed", reward: null }),
    attempt("t000", 3),
    attempt("t002", 4, { provenance: { environment: { version: "9" } } }),
  ];
  const m = manifest("bare", { tasks: 3 }, (m) => {
    m.skill.bank = "b";
  });
  const r = bareRunChecks({ dir: "b", manifest: m, attempts });
  deepEqual(r.issues.map((i) => [i.code, i.line ?? null, i.episode ?? null]), [
    ["bare_not_skill_free", null, null],
    ["duplicate_completed", 3, "val/t000/0"],
    ["coverage_incomplete", null, "val/t001/0"],
    ["reward_not_strict", 1, "val/t000/0"],
    ["provenance_mismatch", 4, "val/t002/0"],
  ]);
  // The first completed attempt of an episode is the one kept.
  deepEqual(r.completed.get(episode("t000"))!.line, 1);
  deepEqual(
    r.issues[2]!.message,
    "planned episode has no completed attempt in the bare run (1 failed attempt only)",
  );
});
