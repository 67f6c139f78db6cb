import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, IssueSchema, list } from "./common.ts";

/**
 * `validation.json`, written by every command (docs/FORMAT.md section 5 and
 * Extensions).
 *
 * @example
 * ```ts
 * import { ValidationSchema } from "./validation.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = ValidationSchema.safeParse({ format: "gatelab.validation/v1", ok: true, issues: [{ code: "x" }], counts: {},
 *   generator: { tool: "gatelab", version: "0", command: "gate x" }, inputs: [] });
 * deepEqual(r.success ? [] : r.error.issues[0]!.path, ["issues", 0, "message"]);
 * ```
 */
export const ValidationSchema = z.object({
  format: z.literal("gatelab.validation/v1"),
  ok: z.boolean(),
  issues: list(IssueSchema),
  counts: z.record(z.string(), z.number()),
  /** Issues that do not fail validation (e.g. `cache_corrupt`), present only when there are any. */
  warnings: list(IssueSchema).optional(),
  /** `--exploratory`: the waived issues are listed with severity warning. */
  exploratory: z.literal(true).optional(),
  generator: GeneratorSchema,
  inputs: list(z.unknown()),
});

/**
 * Parsed validation.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type ValidationJson = z.output<typeof ValidationSchema>;
