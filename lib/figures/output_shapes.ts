/**
 * The parts of gatelab's output files that figures and the HTML report
 * read (docs/FORMAT.md sections 5 and 6; heldout.json of docs/inference.md)
 * as zod schemas of exactly those fields: unknown fields are accepted and
 * dropped, optional inference fields (`se_cluster`, `se_bootstrap`, `ci`)
 * may be absent. Arrays and intervals are readonly so the in-memory
 * outputs of lib/analyze and lib/study are assignable too.
 *
 * @module
 */
import { z } from "zod";

/** A readonly array schema (so readonly arrays of lib/ types are assignable to the parsed types). */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const interval = z.tuple([z.number(), z.number()]).readonly();
const finiteOrNull = z.number().nullable();

/** One coefficient of one metric in contributions.json. */
export const CoefficientFileSchema = z.object({
  estimate: finiteOrNull,
  se_hc3: finiteOrNull.optional(),
  se_robust: finiteOrNull.optional(),
  p: finiteOrNull.optional(),
  se_cluster: finiteOrNull.optional(),
  p_cluster: finiteOrNull.optional(),
  se_bootstrap: finiteOrNull.optional(),
  ci: interval.nullable().optional(),
});

/** Selection stability across bootstrap draws (`contributions.json` → `bootstrap.stability`). */
export const StabilityFileSchema = z.object({
  metric: z.string(),
  budget_k: z.number(),
  rule: z.string(),
  draws_used: z.number(),
  set_equal_frequency: z.number(),
  mean_jaccard: z.number(),
  versions: list(
    z.object({
      version_id: z.string(),
      selected_frequency: z.number().min(0).max(1),
      rank_median: z.number().nullable(),
      rank_p05: z.number().nullable(),
      rank_p95: z.number().nullable(),
      p_rank_within_k: z.number(),
      selected_point: z.boolean(),
      rank_point: z.number().nullable(),
    }),
  ),
});

/** `contributions.json` (section 5), the fields read by figures and reports. */
export const ContributionsFileSchema = z.object({
  format: z.literal("gatelab.contributions/v1"),
  estimator: z.object({ name: z.string(), formula: z.string().optional() }),
  baseline: z.object({ run_id: z.string(), sha256: z.string() }),
  masked: z.object({ run_id: z.string(), sha256: z.string() }).optional(),
  gates: list(z.object({ gate_id: z.string() })).optional(),
  conventions: z.object({ cov_type: z.string().optional() }).optional(),
  n_pairs: z.number(),
  n_tasks: z.number().optional(),
  columns: list(
    z.object({
      version_id: z.string(),
      slot_id: z.string(),
      chunk_id: z.string(),
      role: z.string(),
    }),
  ),
  metrics: z.record(
    z.string(),
    z.object({
      masked_mean: finiteOrNull,
      bare_mean: finiteOrNull,
      delta_mean: finiteOrNull,
      coefficients: z.record(z.string(), CoefficientFileSchema),
    }),
  ),
  bootstrap: z.object({
    draws: z.number().optional(),
    seed: z.number().optional(),
    interval: z.string().optional(),
    stability: StabilityFileSchema.nullable().optional(),
  }).nullable().optional(),
  /** Set by `gate analyze --exploratory`: waived pairing codes, no selection. */
  exploratory: z.boolean().optional(),
  waived_codes: list(z.string()).optional(),
  tasks: list(
    z.object({
      split: z.string(),
      task_id: z.string(),
      sample_id: z.number(),
      columns: z.record(z.string(), z.number()),
      values: z.record(
        z.string(),
        z.object({ masked: finiteOrNull, bare: finiteOrNull, delta: finiteOrNull }),
      ),
    }),
  ).optional(),
});

/** `selection.json` (section 5). */
export const SelectionFileSchema = z.object({
  format: z.literal("gatelab.selection/v1"),
  metric: z.string(),
  budget_k: z.number(),
  selected: list(z.string()),
  decisions: list(
    z.object({
      slot_id: z.string(),
      version_id: z.string(),
      role: z.string(),
      alpha: finiteOrNull,
      rank: z.number().nullable(),
      status: z.string(),
      retired: z.boolean(),
    }),
  ),
});

/** `study.json` (section 6). */
export const StudyFileSchema = z.object({
  format: z.literal("gatelab.study/v1"),
  bootstrap: z.object({ draws: z.number(), seed: z.number(), resample: z.string() }),
  arms: z.record(
    z.string(),
    z.object({
      planned: z.number(),
      observed: z.number(),
      successes: z.number(),
      estimate: finiteOrNull,
      bounds: interval,
      complete: z.boolean(),
    }),
  ),
  comparisons: list(
    z.object({
      a: z.string(),
      b: z.string(),
      complete: z.boolean(),
      estimate: finiteOrNull,
      bounds: interval,
      ci: interval.nullable(),
    }),
  ),
});

const summaryStat = z.object({
  n: z.number(),
  mean: finiteOrNull,
  sd: finiteOrNull,
  p05: finiteOrNull,
  median: finiteOrNull,
  p95: finiteOrNull,
});

/** Check of a selection against a later gate (`heldout.json` → `against`). */
export const AcrossGateFileSchema = z.object({
  metric: z.string(),
  budget_k: z.number(),
  shared: list(z.string()),
  spearman_shared: finiteOrNull,
  kendall_tau_b_shared: finiteOrNull,
  selected: list(z.string()),
  selected_not_in_later: list(z.string()),
  gain_predicted: finiteOrNull,
  gain_realised: finiteOrNull,
  per_version: list(
    z.object({ version_id: z.string(), earlier: z.number(), later: z.number() }),
  ),
});

/** `heldout.json` of `gate heldout` (docs/inference.md), the fields figures and reports read. */
export const HeldoutFileSchema = z.object({
  format: z.literal("gatelab.heldout/v1"),
  plan: z.object({
    scheme: z.string(),
    folds: z.number(),
    repeats: z.number(),
    seed: z.number(),
    metric: z.string(),
  }),
  budget_k: z.number(),
  degenerate_splits: z.number(),
  realised_to_predicted: finiteOrNull,
  summary: z.record(z.string(), summaryStat),
  splits: list(
    z.object({
      repeat: z.number(),
      fold: z.number(),
      ok: z.boolean(),
      gain_predicted: finiteOrNull.optional(),
      gain_realised: finiteOrNull.optional(),
    }),
  ),
  against: AcrossGateFileSchema.nullable().optional(),
});

/** Parsed contributions.json. */
export type ContributionsFile = z.infer<typeof ContributionsFileSchema>;
/** Parsed selection.json. */
export type SelectionFile = z.infer<typeof SelectionFileSchema>;
/** Parsed study.json. */
export type StudyFile = z.infer<typeof StudyFileSchema>;
/** Parsed selection stability block. */
export type StabilityFile = z.infer<typeof StabilityFileSchema>;
/** Parsed heldout.json. */
export type HeldoutFile = z.infer<typeof HeldoutFileSchema>;
/** Parsed across-gate check. */
export type AcrossGateFile = z.infer<typeof AcrossGateFileSchema>;
