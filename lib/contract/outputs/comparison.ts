import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull, pair, RunRefSchema } from "./common.ts";

/** One compared quantity: arm means, difference and paired-bootstrap intervals. */
export const ComparedQuantitySchema = z.object({
  bare: numOrNull,
  equipped: numOrNull,
  difference: numOrNull,
  ci: pair.nullable(),
  bare_ci: pair.nullable(),
  equipped_ci: pair.nullable(),
});

/**
 * `comparison.json` of `gate compare` (Gate B; docs/gateb.md; fields in
 * docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { ComparisonSchema } from "./comparison.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(ComparisonSchema.safeParse({ format: "gatelab.comparison/v1", bare: { run_id: "b" } }).success, false);
 * ```
 */
export const ComparisonSchema = z.object({
  format: z.literal("gatelab.comparison/v1"),
  bare: RunRefSchema,
  equipped: RunRefSchema,
  split: z.string(),
  n_tasks: z.number(),
  n_pairs: z.number(),
  selected_skills: list(z.string()),
  max_skills: numOrNull,
  checked_fields: list(z.string()),
  selection_file: z.string().nullable(),
  bootstrap: z.object({
    draws: z.number(),
    seed: z.number(),
    resample: z.literal("tasks"),
    interval: z.literal("percentile"),
    level: z.literal(0.95),
    quantile_rule: z.string(),
    draw_order: z.string(),
  }),
  conventions: z.record(z.string(), z.string()),
  metrics: z.record(z.string(), ComparedQuantitySchema),
  behaviour: z.record(z.string(), ComparedQuantitySchema.nullable()),
  generator: GeneratorSchema,
});

/**
 * Parsed comparison.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type ComparisonJson = z.output<typeof ComparisonSchema>;
