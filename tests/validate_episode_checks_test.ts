/** The per-episode checks and design rows of one gate (lib/validate/episode_checks.ts). */
import { deepEqual } from "node:assert/strict";
import { episodeChecks, type EpisodeChecksInput } from "../lib/validate/episode_checks.ts";
import type { AssignmentEntry } from "../lib/validate/assignment_checks.ts";
import type { Attempt } from "../lib/core/types.ts";
import { attempt, episode } from "./validate_units.ts";
import { EpisodeMap } from "../lib/validate/episode_map.ts";

const tasks = ["t0", "t1", "t2"];
const input = (fields: Partial<EpisodeChecksInput> = {}): EpisodeChecksInput => ({
  gate: 1,
  planned: tasks.map((t) => episode(t)),
  assignments: new EpisodeMap<AssignmentEntry>([
    [episode("t0"), { valid: true, present: ["c1", "c2"] }],
    [episode("t1"), { valid: true, present: [] }],
    [episode("t2"), { valid: false, present: [] }],
  ]),
  masked: new EpisodeMap<Attempt>([
    [episode("t0"), attempt("t0", 1, { injected: ["c2", "c1"], job_seed: 7 })],
    [episode("t1"), attempt("t1", 2, { job_seed: 8 })],
    [episode("t2"), attempt("t2", 3, { injected: ["c9"], job_seed: 9 })],
  ]),
  bare: new EpisodeMap<Attempt>([
    [episode("t0"), attempt("t0", 11, { job_seed: 7 })],
    [episode("t1"), attempt("t1", 12, { job_seed: 8 })],
    [episode("t2"), attempt("t2", 13, { job_seed: 9 })],
  ]),
  sendSeed: true,
  file: "g/traces.jsonl",
  ...fields,
});

Deno.test("episode checks: rows in plan order; an invalid assignment gives no mask and no injection check", () => {
  const r = episodeChecks(input());
  deepEqual(r.issues, []);
  deepEqual(r.rows.map((row) => [row.gate, row.episode.task_id, row.mask]), [
    [1, "t0", ["c1", "c2"]],
    [1, "t1", []],
    [1, "t2", null],
  ]);
});

Deno.test("episode checks: injection_mismatch compares sorted version sets", () => {
  const masked = new EpisodeMap(input().masked.entries());
  masked.set(episode("t1"), attempt("t1", 2, { injected: ["c4", "c3"], job_seed: 8 }));
  const r = episodeChecks(input({ masked }));
  deepEqual(r.issues.map((i) => [i.code, i.file, i.line, i.path, i.episode, i.message]), [[
    "injection_mismatch",
    "g/traces.jsonl",
    2,
    "injected",
    "val/t1/0",
    "injected [c3, c4] but the assignment plans []",
  ]]);
});

Deno.test("episode checks: seed_mismatch only with send_seed, also for a missing seed", () => {
  const bare = new EpisodeMap(input().bare.entries());
  bare.set(episode("t0"), attempt("t0", 11, { job_seed: 5 }));
  bare.set(episode("t2"), attempt("t2", 13, { job_seed: null }));
  const on = episodeChecks(input({ bare }));
  deepEqual(on.issues.map((i) => [i.code, i.line, i.path, i.message]), [
    [
      "seed_mismatch",
      1,
      "job_seed",
      "job seeds differ with send_seed on: bare 5 (line 11), masked 7",
    ],
    [
      "seed_mismatch",
      3,
      "job_seed",
      "job seeds differ with send_seed on: bare null (line 13), masked 9",
    ],
  ]);
  deepEqual(episodeChecks(input({ bare, sendSeed: false })).issues, []);
  // No seed in either run: not "differ ... bare null, masked null" but missing.
  const masked = new EpisodeMap(input().masked.entries());
  masked.set(episode("t2"), attempt("t2", 3, { injected: ["c9"], job_seed: null }));
  deepEqual(episodeChecks(input({ bare, masked })).issues.map((i) => [i.line, i.message])[1], [
    3,
    "job seeds are missing although send_seed is on: job_seed is null in both runs (bare line 13); " +
    "each episode must record the seed it was sent",
  ]);
});

Deno.test("episode checks: an episode missing in either arm is not compared", () => {
  const masked = new EpisodeMap([...input().masked.entries()].filter(([e]) => e.task_id !== "t0"));
  const r = episodeChecks(input({ masked, bare: new EpisodeMap() }));
  deepEqual([r.issues, r.rows.length], [[], 3]);
});
