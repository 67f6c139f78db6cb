import { z } from "npm:zod@4.6.7";

/**
 * Schema of one `traces.jsonl` line (docs/FORMAT.md section 1). Reward
 * values are checked for presence and finiteness by validation
 * (`reward_incomplete`), not here, so `reward` may be null or absent and
 * `rewards` may hold anything; `injected` is required on completed
 * attempts. Unknown fields are kept.
 *
 * @example
 * ```ts
 * import { TraceLineSchema } from "./trace.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = TraceLineSchema.safeParse({ split: "val", task_id: "t1", sample_id: -1, attempt: 0, status: "failed" });
 * deepEqual(r.success ? [] : r.error.issues.map((i) => i.path.join(".")), ["sample_id"]);
 * ```
 */
export const TraceLineSchema = z.looseObject({
  split: z.string().min(1),
  task_id: z.string().min(1),
  sample_id: z.int().min(0),
  attempt: z.int().min(0),
  status: z.enum(["completed", "failed"]),
  reward: z.number().nullable().optional(),
  rewards: z.record(z.string(), z.unknown()).optional(),
  success: z.boolean().nullable().optional(),
  injected: z.array(z.string()).optional(),
  job_seed: z.int().nullable().optional(),
  provenance: z.record(z.string(), z.unknown()).nullable().optional(),
  steps: z.number().nullable().optional(),
  tokens: z.object({ prompt: z.number(), completion: z.number() }).nullable().optional(),
  error: z.string().nullable().optional(),
}).superRefine((line, ctx) => {
  if (line.status === "completed" && line.injected === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["injected"],
      message: "a completed attempt must list its injected versions ([] for none)",
    });
  }
});

/** One parsed trace line. */
export type TraceLine = z.infer<typeof TraceLineSchema>;
