import { z } from "npm:zod@4.6.7";
import {
  EstimatorSchema,
  GateRunSchema,
  GeneratorSchema,
  list,
  numOrNull,
  RunRefSchema,
} from "./common.ts";

/**
 * A held-out plan (`gate heldout --plan`, docs/inference.md): read by
 * `gate heldout` and recorded in heldout.json with its defaults filled.
 * `folds` may be omitted for split_half (2 parts); `metric` defaults to
 * `reward`; `budget_k` to the gate's.
 *
 * @example
 * ```ts
 * import { HeldoutPlanSchema } from "./heldout.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = HeldoutPlanSchema.safeParse({ format: "gatelab.heldout-plan/v1", scheme: "loo", folds: 1, repeats: 0, seed: 1.5 });
 * deepEqual(r.success ? [] : r.error.issues.map((i) => i.path.join(".")), ["scheme", "folds", "repeats", "seed"]);
 * ```
 */
export const HeldoutPlanSchema = z.object({
  format: z.literal("gatelab.heldout-plan/v1"),
  scheme: z.enum(["kfold", "split_half"]),
  folds: z.int().min(2).optional(),
  repeats: z.int().min(1),
  seed: z.int(),
  metric: z.string().min(1).optional(),
  budget_k: z.int().min(0).optional(),
}).superRefine((plan, ctx) => {
  if (plan.scheme === "kfold" && plan.folds === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["folds"],
      message: "kfold needs folds (an integer >= 2)",
    });
  }
  if (plan.scheme === "split_half" && plan.folds !== undefined && plan.folds !== 2) {
    ctx.addIssue({
      code: "custom",
      path: ["folds"],
      message: `split_half uses 2 parts, got ${plan.folds}`,
    });
  }
});

const summaryStat = z.object({
  n: z.number(),
  mean: numOrNull,
  sd: numOrNull,
  p05: numOrNull,
  median: numOrNull,
  p95: numOrNull,
});

/** Check of a selection against a later gate (`heldout.json` → `against`). */
export const AcrossGateSchema = z.object({
  gates: list(GateRunSchema),
  baseline: RunRefSchema,
  metric: z.string(),
  budget_k: z.number(),
  shared: list(z.string()),
  spearman_shared: numOrNull,
  kendall_tau_b_shared: numOrNull,
  selected: list(z.string()),
  selected_not_in_later: list(z.string()),
  selected_later: list(z.string()),
  topk_overlap: z.number(),
  gain_predicted: z.number(),
  gain_realised: z.number(),
  per_version: list(
    z.object({ version_id: z.string(), earlier: z.number(), later: z.number() }),
  ),
  note: z.string(),
});

/**
 * `heldout.json` of `gate heldout` (docs/inference.md; fields in
 * docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { HeldoutSchema } from "./heldout.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(HeldoutSchema.safeParse({ format: "gatelab.heldout/v1", budget_k: 3 }).success, false);
 * ```
 */
export const HeldoutSchema = z.object({
  format: z.literal("gatelab.heldout/v1"),
  generator: GeneratorSchema,
  estimator: EstimatorSchema,
  baseline: RunRefSchema,
  gates: list(GateRunSchema),
  plan_file: z.object({ path: z.string(), sha256: z.string() }),
  inputs: list(z.unknown()),
  n_rows: z.number(),
  n_tasks: z.number(),
  plan: z.object({
    format: z.literal("gatelab.heldout-plan/v1"),
    scheme: z.enum(["kfold", "split_half"]),
    folds: z.number(),
    repeats: z.number(),
    seed: z.number(),
    metric: z.string(),
    budget_k: z.number().optional(),
  }),
  budget_k: z.number(),
  split_unit: z.string(),
  permutation: z.string(),
  selection_rule: z.string(),
  definitions: z.record(z.string(), z.string()),
  splits: list(z.object({
    repeat: z.number(),
    fold: z.number(),
    fit_tasks: z.number(),
    heldout_tasks: z.number(),
    ok: z.boolean(),
    spearman: numOrNull,
    kendall_tau_b: numOrNull,
    selected_fit: list(z.string()),
    selected_heldout: list(z.string()),
    topk_overlap: numOrNull,
    topk_jaccard: numOrNull,
    gain_predicted: numOrNull,
    gain_realised: numOrNull,
  })),
  degenerate_splits: z.number(),
  summary: z.record(z.string(), summaryStat),
  realised_to_predicted: numOrNull,
  summary_quantile_rule: z.string(),
  summary_sd: z.string(),
  against: AcrossGateSchema.nullable(),
});

/**
 * Parsed heldout.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type HeldoutJson = z.output<typeof HeldoutSchema>;
/**
 * Parsed across-gate check (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type AcrossGateJson = z.output<typeof AcrossGateSchema>;
