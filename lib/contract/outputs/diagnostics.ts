import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull, RunRefSchema } from "./common.ts";

/**
 * `diagnostics.json` of `gate analyze`: misfit diagnostics of the selection
 * metric (docs/analysis.md; fields in docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { DiagnosticsSchema } from "./diagnostics.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(DiagnosticsSchema.safeParse({ format: "gatelab.diagnostics/v1" }).success, false);
 * ```
 */
export const DiagnosticsSchema = z.object({
  format: z.literal("gatelab.diagnostics/v1"),
  metric: z.string(),
  estimator: z.string(),
  conventions: z.record(z.string(), z.string()),
  baseline: RunRefSchema,
  gates: list(z.object({ gate_id: z.string(), masked: RunRefSchema })),
  n_pairs: z.number(),
  n_tasks: z.number(),
  amce: list(z.object({
    version_id: z.string(),
    beta: z.number(),
    amce: numOrNull,
    amce_se: numOrNull,
    gap: numOrNull,
    n_present: z.number(),
    n_slot_absent: z.number(),
  })),
  interactions: z.object({
    metric: z.string(),
    covariance: z.enum(["HC3", "CR1"]),
    df2_rule: z.string(),
    test: z.string(),
    correction: z.literal("holm"),
    alpha: z.number(),
    pairs: list(z.object({
      a: z.string(),
      b: z.string(),
      n_both: z.number(),
      testable: z.boolean(),
      gamma: numOrNull,
      se: numOrNull,
      f: numOrNull,
      p_value: numOrNull,
      p_holm: numOrNull,
      flagged: z.boolean(),
    })),
    joint: z.object({
      pairs: z.number(),
      f: z.number(),
      df1: z.number(),
      df2: z.number(),
      p_value: z.number(),
    }).nullable(),
    flagged: list(z.string()),
  }),
  residuals_by_count: list(z.object({
    count: z.number(),
    n: z.number(),
    mean: z.number(),
    sd: numOrNull,
  })),
  exploratory: z.literal(true).optional(),
  generator: GeneratorSchema,
});

/**
 * Parsed diagnostics.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type DiagnosticsJson = z.output<typeof DiagnosticsSchema>;
