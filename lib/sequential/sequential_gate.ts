/**
 * A validated gate re-analysed sequentially in one call: the rows ordered
 * (reading the masked traces for the run order), then every prefix
 * fitted. What `gate sequential` and a notebook call.
 *
 * @module
 */
import type { PairedDataset } from "../core/types.ts";
import { GatelabError } from "../core/issue.ts";
import { maskedLines } from "./masked_lines.ts";
import { rowOrder } from "./order.ts";
import {
  resolveSequentialOptions,
  type SequentialDocument,
  type SequentialOptions,
  sequentialResolved,
} from "./sequential.ts";

/**
 * Orders the rows of a validated gate and runs {@linkcode sequentialAnalysis}.
 *
 * @param dataset A validated dataset (for the `run` order its gates' masked traces are read).
 * @param options Order (default `run`), seed, alpha, phi, every and command
 *   (see `resolveSequentialOptions`).
 * @returns sequential.json's contents.
 * @throws {GatelabError} `not_identifiable` when fewer than 2 residual degrees of
 *   freedom are left (n < k + 2), and the issues of an unreadable trace.
 *
 * @example Gate A of the demo in task order
 * ```ts
 * import { sequentialOfGate } from "./sequential_gate.ts";
 * import { datasetOrThrow, validateGates } from "../validate/mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dataset = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const doc = await sequentialOfGate(dataset, { order: "task", every: 100 });
 * deepEqual([doc.rows, doc.metrics.reward!.n], [400, [16, 116, 216, 316, 400]]);
 * ```
 */
export async function sequentialOfGate(
  dataset: PairedDataset,
  options: SequentialOptions = {},
): Promise<SequentialDocument> {
  if (dataset.n < dataset.k + 2) {
    throw new GatelabError("Cannot run sequentially", [{
      code: "not_identifiable",
      message:
        `${dataset.n} paired rows leave fewer than 2 residual degrees of freedom for ${dataset.k} columns`,
    }]);
  }
  const resolved = resolveSequentialOptions(options);
  const { order, seed } = resolved;
  const rows = rowOrder(dataset, order, {
    seed,
    ...(order === "run" ? { maskedLines: await maskedLines(dataset) } : {}),
  });
  return sequentialResolved(dataset, rows, resolved);
}
