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

/** One coefficient of one metric in contributions.json. Undefined numbers are null, never NaN. */
export const CoefficientSchema = z.object({
  /** No-intercept OLS coefficient of the version's column. */
  estimate: z.number(),
  /** HC3 standard error (null when a leverage-1 row makes it undefined). */
  se_hc3: numOrNull,
  /** Standard error of the chosen covariance type (`conventions.cov_type`). */
  se_robust: numOrNull,
  /** estimate / se_robust. */
  t: numOrNull,
  /** Two-sided normal p-value of t. */
  p: numOrNull,
  /** CR1 standard error, clusters = tasks (split, task_id). */
  se_cluster: numOrNull,
  /** estimate / se_cluster. */
  t_cluster: numOrNull,
  /** Two-sided normal p-value of t_cluster. */
  p_cluster: numOrNull,
  /**
   * AMCE: mean delta over rows with this version present minus mean delta
   * over rows with its slot absent (`conventions.amce`); null when either
   * group is empty.
   */
  amce: numOrNull,
  /** estimate - amce (null with amce). */
  amce_gap: numOrNull,
  /** Task-bootstrap standard error (present once the bootstrap ran). */
  se_bootstrap: numOrNull.optional(),
  /** Task-bootstrap interval (present once the bootstrap ran). */
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

/** A Wald chi-square test (`checkpoints`). */
const WaldSchema = z.object({ statistic: z.number(), df: z.number(), p: z.number() });

/**
 * Pooled checkpoints (`--pool-checkpoints`): each checkpoint's coefficients
 * beside the pooled ones, with Wald tests of equal effects across them.
 */
export const CheckpointEffectsSchema = z.object({
  method: z.string(),
  checkpoints: list(z.object({
    checkpoint_id: z.string(),
    bare: RunRefSchema,
    gate_ids: list(z.string()),
    n: z.number(),
  })),
  metrics: z.record(
    z.string(),
    z.object({
      coefficients: z.record(
        z.string(),
        z.object({
          estimate: list(numOrNull),
          se_cluster: list(numOrNull),
          wald: WaldSchema.nullable(),
        }),
      ),
      joint: WaldSchema.nullable(),
      unavailable: z.string().optional(),
    }),
  ),
});

/** One (gate, episode) row of contributions.json's `tasks` (an older gatelab's field). */
export const TaskRowSchema = z.object({
  /** Split of the episode (e.g. `val`). */
  split: z.string(),
  /** Task of the episode. */
  task_id: z.string(),
  /** Sample of the task. */
  sample_id: z.number(),
  /** Gate the row comes from (only when gates are pooled). */
  gate_id: z.string().optional(),
  /** Checkpoint of the row's gate (only when checkpoints are pooled). */
  checkpoint_id: z.string().optional(),
  /** Design row: 1 where the version was present, by version id. */
  columns: z.record(z.string(), z.union([z.literal(0), z.literal(1)])),
  /** Masked, bare and delta value per metric. */
  values: z.record(
    z.string(),
    z.object({ masked: z.number(), bare: z.number(), delta: z.number() }),
  ),
});

/** contributions.json `tasks_table`: where the per-task rows are (docs/FORMAT.md). */
export const TasksTableSchema = z.object({
  /** The file, relative to contributions.json's directory (`tasks.parquet`). */
  file: z.string(),
  format: z.literal("parquet"),
  /** Rows in the file: one per paired row (`n_pairs`). */
  rows: z.number(),
  /** sha256 of the file's bytes as written beside this document. */
  sha256: z.string(),
  /** How a row of the file gives a row of the older `tasks` field. */
  columns: z.string(),
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
    /** Pooled checkpoints only: the checkpoint of the gate's own bare run, and that run. */
    checkpoint_id: z.string().optional(),
    bare: RunRefSchema.optional(),
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
      /** Paired rows in the fit. */
      n: z.number(),
      /** Design columns (versions) in the fit. */
      k: z.number(),
      /** Residual degrees of freedom, n - k. */
      df_resid: z.number(),
      /** Residual standard error, sqrt(SSR / df_resid); null when df_resid is 0. */
      resid_se: numOrNull,
      /** Sum of squared residuals. */
      ssr: z.number(),
      /** 1 - SSR / sum(delta^2): uncentred R-squared (no intercept). */
      r2_uncentered: numOrNull,
      /** Mean of the metric over the masked (gate) run's rows. */
      masked_mean: z.number(),
      /** Mean of the metric over the paired bare rows. */
      bare_mean: z.number(),
      /** Mean paired delta, masked minus bare. */
      delta_mean: z.number(),
      /** One entry per version id. */
      coefficients: z.record(z.string(), CoefficientSchema),
    }),
  ),
  /** Warnings about the fit (not input issues). */
  warnings: list(z.object({
    /** What went wrong, as a closed set of codes. */
    kind: z.enum(["leverage_one", "single_cluster", "budget_differs", "diagnostics_unavailable"]),
    /** The warning as a readable sentence. */
    message: z.string(),
    /** Episode labels of the rows concerned (`split/task_id/sample_id`, with `@gate_id` when pooled). */
    rows: list(z.string()).optional(),
    /** Version ids whose HC2/HC3 errors are null because of those rows. */
    versions: list(z.string()).optional(),
  })),
  /** Pooled checkpoints only: each checkpoint's coefficients and the tests of equal effects. */
  checkpoints: CheckpointEffectsSchema.optional(),
  bootstrap: BootstrapBlockSchema.optional(),
  /**
   * One (gate, episode) row per paired row: what an older gatelab wrote
   * here. Now the rows are the tidy `tasks` table (`tasks_table`); read
   * them with `contributionsTaskRows` (lib/contract/outputs/task_rows_file.ts).
   */
  tasks: list(TaskRowSchema).optional(),
  /** The file holding the per-task rows, and what checks it is the one this document was written with. */
  tasks_table: TasksTableSchema.optional(),
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
