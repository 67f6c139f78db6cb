import { z } from "npm:zod@4.6.7";
import { EstimatorSchema, GeneratorSchema, list, numOrNull } from "./common.ts";

const MdeRowSchema = z.object({ se_beta: z.number(), mde_80: z.number() });

/**
 * `power.json` of `gate plan-power` (docs/inference.md; fields in
 * docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { PowerSchema } from "./power.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(PowerSchema.safeParse({ format: "gatelab.power/v1", design: { tasks: 60 } }).success, false);
 * ```
 */
export const PowerSchema = z.object({
  format: z.literal("gatelab.power/v1"),
  generator: GeneratorSchema,
  estimator: EstimatorSchema,
  /** `--from`: where the design was read, how, its columns and metric; null without --from. */
  from: z.object({
    path: z.string(),
    how: z.string(),
    version_ids: list(z.string()),
    metric: z.string(),
  }).nullable(),
  inputs: list(z.object({ path: z.string(), sha256: z.string() })),
  effects: list(z.number()).nullable(),
  design: z.object({
    tasks: z.number(),
    columns: z.number(),
    p_present: z.number(),
    resid_sd: z.number(),
    budget_k: z.number(),
  }),
  analytic: z.object({
    se_beta: z.number(),
    mde_80: z.number(),
    alpha: z.number(),
    power: z.number(),
    approximation: z.string(),
    mde_rule: z.string(),
  }),
  simulation: z.object({
    sims: z.number(),
    seed: z.number(),
    degenerate_sims: z.number(),
    simulated_se: z.number(),
    simulated_se_per_column: list(z.number()),
    true_best: list(z.number()),
    p_exact_best_set: numOrNull,
    mean_best_recall: numOrNull,
    selection_note: z.string().nullable(),
    selected_frequency: list(z.number()),
    rejection_rate: list(z.number()),
    method: z.string(),
  }),
  se_ratio_simulated_to_analytic: z.number(),
  mde_by_tasks: list(MdeRowSchema.extend({ tasks: z.number() })),
  mde_by_columns: list(MdeRowSchema.extend({ columns: z.number() })),
});

/**
 * Parsed power.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type PowerJson = z.output<typeof PowerSchema>;
