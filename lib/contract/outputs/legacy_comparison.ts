import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull } from "./common.ts";

const side = z.object({
  estimate: z.number(),
  se_hc3: numOrNull,
  rank: numOrNull,
  status: z.string(),
});

/**
 * `legacy_comparison.json` of `gate analyze --estimator legacy_intercept`
 * (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { LegacyComparisonSchema } from "./legacy_comparison.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(LegacyComparisonSchema.safeParse({ format: "gatelab.legacy-comparison/v1", rows: {} }).success, false);
 * ```
 */
export const LegacyComparisonSchema = z.object({
  format: z.literal("gatelab.legacy-comparison/v1"),
  metric: z.string(),
  budget_k: z.number(),
  estimators: z.object({ paired_delta: z.string(), legacy_intercept: z.string() }),
  note: z.string(),
  legacy_intercept_estimate: z.number(),
  legacy_intercept_se_hc3: numOrNull,
  bare_mean: z.number(),
  selected: z.object({
    paired_delta: list(z.string()),
    legacy_intercept: list(z.string()),
  }),
  rows: list(z.object({
    version_id: z.string(),
    role: z.string(),
    paired_delta: side,
    legacy_intercept: side,
  })),
  exploratory: z.literal(true),
  generator: GeneratorSchema,
});

/**
 * Parsed legacy_comparison.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type LegacyComparisonJson = z.output<typeof LegacyComparisonSchema>;
