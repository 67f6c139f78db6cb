import { z } from "npm:zod@4.6.7";
import { INTERVAL_NAMES, type IntervalType } from "../../core/conventions.ts";
import {
  EstimatorSchema,
  GeneratorSchema,
  IssueSchema,
  list,
  numOrNull,
  pair,
  RunRefSchema,
} from "./common.ts";

/** One coefficient of one metric in contributions.json. */
export const CoefficientSchema = z.object({
  estimate: z.number(),
  se_hc3: numOrNull,
  se_robust: numOrNull,
  t: numOrNull,
  p: numOrNull,
  se_cluster: numOrNull,
  t_cluster: numOrNull,
  p_cluster: numOrNull,
  amce: numOrNull,
  amce_gap: numOrNull,
  /** Present once the bootstrap ran. */
  se_bootstrap: numOrNull.optional(),
  ci: pair.nullable().optional(),
});

/** Selection stability across bootstrap draws (`bootstrap.stability`). */
export const StabilitySchema = z.object({
  metric: z.string(),
  budget_k: z.number(),
  rule: z.string(),
  draws_used: z.number(),
  draws_excluded: z.number(),
  point_selection: list(z.string()),
  set_equal_frequency: z.number(),
  mean_jaccard: z.number(),
  rank_quantiles: z.string(),
  versions: list(z.object({
    version_id: z.string(),
    selected_frequency: z.number().min(0).max(1),
    rewrite_loser_frequency: z.number(),
    rank_median: numOrNull,
    rank_p05: numOrNull,
    rank_p95: numOrNull,
    p_rank_within_k: z.number(),
    selected_point: z.boolean(),
    rank_point: numOrNull,
  })),
});

/** Bootstrap numbers of one coefficient (`bootstrap.metrics.<metric>.coefficients`). */
export const CoefficientBootstrapSchema = z.object({
  estimate: z.number(),
  se_bootstrap: numOrNull,
  ci: pair.nullable(),
  ci_percentile: pair.nullable(),
  ci_bca: pair.nullable().optional(),
  bias: numOrNull,
  draws_used: z.number(),
  draws_missing: z.number(),
});

/** The task-bootstrap block of contributions.json (absent with `--bootstrap 0`). */
export const BootstrapBlockSchema = z.object({
  method: z.literal("task_bootstrap"),
  resample_unit: z.string(),
  draws: z.number(),
  seed: z.number(),
  draw_order: z.string(),
  stream_layout: z.string(),
  interval: z.enum(INTERVAL_NAMES as readonly [IntervalType, ...IntervalType[]]),
  interval_levels: pair,
  quantile_rule: z.string(),
  se_ddof: z.literal(1),
  bca_method: z.string().nullable(),
  degenerate: z.object({
    policy: z.string(),
    singular_draws: z.number(),
    draws_with_absent_column: z.number(),
    absent_per_version: z.record(z.string(), z.number()),
  }),
  metrics: z.record(
    z.string(),
    z.object({ coefficients: z.record(z.string(), CoefficientBootstrapSchema) }),
  ),
  stability: StabilitySchema.nullable(),
  saved_draws: z.object({
    files: list(z.string()),
    rows: z.number(),
    order: z.string(),
    missing: z.string(),
    regenerate: z.string(),
  }).optional(),
});

/**
 * `contributions.json` of `gate analyze` (docs/FORMAT.md section 5).
 *
 * @example
 * ```ts
 * import { ContributionsSchema } from "./contributions.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = ContributionsSchema.safeParse({ format: "gatelab.contributions/v1", n_pairs: "6" });
 * deepEqual(r.success ? [] : r.error.issues.map((i) => i.path.join(".")).slice(0, 3), ["estimator", "conventions", "baseline"]);
 * ```
 */
export const ContributionsSchema = z.object({
  format: z.literal("gatelab.contributions/v1"),
  estimator: EstimatorSchema,
  conventions: z.record(z.string(), z.string()),
  baseline: RunRefSchema,
  masked: RunRefSchema,
  gates: list(z.object({
    gate_id: z.string(),
    gate_dir: z.string(),
    stage: z.enum(["cold_start", "online"]),
    budget_k: z.number(),
    mask_seed: z.number().nullable(),
    p_present: z.number().nullable(),
    masked: RunRefSchema,
  })),
  n_pairs: z.number(),
  n_tasks: z.number(),
  columns: list(z.object({
    version_id: z.string(),
    slot_id: z.string(),
    chunk_id: z.string(),
    role: z.enum(["current", "add", "old", "new"]),
  })),
  metrics: z.record(
    z.string(),
    z.object({
      n: z.number(),
      k: z.number(),
      df_resid: z.number(),
      resid_se: numOrNull,
      ssr: z.number(),
      r2_uncentered: numOrNull,
      masked_mean: z.number(),
      bare_mean: z.number(),
      delta_mean: z.number(),
      coefficients: z.record(z.string(), CoefficientSchema),
    }),
  ),
  warnings: list(z.object({
    kind: z.enum(["leverage_one", "single_cluster", "budget_differs", "diagnostics_unavailable"]),
    message: z.string(),
    rows: list(z.string()).optional(),
    versions: list(z.string()).optional(),
  })),
  bootstrap: BootstrapBlockSchema.optional(),
  tasks: list(z.object({
    split: z.string(),
    task_id: z.string(),
    sample_id: z.number(),
    gate_id: z.string().optional(),
    columns: z.record(z.string(), z.union([z.literal(0), z.literal(1)])),
    values: z.record(
      z.string(),
      z.object({ masked: z.number(), bare: z.number(), delta: z.number() }),
    ),
  })),
  /** `--exploratory`: waived pairing codes, no selection. */
  exploratory: z.literal(true).optional(),
  waived_codes: list(z.string()).optional(),
  waived_issues: list(IssueSchema).optional(),
  /** Checks not made because an input does not record a field (FORMAT.md, unrecorded fields). */
  unverifiable: list(z.object({ field: z.string(), message: z.string() })).optional(),
  generator: GeneratorSchema,
});

/**
 * Parsed contributions.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type ContributionsJson = z.output<typeof ContributionsSchema>;
/**
 * Parsed selection stability block (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type StabilityJson = z.output<typeof StabilitySchema>;
