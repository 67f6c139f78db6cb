import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, IssueSchema, list, numOrNull, opaque, pair } from "./common.ts";

/** A training seed as the study's slots name it (a number or a string). */
const trainSeed = z.union([z.number(), z.string()]);

const tally = z.object({ attempts: z.number(), used: z.number(), violations: z.number() });

/** One arm's costs, or all arms' (docs/study.md, "Costs"). */
const cost = z.object({
  attempts: z.number(),
  failed_attempts: z.number(),
  verifier_trials: z.number(),
  gpu_hours: z.number(),
  gpu_hours_reported: z.number(),
  tokens: z.number(),
  tokens_reported: z.number(),
  service_seconds: z.object({ n: z.number(), mean: z.number(), p95: z.number() }).nullable(),
});

/**
 * `study.json` of `gate study` (docs/FORMAT.md section 6). The slot and
 * attempt tallies are counts keyed by kind and reason; their keys, and the
 * costs per arm and in total (read by the costs table), are described in
 * docs/study.md.
 *
 * @example
 * ```ts
 * import { StudySchema } from "./study.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(StudySchema.safeParse({ format: "gatelab.study/v1", arms: {} }).success, false);
 * ```
 */
export const StudySchema = z.object({
  format: z.literal("gatelab.study/v1"),
  bootstrap: z.object({
    draws: z.number(),
    seed: z.number(),
    resample: z.enum(["seeds+tasks", "tasks"]),
    resample_note: z.string(),
    interval: z.string(),
    quantile_rule: z.string(),
    draw_order: z.string(),
    prng: z.string(),
  }),
  estimator: z.record(z.string(), z.string()),
  arms: z.record(
    z.string(),
    z.object({
      planned: z.number(),
      observed: z.number(),
      successes: z.number(),
      estimate: numOrNull,
      bounds: pair,
      complete: z.boolean(),
      label: z.string(),
      train_seeds: list(trainSeed),
      task_count: z.number(),
      slots: z.record(z.string(), z.number()),
      attempts: tally.extend({
        by_kind: z.record(z.string(), z.number()),
        reasons: z.record(z.string(), z.record(z.string(), z.number())),
      }),
    }),
  ),
  comparisons: list(z.object({
    a: z.string(),
    b: z.string(),
    complete: z.boolean(),
    estimate: numOrNull,
    bounds: pair,
    ci: pair.nullable(),
    label: z.string(),
    resample: z.enum(["seeds+tasks", "tasks"]),
    per_seed: list(z.object({ train_seed: trainSeed, estimate: z.number() })).nullable(),
  })),
  costs: z.object({
    definitions: opaque,
    arms: z.record(z.string(), cost),
    total: cost,
  }),
  attempts: tally,
  issues: list(IssueSchema),
  generator: GeneratorSchema,
  inputs: list(z.object({ file: z.string(), sha256: z.string() })),
});

/**
 * Parsed study.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type StudyJson = z.output<typeof StudySchema>;
