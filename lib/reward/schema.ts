/**
 * Inputs of the reward recipes as zod schemas: `steps.jsonl`
 * (docs/FORMAT.md section 4) and `groups.jsonl` (docs/FORMAT.md,
 * Extensions). Unknown fields are kept.
 *
 * @module
 */
import { z } from "zod";

/** One judged step of a trajectory. `verdict: null` counts as absent. */
export const stepSchema = z.looseObject({
  trajectory_id: z.string().min(1),
  order: z.number().int(),
  level: z.number().int().min(-1).max(4),
  source: z.enum(["declared", "backfilled"]).nullish(),
  verdict: z.enum(["final", "revoked", "provisional"]).nullish(),
});

/** A step record. */
export type StepRecord = z.infer<typeof stepSchema>;

/** One trajectory's group for the recipe comparison, with an optional reference score. */
export const groupSchema = z.looseObject({
  trajectory_id: z.string().min(1),
  group: z.enum(["good", "bad"]),
  reference: z.number().finite().nullish(),
});

/** A group record. */
export type GroupRecord = z.infer<typeof groupSchema>;

/**
 * The `--prm-weights` file: a JSON object from `"<trajectory_id>:<order>"`
 * (split at the last colon) to a finite weight > 0.
 */
export const prmWeightsSchema = z.record(z.string(), z.number().finite().gt(0));
