import { z } from "npm:zod@4.6.7";

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
    checkpoint_id: z.string().min(1),
    model: z.string(),
    endpoint: z.string(),
    sampling: z.record(z.string(), z.unknown()),
    send_seed: z.boolean(),
    base_prompt_sha256: z.string(),
    environment: z.looseObject({
      name: z.string(),
      version: z.string(),
      config_sha256: z.string(),
    }),
    runtime: z.looseObject({
      protocol: z.string(),
      max_steps: z.int().min(0),
    }),
    reward: z.looseObject({
      version: z.string(),
      components: z.array(z.string().min(1)).refine((c) => c.includes("r_strict"), {
        message: "components must include r_strict",
      }),
    }),
  }),
  skill: z.looseObject({
    bank: z.string(),
    selected_skills: z.array(z.string()),
    max_skills: z.int().min(0).nullable(),
  }),
});

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
