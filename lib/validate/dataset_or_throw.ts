import { GatelabError } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import type { GateValidation } from "./validate_gates.ts";

/**
 * The paired dataset of a clean validation, or a thrown
 * {@linkcode GatelabError} listing the issues (for notebooks: stop and say why).
 *
 * @param validation What `validateGates` returned.
 * @param what What could not be done, e.g. `Cannot analyse the gate`.
 * @returns The dataset.
 * @throws {GatelabError} When the validation found issues.
 *
 * @example
 * ```ts
 * import { datasetOrThrow } from "./dataset_or_throw.ts";
 * import { throws } from "node:assert/strict";
 * const issues = [{ code: "seed_mismatch" as const, message: "job seeds differ" }];
 * throws(() => datasetOrThrow({ ok: false, issues, counts: { seed_mismatch: 1 }, dataset: null, inputs: [] }, "Cannot analyse"),
 *   /Cannot analyse:\n  seed_mismatch  job seeds differ/);
 * ```
 */
export function datasetOrThrow(validation: GateValidation, what: string): PairedDataset {
  if (!validation.ok || validation.dataset === null) {
    const issues = validation.issues.length > 0
      ? validation.issues
      : [{ code: "io_error" as const, message: "validation produced no dataset" }];
    throw new GatelabError(what, issues);
  }
  return validation.dataset;
}
