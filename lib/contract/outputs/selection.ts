import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list, numOrNull } from "./common.ts";

/** One decision of selection.json. */
export const SelectionDecisionSchema = z.object({
  slot_id: z.string(),
  version_id: z.string(),
  role: z.enum(["current", "add", "old", "new"]),
  alpha: z.number(),
  rank: numOrNull,
  status: z.enum(["selected", "rewrite_loser", "non_positive", "budget_excluded", "not_estimable"]),
  retired: z.boolean(),
});

/**
 * `selection.json` of `gate analyze` (docs/FORMAT.md section 5).
 *
 * @example
 * ```ts
 * import { SelectionSchema } from "./selection.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = SelectionSchema.safeParse({ format: "gatelab.selection/v1", metric: "reward", budget_k: "10" });
 * deepEqual(r.success ? [] : r.error.issues[0]!.path, ["budget_k"]);
 * ```
 */
export const SelectionSchema = z.object({
  format: z.literal("gatelab.selection/v1"),
  metric: z.string(),
  budget_k: z.number(),
  selected: list(z.string()),
  decisions: list(SelectionDecisionSchema),
  tie_tolerance: z.number(),
  exploratory: z.boolean(),
  gate_budget_k: z.number(),
  stage: z.enum(["cold_start", "online"]),
  gate_ids: list(z.string()),
  baseline_sha256: z.string(),
  estimator: z.string(),
  conventions: z.record(z.string(), z.string()),
  generator: GeneratorSchema,
});

/**
 * Parsed selection.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type SelectionJson = z.output<typeof SelectionSchema>;
