import { z } from "npm:zod@4.6.7";
import {
  EstimatorSchema,
  GateRunSchema,
  GeneratorSchema,
  list,
  numOrNull,
  pair,
  RunRefSchema,
} from "./common.ts";

const path = list(numOrNull);

/** One version's paths in sequential.json (aligned with the metric's `n`). */
export const SequentialVersionSchema = z.object({
  estimate: path,
  /** Classical OLS standard error s sqrt([(X'X)^-1]_jj). */
  se: path,
  cs_lower: path,
  cs_upper: path,
  e_value: path,
  /** Running intersection of the confidence sequence (max of lowers so far). */
  running_lower: path,
  /** Running intersection of the confidence sequence (min of uppers so far). */
  running_upper: path,
  running_max_e: path,
  /** First n at which the confidence sequence excludes 0. */
  sign_certified_at: numOrNull,
  sign: z.union([z.literal(1), z.literal(-1)]).nullable(),
  /** Rollouts (masked and bare) a stop at `sign_certified_at` would have saved. */
  rollouts_saved: numOrNull,
  /** Fixed-n normal interval at N: estimate +- z_0.975 se (classical se). */
  fixed_n_interval: pair.nullable(),
});

/**
 * `sequential.json` of `gate sequential` (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { SequentialSchema } from "./sequential.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(SequentialSchema.safeParse({ format: "gatelab.sequential/v1", alpha: 0.05 }).success, false);
 * ```
 */
export const SequentialSchema = z.object({
  format: z.literal("gatelab.sequential/v1"),
  order: z.enum(["run", "task", "random"]),
  seed: numOrNull,
  alpha: z.number(),
  phi: z.number(),
  every: z.number(),
  estimator: EstimatorSchema,
  conventions: z.record(z.string(), z.union([z.string(), z.number()])),
  rows: z.number(),
  columns: z.number(),
  budget_k: z.number(),
  /** Bare and masked rollouts of the whole gate (completed pairs). */
  rollouts_total: z.number(),
  row_order: list(z.object({
    split: z.string(),
    task_id: z.string(),
    sample_id: z.number(),
    gate_id: z.string(),
  })),
  metrics: z.record(
    z.string(),
    z.object({
      n: list(z.number()),
      /** Point selection (positive top-K, family winners first) at every n; null where not identifiable. */
      selection: list(list(z.string()).nullable()),
      /** First n after which the point selection equals the full-gate selection at every later n (descriptive). */
      selection_stable_from: numOrNull,
      /** Rollouts a stop at `selection_stable_from` would have saved. */
      selection_rollouts_saved: numOrNull,
      versions: z.record(z.string(), SequentialVersionSchema),
    }),
  ),
  baseline: RunRefSchema,
  gates: list(GateRunSchema),
  generator: GeneratorSchema,
});

/**
 * Parsed sequential.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type SequentialJson = z.output<typeof SequentialSchema>;
