/**
 * The parts of `comparison.json` (`gate compare`, Gate B) and `power.json`
 * (`gate plan-power`) that the HTML report's tables read, as zod schemas
 * of exactly those fields (unknown fields are accepted and dropped), so
 * the shared table builders {@linkcode comparisonTables} and
 * {@linkcode powerTables} only ever see the shapes they expect.
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const numOrNull = z.number().nullable();
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

/** One compared quantity of comparison.json: arm means, difference, interval. */
const ComparedSchema = z.object({
  bare: numOrNull,
  equipped: numOrNull,
  difference: numOrNull,
  ci: list(num).nullable(),
});

/**
 * `comparison.json`, the fields read by `comparisonTables`.
 *
 * @example
 * ```ts
 * import { ComparisonFileSchema } from "./extra_shapes.ts";
 * import { ok } from "node:assert/strict";
 * const q = { bare: 0.5, equipped: 0.6, difference: 0.1, ci: [0.05, 0.15] };
 * ok(ComparisonFileSchema.safeParse({ format: "gatelab.comparison/v1", bare: { run_id: "b" }, equipped: { run_id: "e" },
 *   split: "test", n_tasks: 3, n_pairs: 3, bootstrap: { draws: 10, seed: 1 }, metrics: { reward: q },
 *   behaviour: { failure_rate: null } }).success);
 * ok(!ComparisonFileSchema.safeParse({ bare: { run_id: "b" } }).success);
 * ```
 */
export const ComparisonFileSchema = z.object({
  format: z.literal("gatelab.comparison/v1"),
  bare: z.object({ run_id: z.string() }),
  equipped: z.object({ run_id: z.string() }),
  split: z.string(),
  n_tasks: num,
  n_pairs: num,
  bootstrap: z.object({ draws: num, seed: num }),
  metrics: z.record(z.string(), ComparedSchema),
  behaviour: z.record(z.string(), ComparedSchema.nullable()),
});

/** Parsed comparison.json (the fields the report reads). */
export type ComparisonFile = z.infer<typeof ComparisonFileSchema>;

const MdeRowSchema = z.object({ se_beta: num, mde_80: num });

/**
 * `power.json`, the fields read by `powerTables`.
 *
 * @example
 * ```ts
 * import { PowerFileSchema } from "./extra_shapes.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = PowerFileSchema.safeParse({ format: "gatelab.power/v1", design: { tasks: 60 } });
 * deepEqual(r.success, false);
 * ```
 */
export const PowerFileSchema = z.object({
  format: z.literal("gatelab.power/v1"),
  design: z.object({
    tasks: num,
    columns: num,
    p_present: num,
    resid_sd: num,
    budget_k: num,
  }),
  analytic: z.object({ se_beta: num, mde_80: num, approximation: z.string() }),
  simulation: z.object({
    sims: num,
    seed: num,
    simulated_se: num,
    p_exact_best_set: numOrNull,
    mean_best_recall: numOrNull,
    selection_note: z.string().nullable(),
  }),
  mde_by_tasks: list(MdeRowSchema.extend({ tasks: num })),
  mde_by_columns: list(MdeRowSchema.extend({ columns: num })),
});

/** Parsed power.json (the fields the report reads). */
export type PowerFile = z.infer<typeof PowerFileSchema>;

/** `recipe_comparison.json` of `gate reward --groups`: the fields the report reads. */
export const RecipeComparisonFileSchema = z.object({
  format: z.literal("gatelab.recipe_comparison/v1"),
  bootstrap: z.object({ draws: num, seed: num }),
  excluded_null: z.array(z.string()),
  recipes: z.record(
    z.string(),
    z.object({
      n_good: num,
      n_bad: num,
      mean_good: num.nullable(),
      mean_bad: num.nullable(),
      difference: num.nullable(),
      ci: z.tuple([num, num]).nullable(),
      n_reference: num,
      spearman_rho: num.nullable(),
    }),
  ),
});

/** A parsed recipe_comparison.json. */
export type RecipeComparisonFile = z.infer<typeof RecipeComparisonFileSchema>;
