/**
 * Inputs of the reward recipes as zod schemas: `steps.jsonl`
 * (docs/FORMAT.md section 4) and `groups.jsonl` (docs/FORMAT.md,
 * Extensions). Unknown fields are kept.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/** One judged step of a trajectory. `verdict: null` counts as absent. */
export const stepSchema = z.looseObject({
  trajectory_id: z.string().min(1),
  order: z.number().int(),
  level: z.number().int().min(-1).max(4),
  source: z.enum(["declared", "backfilled"]).nullish(),
  verdict: z.enum(["final", "revoked", "provisional"]).nullish(),
});

/**
 * A step record.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type StepRecord = z.infer<typeof stepSchema>;

/** One trajectory's group for the recipe comparison, with an optional reference score. */
export const groupSchema = z.looseObject({
  trajectory_id: z.string().min(1),
  group: z.enum(["good", "bad"]),
  reference: z.number().finite().nullish(),
});

/**
 * A group record.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type GroupRecord = z.infer<typeof groupSchema>;

/**
 * The `--prm-weights` file: a JSON object from `"<trajectory_id>:<order>"`
 * (split at the last colon) to a finite weight > 0.
 */
export const prmWeightsSchema = z.record(z.string(), z.number().finite().gt(0));
