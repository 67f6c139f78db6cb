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

/** Parsed contributions.json. */
export type ContributionsFile = z.infer<typeof ContributionsFileSchema>;
/** Parsed selection.json. */
export type SelectionFile = z.infer<typeof SelectionFileSchema>;
/** Parsed study.json. */
export type StudyFile = z.infer<typeof StudyFileSchema>;
