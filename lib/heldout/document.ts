/**
 * heldout.json, built: the held-out check of a gate (and, with later gates,
 * the check of its selection against them) with the envelope every output
 * records (generator, estimator, bare run, gates, plan file, inputs).
 *
 * @module
 */
import { ESTIMATOR } from "../contract/outputs/common.ts";
import { generatorMeta } from "../core/meta.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { PairedDataset } from "../core/types.ts";
import {
  againstLaterGate,
  heldoutCheck,
  type HeldoutDocument,
  type HeldoutPlan,
} from "./heldout.ts";

/** What {@linkcode heldoutDocument} needs. */
export interface HeldoutDocumentInput {
  /** The command line, recorded as the generator's. */
  readonly command: string;
  /** The selecting gate (or pooled rounds). */
  readonly dataset: PairedDataset;
  /** The parsed plan (defaults filled). */
  readonly plan: HeldoutPlan;
  /** The plan file's path and bytes (its sha256 is recorded). */
  readonly planFile: { readonly path: string; readonly bytes: Uint8Array };
  /** The inputs validation read (runs with their sha256), recorded as they are. */
  readonly inputs: readonly unknown[];
  /** The later gate(s) to check the selection against; null or absent: none. */
  readonly later?: PairedDataset | null;
}

/** The gates of a dataset as heldout.json records them. */
function gateRuns(dataset: PairedDataset) {
  return dataset.gates.map((g) => ({ gate_id: g.gate_id, gate_dir: g.gate_dir, masked: g.masked }));
}

/**
 * Runs the plan ({@linkcode heldoutCheck}) and, with a later gate,
 * {@linkcode againstLaterGate} at the plan's metric and budget, and returns
 * the heldout.json document `gate heldout` writes.
 *
 * @param input The gate, plan, plan file, inputs and later gate.
 * @returns The document, fields in the order of docs/FORMAT.md.
 * @throws {RangeError} As {@linkcode heldoutCheck} and {@linkcode againstLaterGate}.
 *
 * @example Five folds of the demo's Gate A, one repeat
 * ```ts
 * import { heldoutDocument } from "./document.ts";
 * import { datasetOrThrow, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const doc = heldoutDocument({
 *   command: "gate heldout", dataset: gateA, inputs: [],
 *   plan: { format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward" },
 *   planFile: { path: "plan.json", bytes: new TextEncoder().encode("{}") },
 * });
 * deepEqual([doc.n_tasks, doc.splits.length, doc.against], [400, 5, null]);
 * deepEqual(doc.plan_file.sha256.slice(0, 12), "44136fa355b3");
 * ```
 */
export function heldoutDocument(input: HeldoutDocumentInput): HeldoutDocument {
  const { dataset, plan, later } = input;
  const result = heldoutCheck(dataset, plan);
  const across = later
    ? againstLaterGate(dataset, later, { metric: plan.metric, budgetK: result.budget_k })
    : null;
  return {
    format: "gatelab.heldout/v1",
    generator: generatorMeta(input.command),
    estimator: ESTIMATOR,
    baseline: dataset.baseline,
    gates: gateRuns(dataset),
    plan_file: { path: input.planFile.path, sha256: sha256Hex(input.planFile.bytes) },
    inputs: input.inputs,
    n_rows: dataset.n,
    n_tasks: dataset.clusterCount,
    ...result,
    against: across && later
      ? { gates: gateRuns(later), baseline: later.baseline, ...across }
      : null,
  };
}
