/**
 * The unrecorded-field extension of the data contract (docs/FORMAT.md,
 * "Extensions"): a manifest or gate.json field may be null only when its
 * path is listed in `unrecorded`, the list names known fields only, and
 * `rewards.r_strict` listed lifts the rule that the reward components
 * include r_strict. Validation turns each listed field into one
 * provenance_unrecorded warning, never an error.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { RunManifestSchema } from "../lib/contract/manifest.ts";
import { GatePlanSchema } from "../lib/contract/gate.ts";
import { parseWithSchema } from "../lib/contract/schema_issues.ts";
import { fixtureManifest, tempDir, writeGateFixture } from "./fixtures.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { join } from "node:path";

// deno-lint-ignore no-explicit-any
type Json = any;

const paths = (r: ReturnType<typeof parseWithSchema>) =>
  r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);

Deno.test("manifest: null only where listed in unrecorded; unknown paths refused", () => {
  const m = fixtureManifest("bare") as Json;
  m.provenance.model = null;
  deepEqual(paths(parseWithSchema(RunManifestSchema, m, { file: "m.json" })), [
    'provenance.model: provenance.model is null; a field that was not recorded must be listed in "unrecorded"',
  ]);
  m.unrecorded = ["provenance.model", "provenance.modle"];
  deepEqual(
    paths(parseWithSchema(RunManifestSchema, m, { file: "m.json" })).map((p) => p.split(" (")[0]),
    [
      'unrecorded.1: "provenance.modle" is not a field that can be unrecorded',
    ],
  );
  m.unrecorded = ["provenance.model"];
  ok(parseWithSchema(RunManifestSchema, m, { file: "m.json" }).ok);
});

Deno.test("manifest: components without r_strict need rewards.r_strict in unrecorded", () => {
  const m = fixtureManifest("bare") as Json;
  m.provenance.reward.components = ["r_success"];
  deepEqual(paths(parseWithSchema(RunManifestSchema, m, { file: "m.json" })), [
    "provenance.reward.components: components must include r_strict",
  ]);
  m.unrecorded = ["rewards.r_strict"];
  ok(parseWithSchema(RunManifestSchema, m, { file: "m.json" }).ok);
});

Deno.test("gate.json: mask_seed and p_present may be null when listed", () => {
  const plan: Json = {
    format: "gatelab.gate/v1",
    gate_id: "g",
    stage: "online",
    bare_run_dir: "../b",
    estimator: "paired_delta_ols_no_intercept",
    mask_seed: null,
    p_present: null,
    budget_k: 1,
    slots: [{ slot_id: "s", versions: [{ version_id: "v", chunk_id: "c", role: "add" }] }],
  };
  deepEqual(paths(parseWithSchema(GatePlanSchema, plan, { file: "gate.json" })).length, 2);
  plan.unrecorded = ["mask_seed", "p_present"];
  ok(parseWithSchema(GatePlanSchema, plan, { file: "gate.json" }).ok);
});

Deno.test("validation: each unrecorded field is one warning; send_seed unrecorded skips the seed check", async () => {
  await using dir = await tempDir();
  const fx = await writeGateFixture(dir.path, { sendSeed: true });
  const gate = fx.gateDir;
  const v0 = await validateGates([gate]);
  ok(v0.ok && v0.warnings === undefined);
  const traces = join(gate, "traces.jsonl");
  const lines = (await Deno.readTextFile(traces)).trim().split("\n").map((l) => JSON.parse(l));
  await Deno.writeTextFile(
    traces,
    lines.map((l) => JSON.stringify({ ...l, job_seed: 7 })).join("\n") + "\n",
  );
  const mismatch = await validateGates([gate]);
  ok(
    !mismatch.ok && Object.keys(mismatch.counts).includes("seed_mismatch"),
    "the check runs first",
  );
  // Both manifests: send_seed unrecorded, so equal job seeds cannot be required.
  for (const run of [fx.bareDir, gate]) {
    const path = join(run, "manifest.json");
    const m = JSON.parse(await Deno.readTextFile(path));
    m.provenance.send_seed = null;
    m.unrecorded = ["provenance.send_seed"];
    await Deno.writeTextFile(path, JSON.stringify(m));
  }
  // The seeds are recorded in both runs, so their differences are counted: a warning.
  const v = await validateGates([gate]);
  equal(v.ok, true, JSON.stringify(v.issues));
  deepEqual(v.warnings?.map((w) => [w.code, w.path, w.severity]), [
    ["provenance_unrecorded", "provenance.send_seed", "warning"],
    ["seed_mismatch", "job_seed", "warning"],
  ]);
  equal(
    v.warnings![0]!.message,
    "provenance.send_seed not recorded (2 files): job seeds are recorded but not compared: set provenance.send_seed in the mapping if the harness sent them",
  );
  match(
    v.warnings![1]!.message,
    /^job seeds differ in \d+ of \d+ episode\(s\) \(first: bare \d+ at line \d+, masked 7\); job seeds are recorded but not compared/,
  );
});
