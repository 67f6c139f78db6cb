/**
 * What each required field of the data contract (docs/FORMAT.md) is for,
 * in the words a `schema_error` for a missing field prints
 * (`gate.json bare_run_dir  missing: ...`). Keyed by schema and dotted
 * field path, array positions written `*`. A test walks the contract's
 * schemas and checks that every required field has an entry here.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { GatePlanSchema } from "./gate.ts";
import { RunManifestSchema } from "./manifest.ts";
import { TraceLineSchema } from "./trace.ts";
import { AssignmentLineSchema } from "./assignment.ts";

const EPISODE = {
  split:
    'the split of the episode\'s task (e.g. "val"), with task_id and sample_id naming the episode',
  task_id: "the task of the episode, one of the manifest's tasks",
  sample_id:
    "which sample of the task (0 to repeats - 1), with split and task_id naming the episode",
};

/** Purposes of the required fields, by schema. */
export const FIELD_PURPOSES: ReadonlyMap<z.ZodType, Readonly<Record<string, string>>> = new Map<
  z.ZodType,
  Record<string, string>
>([
  [GatePlanSchema, {
    format: 'the format and version of this file: "gatelab.gate/v1"',
    gate_id: "the gate's name, recorded in every output and the ledger",
    stage: 'which gate this is: "cold_start" (all chunks new) or "online" (a running skill)',
    bare_run_dir:
      "the bare run this gate is paired with: its directory, relative to the gate directory",
    estimator: 'the estimator the gate was designed for: "paired_delta_ols_no_intercept"',
    mask_seed: "the seed that drew the masks in assignments.jsonl (recorded for audit)",
    p_present: "the probability that a slot has some version present (0 to 1)",
    budget_k: "K, how many versions the selection may keep (an integer >= 1)",
    slots: "the slots of the skill, each with its versions (the design's columns)",
    "slots.*.slot_id": "the slot's name, the key of assignments.jsonl's slots",
    "slots.*.versions": "the slot's versions (one or more), each one 0/1 column of the design",
    "slots.*.versions.*.version_id":
      "the version's id, what traces list in injected and assignments name",
    "slots.*.versions.*.chunk_id": "the chunk of skill text this version is a version of",
    "slots.*.versions.*.role":
      'the version\'s role: "current", "add", or "old"/"new" of a REWRITE family',
  }],
  [RunManifestSchema, {
    format: 'the format and version of this file: "gatelab.run/v1"',
    run_id: "the run's unique name, recorded with its sha256 in every output",
    arm: 'which arm this run is: "bare" (no skill), "masked" (a gate) or "equipped" (Gate B)',
    split: 'the split the run evaluated (e.g. "val" or "test")',
    repeats: "planned samples per task (sample_id runs from 0 to repeats - 1)",
    tasks: "the planned task ids (planned episodes = tasks x sample ids)",
    provenance: "the conditions the run ran under, compared between paired runs",
    "provenance.checkpoint_id": "the identity of the model weights (must match the paired run)",
    "provenance.model": "the served model's name (must match the paired run)",
    "provenance.endpoint": "the serving endpoint (must match the paired run)",
    "provenance.sampling": "the decoding parameters, e.g. temperature (must match the paired run)",
    "provenance.send_seed":
      "whether job seeds were sent to the model API (then seeds must match between arms)",
    "provenance.base_prompt_sha256":
      "the hash of the skill-free base prompt (must match the paired run)",
    "provenance.environment": "the environment: {name, version, config_sha256}",
    "provenance.environment.name": "the environment's name (must match the paired run)",
    "provenance.environment.version": "the environment's version (must match the paired run)",
    "provenance.environment.config_sha256":
      "the hash of the environment's configuration (must match the paired run)",
    "provenance.runtime": "the action/runtime protocol: {protocol, max_steps}",
    "provenance.runtime.protocol": "the action/runtime protocol's name (must match the paired run)",
    "provenance.runtime.max_steps": "the step limit of an episode (must match the paired run)",
    "provenance.reward": "the reward definition: {version, components}",
    "provenance.reward.version": "the reward's version (must match the paired run)",
    "provenance.reward.components":
      "the reward components every completed attempt reports (always including r_strict)",
    skill: "the skill given to the agent: {bank, selected_skills, max_skills}",
    "skill.bank": 'the skill bank used ("NoSkills" for a bare run)',
    "skill.selected_skills": "the skills selected for the run ([] for a bare run)",
    "skill.max_skills": "the runtime's limit on skills (an integer, or null for none)",
  }],
  [TraceLineSchema, {
    ...EPISODE,
    attempt: "the attempt number of this episode (0, 1, ...; retries count up)",
    status: 'whether the attempt "completed" (scorable) or "failed" (infrastructure, no reward)',
  }],
  [AssignmentLineSchema, {
    ...EPISODE,
    slots: "the version each slot had in this episode's mask (slot_id: version_id or null)",
  }],
]);

/**
 * What the field at `path` of a `schema` document is for, if the contract
 * says.
 *
 * @example
 * ```ts
 * import { fieldPurpose } from "./purposes.ts";
 * import { GatePlanSchema } from "./gate.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(fieldPurpose(GatePlanSchema, ["slots", 3, "versions", 0, "role"])?.slice(0, 14), "the version's ");
 * deepEqual(fieldPurpose(GatePlanSchema, ["nope"]), undefined);
 * ```
 */
export function fieldPurpose(
  schema: z.ZodType,
  path: readonly PropertyKey[],
): string | undefined {
  const key = path.map((p) => (typeof p === "number" ? "*" : String(p))).join(".");
  return FIELD_PURPOSES.get(schema)?.[key];
}
