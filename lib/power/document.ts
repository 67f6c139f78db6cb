/**
 * power.json, built: a power plan with the envelope every output records
 * (generator, estimator, where the design was read, inputs, effects).
 *
 * @module
 */
import { ESTIMATOR } from "../contract/outputs/common.ts";
import { generatorMeta } from "../core/meta.ts";
import type { PowerDocument, PowerPlan } from "./power.ts";

/** What {@linkcode powerDocument} records beside the plan. */
export interface PowerDocumentInput {
  /** The command line, recorded as the generator's. */
  readonly command: string;
  /** `--from`: the analysis directory, how the design was read, its columns and metric; null: none. */
  readonly from: PowerDocument["from"];
  /** The files read (path and sha256). */
  readonly inputs: PowerDocument["inputs"];
  /** The true effects simulated; null: all zero. */
  readonly effects: readonly number[] | null;
  /** The result of {@linkcode planPower}. */
  readonly plan: PowerPlan;
}

/**
 * The power.json document `gate plan-power` writes.
 *
 * @param input The plan and what it was planned from.
 * @returns The document, fields in the order of docs/FORMAT.md.
 *
 * @example
 * ```ts
 * import { powerDocument } from "./document.ts";
 * import { planPower } from "./power.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = planPower({ tasks: 200, columns: 3, pPresent: 0.5, residSd: 0.1 }, { sims: 20, seed: 1 });
 * const doc = powerDocument({ command: "gate plan-power", from: null, inputs: [], effects: null, plan });
 * deepEqual([doc.format, doc.design.tasks, doc.analytic.se_beta.toFixed(4)], ["gatelab.power/v1", 200, "0.0122"]);
 * ```
 */
export function powerDocument(input: PowerDocumentInput): PowerDocument {
  return {
    format: "gatelab.power/v1",
    generator: generatorMeta(input.command),
    estimator: ESTIMATOR,
    from: input.from,
    inputs: input.inputs,
    effects: input.effects,
    ...input.plan,
  };
}
