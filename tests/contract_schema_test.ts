/** The zod schemas of docs/FORMAT.md sections 1 and 2: paths of errors, extra fields kept. */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  AssignmentLineSchema,
  GatePlanSchema,
  isTraceLineFast,
  parseWithSchema,
  RunManifestSchema,
  TraceLineSchema,
} from "../lib/contract/mod.ts";
import { fixtureManifest } from "./fixtures.ts";

const paths = (r: { ok: boolean; issues?: readonly { path?: string }[] }) =>
  r.ok ? [] : r.issues!.map((i) => i.path);

Deno.test("a fixture manifest parses and keeps unknown fields", () => {
  const m = { ...fixtureManifest("bare"), host: "n1" };
  const r = parseWithSchema(RunManifestSchema, m, { file: "manifest.json" });
  ok(r.ok);
  deepEqual((r.value as Record<string, unknown>)["host"], "n1");
});

Deno.test("manifest errors name nested fields", () => {
  // deno-lint-ignore no-explicit-any
  const m = fixtureManifest("bare") as Record<string, any>;
  m.repeats = 0;
  m.tasks = ["t000", "t001", "t000"];
  m.arm = "treated";
  m.provenance.reward.components = ["r_success"];
  m.provenance.send_seed = "yes";
  delete m.skill.max_skills;
  const r = parseWithSchema(RunManifestSchema, m, { file: "manifest.json" });
  deepEqual(paths(r).sort(), [
    "arm",
    "provenance.reward.components",
    "provenance.send_seed",
    "repeats",
    "skill.max_skills",
    "tasks.2",
  ]);
  ok(
    !r.ok &&
      r.issues.every((i) =>
        i.code === "schema_error" && i.file === "manifest.json" && i.line === undefined
      ),
  );
});

Deno.test("trace lines: failed attempts may omit rewards; completed ones need injected", () => {
  const base = { split: "val", task_id: "t", sample_id: 0, attempt: 1 };
  ok(
    TraceLineSchema.safeParse({ ...base, status: "failed", reward: null, rewards: {}, error: "x" })
      .success,
  );
  ok(TraceLineSchema.safeParse({ ...base, status: "failed" }).success);
  const r = parseWithSchema(TraceLineSchema, { ...base, status: "completed", reward: 1 }, {
    file: "t.jsonl",
    line: 9,
  });
  deepEqual(r.ok ? [] : r.issues.map((i) => [i.line, i.path]), [[9, "injected"]]);
  const bad = parseWithSchema(TraceLineSchema, {
    ...base,
    attempt: 1.5,
    status: "ok",
    job_seed: "s",
  }, {
    file: "t.jsonl",
    line: 2,
  });
  deepEqual(paths(bad).sort(), ["attempt", "job_seed", "status"]);
});

Deno.test("gate.json: duplicate ids, bad role and p_present are schema errors with paths", () => {
  const gate = {
    format: "gatelab.gate/v1",
    gate_id: "g",
    stage: "online",
    bare_run_dir: "../b",
    estimator: "paired_delta_ols_no_intercept",
    mask_seed: 1,
    p_present: 1.5,
    budget_k: 0, // range is a validation rule (budget_invalid), not a schema error
    slots: [
      { slot_id: "a", versions: [{ version_id: "x", chunk_id: "c", role: "add" }] },
      { slot_id: "a", versions: [{ version_id: "y", chunk_id: "c", role: "remove" }] },
      { slot_id: "b", versions: [] },
    ],
  };
  deepEqual(paths(parseWithSchema(GatePlanSchema, gate, { file: "gate.json" })).sort(), [
    "p_present",
    "slots.1.versions.0.role",
    "slots.2.versions",
  ]);
  gate.p_present = 0.5;
  gate.slots[1]!.versions[0]!.role = "new";
  gate.slots[2] = { slot_id: "b", versions: [{ version_id: "x", chunk_id: "c", role: "add" }] };
  deepEqual(paths(parseWithSchema(GatePlanSchema, gate, { file: "gate.json" })), [
    "slots.1.slot_id",
    "slots.2.versions.0.version_id",
  ]);
});

Deno.test("assignment lines: null marks an absent slot; other values are errors", () => {
  ok(AssignmentLineSchema.safeParse({ split: "v", task_id: "t", sample_id: 0, slots: {} }).success);
  const r = parseWithSchema(AssignmentLineSchema, {
    split: "v",
    task_id: "t",
    sample_id: 0,
    slots: { a: 3 },
  }, {
    file: "a.jsonl",
    line: 4,
  });
  deepEqual(r.ok ? [] : r.issues.map((i) => [i.line, i.path]), [[4, "slots.a"]]);
});

Deno.test("the fast trace check is never more lenient than the zod schema", () => {
  const anyValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom(0.5, Infinity, 2 ** 60, -0),
    fc.constantFrom("", "val", "completed", "failed", "t1"),
    fc.constant([]),
    fc.constant(["c1"]),
    fc.constant([1]),
    fc.constant({}),
    fc.constant({ r_strict: 1 }),
    fc.constant({ prompt: 1, completion: 2 }),
    fc.constant({ prompt: "x", completion: 2 }),
  );
  const keys = [
    "split",
    "task_id",
    "sample_id",
    "attempt",
    "status",
    "reward",
    "rewards",
    "success",
    "injected",
    "job_seed",
    "provenance",
    "steps",
    "tokens",
    "error",
  ];
  const valid = {
    split: "val",
    task_id: "t1",
    sample_id: 0,
    attempt: 0,
    status: "completed",
    reward: 1,
    rewards: { r_strict: 1 },
    injected: [],
  };
  let accepted = 0;
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom(...keys), anyValue),
      fc.boolean(),
      (edits, fromValid) => {
        const line: Record<string, unknown> = fromValid ? { ...valid, ...edits } : { ...edits };
        for (const [k, v] of Object.entries(line)) if (v === undefined) delete line[k];
        if (isTraceLineFast(line)) {
          accepted++;
          ok(TraceLineSchema.safeParse(line).success, JSON.stringify(line));
        }
      },
    ),
    { numRuns: 3000 },
  );
  ok(accepted > 100, `only ${accepted} lines took the fast path`);
});
