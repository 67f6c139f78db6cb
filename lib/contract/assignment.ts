import { z } from "npm:zod@4.6.7";

/**
 * Schema of one `assignments.jsonl` line: the planned mask of one episode,
 * `slots` mapping every slot id to the present version id or null.
 *
 * @example
 * ```ts
 * import { AssignmentLineSchema } from "./assignment.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = AssignmentLineSchema.safeParse({ split: "val", task_id: "t", sample_id: 0, slots: { s1: "v1", s2: null } });
 * deepEqual(r.success, true);
 * ```
 */
export const AssignmentLineSchema = z.looseObject({
  split: z.string().min(1),
  task_id: z.string().min(1),
  sample_id: z.int().min(0),
  slots: z.record(z.string(), z.string().nullable()),
});

/**
 * One parsed assignment line.
 *
 * Inferred from a zod schema: deno doc cannot document zod's types, so this
 * alias is left out of the API docs (`@ignore`); its schema above and
 * docs/FORMAT.md document the fields.
 *
 * @ignore
 */
export type AssignmentLine = z.infer<typeof AssignmentLineSchema>;
