/**
 * The parts of gatelab's output files that figures and the HTML report
 * read (docs/FORMAT.md sections 5 and 6), as loose zod schemas: unknown
 * fields are kept, optional inference fields (`se_cluster`,
 * `se_bootstrap`, `ci`) may be absent.
 *
 * @module
 */
import { z } from "zod";

const interval = z.tuple([z.number(), z.number()]);
const finiteOrNull = z.number().nullable();

/** One coefficient of one metric in contributions.json. */
export const CoefficientFileSchema = z.looseObject({
  estimate: finiteOrNull,
  se_hc3: finiteOrNull.optional(),
  se_cluster: finiteOrNull.optional(),
  se_bootstrap: finiteOrNull.optional(),
  ci: interval.nullable().optional(),
});

/** Selection stability across bootstrap draws (`contributions.json` → `bootstrap.stability`). */
export const StabilityFileSchema = z.looseObject({
  metric: z.string(),
  budget_k: z.number(),
  rule: z.string(),
  draws_used: z.number(),
  set_equal_frequency: z.number(),
  mean_jaccard: z.number(),
  versions: z.array(
    z.looseObject({
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
export const ContributionsFileSchema = z.looseObject({
  format: z.literal("gatelab.contributions/v1"),
  estimator: z.looseObject({ name: z.string() }),
  baseline: z.looseObject({ run_id: z.string(), sha256: z.string() }),
  masked: z.looseObject({ run_id: z.string(), sha256: z.string() }).optional(),
  n_pairs: z.number(),
  columns: z.array(
    z.looseObject({
      version_id: z.string(),
      slot_id: z.string(),
      chunk_id: z.string(),
      role: z.string(),
    }),
  ),
  metrics: z.record(
    z.string(),
    z.looseObject({
      masked_mean: finiteOrNull,
      bare_mean: finiteOrNull,
      delta_mean: finiteOrNull,
      coefficients: z.record(z.string(), CoefficientFileSchema),
    }),
  ),
  bootstrap: z.looseObject({ stability: StabilityFileSchema.nullable().optional() }).nullable()
    .optional(),
  tasks: z.array(
    z.looseObject({
      split: z.string(),
      task_id: z.string(),
      sample_id: z.number(),
      columns: z.record(z.string(), z.number()),
      values: z.record(
        z.string(),
        z.looseObject({ masked: finiteOrNull, bare: finiteOrNull, delta: finiteOrNull }),
      ),
    }),
  ).optional(),
});

/** `selection.json` (section 5). */
export const SelectionFileSchema = z.looseObject({
  format: z.literal("gatelab.selection/v1"),
  metric: z.string(),
  budget_k: z.number(),
  selected: z.array(z.string()),
  decisions: z.array(
    z.looseObject({
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
export const StudyFileSchema = z.looseObject({
  format: z.literal("gatelab.study/v1"),
  bootstrap: z.looseObject({ draws: z.number(), seed: z.number(), resample: z.string() }),
  arms: z.record(
    z.string(),
    z.looseObject({
      planned: z.number(),
      observed: z.number(),
      successes: z.number(),
      estimate: finiteOrNull,
      bounds: interval,
      complete: z.boolean(),
    }),
  ),
  comparisons: z.array(
    z.looseObject({
      a: z.string(),
      b: z.string(),
      complete: z.boolean(),
      estimate: finiteOrNull,
      bounds: interval,
      ci: interval.nullable(),
    }),
  ),
});

const summaryStat = z.looseObject({
  n: z.number(),
  mean: finiteOrNull,
  sd: finiteOrNull,
  p05: finiteOrNull,
  median: finiteOrNull,
  p95: finiteOrNull,
});

/** Check of a selection against a later gate (`heldout.json` → `against`). */
export const AcrossGateFileSchema = z.looseObject({
  metric: z.string(),
  budget_k: z.number(),
  shared: z.array(z.string()),
  spearman_shared: finiteOrNull,
  kendall_tau_b_shared: finiteOrNull,
  selected: z.array(z.string()),
  selected_not_in_later: z.array(z.string()),
  gain_predicted: finiteOrNull,
  gain_realised: finiteOrNull,
  per_version: z.array(
    z.looseObject({ version_id: z.string(), earlier: z.number(), later: z.number() }),
  ),
});

/** `heldout.json` of `gate heldout` (docs/inference.md), the fields figures and reports read. */
export const HeldoutFileSchema = z.looseObject({
  format: z.literal("gatelab.heldout/v1"),
  plan: z.looseObject({
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
  splits: z.array(
    z.looseObject({
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
