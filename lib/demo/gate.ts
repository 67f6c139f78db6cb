/**
 * Simulation of one gate directory (docs/FORMAT.md section 2): the mask
 * plan (gate.json, assignments.jsonl) and the masked run over a shared
 * bare run.
 *
 * @module
 */
import { createPrng, type Prng } from "../math/prng.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { Role } from "../core/types.ts";
import type { LatentModel } from "./latent.ts";
import type { CHECKPOINTS } from "./params.ts";
import { type SimulatedRun, simulateRun } from "./run.ts";
import type { TruthColumn, TruthRow } from "./truth.ts";
import type { DemoTask } from "./webshop.ts";

/** A slot of a gate plan with its versions' texts. */
export interface GateSlotSpec {
  readonly slot_id: string;
  readonly versions: readonly {
    readonly version_id: string;
    readonly chunk_id: string;
    readonly role: Role;
    readonly text: string;
  }[];
}

/** What one simulated gate is. */
export interface GateSpec {
  readonly gateId: string;
  readonly stage: "cold_start" | "online";
  readonly bareRunDir: string;
  readonly maskSeed: number;
  readonly pPresent: number;
  readonly budgetK: number;
  readonly slots: readonly GateSlotSpec[];
  readonly split: string;
  readonly checkpoint: keyof typeof CHECKPOINTS;
  readonly tasks: readonly DemoTask[];
  readonly model: LatentModel;
  readonly noiseSeed: number;
  readonly failureSeed: number;
}

/** A simulated gate: its files (relative to the gate dir) and its rows. */
export interface SimulatedGate {
  readonly files: Record<string, string>;
  readonly rows: readonly TruthRow[];
  readonly columns: readonly TruthColumn[];
  readonly run: SimulatedRun;
}

/**
 * Draws one episode's assignment: each slot is present with probability
 * `pPresent`, and a present slot takes one of its versions uniformly.
 *
 * @param slots The gate's slots.
 * @param pPresent Per-slot probability that some version is present.
 * @param prng Source of randomness.
 * @returns slot_id to version_id or null, in slot order.
 *
 * @example
 * ```ts
 * import { drawAssignment } from "./gate.ts";
 * import { createPrng } from "../math/prng.ts";
 * import { ok } from "node:assert/strict";
 * const slots = [{ slot_id: "s", versions: [
 *   { version_id: "s.v1", chunk_id: "s", role: "old" as const, text: "" },
 *   { version_id: "s.v2", chunk_id: "s", role: "new" as const, text: "" },
 * ] }];
 * const a = drawAssignment(slots, 0.5, createPrng(3));
 * ok(a.s === null || a.s === "s.v1" || a.s === "s.v2");
 * ```
 */
export function drawAssignment(
  slots: readonly GateSlotSpec[],
  pPresent: number,
  prng: Prng,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const slot of slots) {
    const present = prng.nextFloat() < pPresent;
    const pick = slot.versions.length > 1 ? prng.nextInt(slot.versions.length) : 0;
    out[slot.slot_id] = present ? slot.versions[pick]!.version_id : null;
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * Simulates a gate: draws the masks with `maskSeed`, runs the masked arm
 * and renders gate.json, assignments.jsonl, manifest.json, traces.jsonl and
 * summary.json.
 *
 * @param spec The gate.
 * @returns Files, rows and columns (for the truth).
 */
export function simulateGate(spec: GateSpec): SimulatedGate {
  const maskPrng = createPrng(spec.maskSeed);
  const assignments = spec.tasks.map(() => drawAssignment(spec.slots, spec.pPresent, maskPrng));
  const texts = new Map<string, string>();
  for (const slot of spec.slots) for (const v of slot.versions) texts.set(v.version_id, v.text);
  const allVersions = spec.slots.flatMap((s) => s.versions.map((v) => v.version_id));
  const run = simulateRun({
    runId: `${spec.gateId}-masked`,
    arm: "masked",
    split: spec.split,
    checkpoint: spec.checkpoint,
    tasks: spec.tasks,
    skill: { bank: "JsonSkillBank", selected_skills: allVersions, max_skills: null },
    injected: (i) => Object.values(assignments[i]!).filter((v): v is string => v !== null),
    model: spec.model,
    noiseSeed: spec.noiseSeed,
    failureSeed: spec.failureSeed,
    textLength: (id) => texts.get(id)?.length ?? 0,
  });
  const gate = {
    format: "gatelab.gate/v1",
    gate_id: spec.gateId,
    stage: spec.stage,
    bare_run_dir: spec.bareRunDir,
    estimator: "paired_delta_ols_no_intercept",
    mask_seed: spec.maskSeed,
    p_present: spec.pPresent,
    budget_k: spec.budgetK,
    slots: spec.slots.map((s) => ({
      slot_id: s.slot_id,
      versions: s.versions.map((v) => ({
        version_id: v.version_id,
        chunk_id: v.chunk_id,
        role: v.role,
        text_sha256: sha256Hex(encoder.encode(v.text)),
      })),
    })),
  };
  const assignmentLines = spec.tasks.map((t, i) =>
    JSON.stringify({ split: spec.split, task_id: t.task_id, sample_id: 0, slots: assignments[i] })
  );
  return {
    files: {
      "gate.json": JSON.stringify(gate, null, 2) + "\n",
      "assignments.jsonl": assignmentLines.join("\n") + "\n",
      "manifest.json": run.manifest,
      "traces.jsonl": run.traces,
      "summary.json": run.summary,
    },
    rows: spec.tasks.map((task, i) => ({ task, slots: assignments[i]! })),
    columns: spec.slots.flatMap((s) =>
      s.versions.map((v) => ({ version_id: v.version_id, slot_id: s.slot_id }))
    ),
    run,
  };
}
