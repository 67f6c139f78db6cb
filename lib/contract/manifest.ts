import { z } from "npm:zod@4.6.7";
import { checkUnrecorded, UNRECORDABLE_MANIFEST_FIELDS } from "./unrecorded.ts";

/**
 * Schema of a run's `manifest.json` (docs/FORMAT.md section 1). Unknown
 * fields are kept (loose objects), never rejected.
 *
 * @example
 * ```ts
 * import { RunManifestSchema } from "./manifest.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = RunManifestSchema.safeParse({ format: "gatelab.run/v1", run_id: "x" });
 * deepEqual(r.success, false);
 * ```
 */
export const RunManifestSchema = z.looseObject({
  format: z.literal("gatelab.run/v1"),
  run_id: z.string().min(1),
  arm: z.enum(["bare", "masked", "equipped"]),
  split: z.string().min(1),
  repeats: z.int().min(1),
  tasks: z.array(z.string().min(1)).superRefine((tasks, ctx) => {
    const seen = new Set<string>();
    tasks.forEach((task, i) => {
      if (seen.has(task)) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `duplicate task id "${task}" in the plan`,
        });
      }
      seen.add(task);
    });
  }),
  provenance: z.looseObject({
    // null only when listed in `unrecorded` (docs/FORMAT.md, Extensions).
    checkpoint_id: z.string().min(1).nullable(),
    model: z.string().nullable(),
    endpoint: z.string().nullable(),
    sampling: z.record(z.string(), z.unknown()).nullable(),
    send_seed: z.boolean().nullable(),
    base_prompt_sha256: z.string().nullable(),
    environment: z.looseObject({
      name: z.string(),
      version: z.string(),
      config_sha256: z.string(),
    }).nullable(),
    runtime: z.looseObject({
      protocol: z.string(),
      max_steps: z.int().min(0),
    }).nullable(),
    reward: z.looseObject({
      version: z.string().nullable(),
      components: z.array(z.string().min(1)),
    }),
  }),
  skill: z.looseObject({
    bank: z.string(),
    selected_skills: z.array(z.string()),
    max_skills: z.int().min(0).nullable(),
  }),
  unrecorded: z.array(z.string()).optional(),
}).superRefine((manifest, ctx) => {
  checkUnrecorded(manifest, UNRECORDABLE_MANIFEST_FIELDS, ctx);
}).refine(
  (manifest) => {
    // Also run when other fields failed (`when`), so the value may be malformed here.
    const m = manifest as {
      unrecorded?: unknown;
      provenance?: { reward?: { components?: unknown } };
    };
    const components = m?.provenance?.reward?.components;
    if (!Array.isArray(components)) return true;
    const unrecorded = Array.isArray(m.unrecorded) ? m.unrecorded : [];
    return components.includes("r_strict") || unrecorded.includes("rewards.r_strict");
  },
  {
    message: "components must include r_strict",
    path: ["provenance", "reward", "components"],
    when: () => true,
  },
);

/**
 * A parsed run manifest.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type RunManifest = z.infer<typeof RunManifestSchema>;
