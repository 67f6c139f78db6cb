import { z } from "npm:zod@4.6.7";
import { checkUnrecorded, UNRECORDABLE_GATE_FIELDS } from "./unrecorded.ts";

/** Schema of one version of a slot: one 0/1 design column. */
export const SlotVersionSchema = z.looseObject({
  version_id: z.string().min(1),
  chunk_id: z.string().min(1),
  role: z.enum(["current", "add", "old", "new"]),
  text_sha256: z.string().optional(),
});

/** Schema of one logical slot of the skill. */
export const SlotSchema = z.looseObject({
  slot_id: z.string().min(1),
  versions: z.array(SlotVersionSchema).min(1),
});

/**
 * Schema of `gate.json` (docs/FORMAT.md section 2). Semantic rules (family
 * shape, budget range, dimension cap) are checked by validation with their
 * own codes; `budget_k` is only required to be an integer here. Duplicate
 * slot or version ids are schema errors.
 *
 * @example
 * ```ts
 * import { GatePlanSchema } from "./gate.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = GatePlanSchema.safeParse({
 *   format: "gatelab.gate/v1", gate_id: "g", stage: "cold_start", bare_run_dir: "../bare",
 *   estimator: "paired_delta_ols_no_intercept", mask_seed: 1, p_present: 0.5, budget_k: 1,
 *   slots: [{ slot_id: "s", versions: [{ version_id: "v", chunk_id: "c", role: "add" }] },
 *           { slot_id: "s2", versions: [{ version_id: "v", chunk_id: "c2", role: "add" }] }],
 * });
 * deepEqual(r.success ? [] : r.error.issues.map((i) => i.path.join(".")), ["slots.1.versions.0.version_id"]);
 * ```
 */
export const GatePlanSchema = z.looseObject({
  format: z.literal("gatelab.gate/v1"),
  gate_id: z.string().min(1),
  stage: z.enum(["cold_start", "online"]),
  bare_run_dir: z.string().min(1),
  estimator: z.literal("paired_delta_ols_no_intercept"),
  // null only when listed in `unrecorded` (docs/FORMAT.md, Extensions).
  mask_seed: z.int().nullable(),
  p_present: z.number().min(0).max(1).nullable(),
  budget_k: z.int(),
  slots: z.array(SlotSchema),
  unrecorded: z.array(z.string()).optional(),
}).superRefine((gate, ctx) => {
  checkUnrecorded(gate, UNRECORDABLE_GATE_FIELDS, ctx);
  const slotIds = new Set<string>();
  const versionIds = new Set<string>();
  gate.slots.forEach((slot, s) => {
    if (slotIds.has(slot.slot_id)) {
      ctx.addIssue({
        code: "custom",
        path: ["slots", s, "slot_id"],
        message: `duplicate slot_id "${slot.slot_id}"`,
      });
    }
    slotIds.add(slot.slot_id);
    slot.versions.forEach((version, v) => {
      if (versionIds.has(version.version_id)) {
        ctx.addIssue({
          code: "custom",
          path: ["slots", s, "versions", v, "version_id"],
          message:
            `duplicate version_id "${version.version_id}" (every version is one design column)`,
        });
      }
      versionIds.add(version.version_id);
    });
  });
});

/**
 * A parsed gate plan.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type GatePlan = z.infer<typeof GatePlanSchema>;
/** A parsed slot. */
export type Slot = z.infer<typeof SlotSchema>;
