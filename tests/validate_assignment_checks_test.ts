/** The assignment checks (lib/validate/assignment_checks.ts), on in-memory assignment lines. */
import { deepEqual } from "node:assert/strict";
import { assignmentChecks } from "../lib/validate/assignment_checks.ts";
import { assignment, episode } from "./validate_units.ts";

const plan = {
  slots: [
    { slot_id: "s1", versions: [{ version_id: "c1", chunk_id: "k1", role: "add" as const }] },
    {
      slot_id: "f",
      versions: [
        { version_id: "o", chunk_id: "k2", role: "old" as const },
        { version_id: "n", chunk_id: "k3", role: "new" as const },
      ],
    },
  ],
};
const planned = ["t0", "t1", "t2", "t3"].map((t) => episode(t));

Deno.test("assignment checks: valid lines in any order give each episode its present versions", () => {
  const r = assignmentChecks(
    [
      assignment("t2", 1, { s1: "c1", f: "n" }),
      assignment("t0", 2, { s1: null, f: null }),
      assignment("t1", 3, { s1: null, f: "o" }),
      assignment("t3", 4, { f: "o", s1: "c1" }),
    ],
    plan,
    planned,
    "a.jsonl",
  );
  deepEqual(r.issues, []);
  deepEqual(
    ["t0", "t1", "t2", "t3"].map((t) => r.byKey.get(episode(t))),
    [
      { valid: true, present: [] },
      { valid: true, present: ["o"] },
      { valid: true, present: ["c1", "n"] },
      { valid: true, present: ["o", "c1"] },
    ],
  );
});

Deno.test("assignment checks: unknown slot, foreign version, unassigned slot, duplicate, missing, unplanned", () => {
  const r = assignmentChecks(
    [
      assignment("t0", 1, { s1: null, f: null, s9: null }),
      assignment("t1", 2, { s1: "o", f: null }),
      assignment("t2", 3, { s1: "c1" }),
      assignment("t9", 4, { s1: null, f: null }),
      assignment("t1", 5, { s1: null, f: null }),
    ],
    plan,
    planned,
    "a.jsonl",
  );
  deepEqual(r.issues.map((i) => [i.line ?? null, i.path ?? null, i.episode, i.message]), [
    [1, "slots.s9", "val/t0/0", 'unknown slot "s9"'],
    [2, "slots.s1", "val/t1/0", 'version "o" is not a version of slot "s1"'],
    [3, "slots.f", "val/t2/0", 'slot "f" is not assigned (use null for an absent slot)'],
    [4, null, "val/t9/0", "assignment for an episode outside the masked run's plan"],
    [
      5,
      null,
      "val/t1/0",
      "second assignment for one episode (first at line 2); one line per planned episode",
    ],
    [null, null, "val/t3/0", "planned episode has no assignment line"],
  ]);
  deepEqual(r.issues.every((i) => i.code === "assignment_invalid" && i.file === "a.jsonl"), true);
  // Invalid assignments stay in the index as invalid; the unplanned and missing ones are absent.
  deepEqual([...r.byKey.entries()].map(([e, v]) => [e, v.valid]), [
    [episode("t0"), false],
    [episode("t1"), false],
    [episode("t2"), false],
  ]);
});

Deno.test("assignment checks: a duplicate makes a valid first line invalid", () => {
  const r = assignmentChecks(
    [assignment("t0", 1, { s1: "c1", f: null }), assignment("t0", 2, { s1: "c1", f: null })],
    plan,
    [episode("t0")],
    "a.jsonl",
  );
  deepEqual(r.byKey.get(episode("t0")), { valid: false, present: [] });
  deepEqual(r.issues.length, 1);
});
