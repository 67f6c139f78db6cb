/**
 * The study inputs of docs/FORMAT.md section 3 as zod schemas: the plan
 * (`study.json`), the planned slots (`slots.jsonl`) and the attempts
 * (`attempts.jsonl`). Unknown fields are kept (loose objects).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { DEFAULTS } from "../core/defaults.ts";

/** `study.json`: comparisons (a, b) meaning a - b, and the bootstrap plan. */
export const studyPlanSchema = z.looseObject({
  format: z.literal("gatelab.studyplan/v1"),
  comparisons: z.array(z.tuple([z.string().min(1), z.string().min(1)])),
  bootstrap: z.looseObject({
    draws: z.number().int().min(1).default(DEFAULTS.draws),
    seed: z.number().int().refine(Number.isSafeInteger, "seed must be a safe integer")
      .default(DEFAULTS.seed),
  }).default({ draws: DEFAULTS.draws, seed: DEFAULTS.seed }),
});

/**
 * A validated study plan.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type StudyPlan = z.infer<typeof studyPlanSchema>;

/** A training seed label: an integer or a string. */
export const trainSeedSchema = z.union([z.number().int(), z.string().min(1)]);

const slotShape = {
  arm: z.string().min(1),
  train_seed: trainSeedSchema,
  task_id: z.string().min(1),
  rep: z.number().int().min(0),
};

/** One planned logical slot of `slots.jsonl`. */
export const slotSchema = z.looseObject(slotShape);

/**
 * A planned slot.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type SlotRecord = z.infer<typeof slotSchema>;

/** The attempt kinds of docs/FORMAT.md section 3. */
export const ATTEMPT_KINDS = [
  "report",
  "model_failure",
  "verifier_infra",
  "generation_infra",
  "ambiguous",
] as const;

/** Kind of an attempt. */
export type AttemptKind = (typeof ATTEMPT_KINDS)[number];

const nonNegative = z.number().finite().min(0);

/** One line of `attempts.jsonl`; a `report` must carry `resolved` 0 or 1. */
export const attemptSchema = z.looseObject({
  ...slotShape,
  attempt: z.number().int().min(0),
  kind: z.enum(ATTEMPT_KINDS),
  resolved: z.union([z.literal(0), z.literal(1)]).nullish(),
  reason: z.string().nullish(),
  gpu_hours: nonNegative.nullish(),
  tokens: z.union([
    nonNegative,
    z.looseObject({ prompt: nonNegative, completion: nonNegative }),
  ]).nullish(),
  /** gatelab extension: wall-clock service time of the attempt, seconds. */
  service_seconds: nonNegative.nullish(),
}).superRefine((a, ctx) => {
  if (a.kind === "report" && (a.resolved === undefined || a.resolved === null)) {
    ctx.addIssue({
      code: "custom",
      path: ["resolved"],
      message: "a report attempt must carry resolved 0 or 1",
    });
  }
});

/**
 * An attempt as made.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type AttemptRecord = z.infer<typeof attemptSchema>;
