/**
 * The fields of `history.json` that the history tables and figures read,
 * as a zod schema (for reading a history back, e.g. in `gate report`).
 * Unknown fields are accepted.
 *
 * @module
 */
import { z } from "zod";

const num = z.number().nullable();

const entry = z.looseObject({
  step: z.number().int().min(1),
  version_id: z.string(),
  role: z.string(),
  estimate: z.number(),
  ci_lower: num,
  ci_upper: num,
  status: z.enum(["selected", "rewrite_loser", "non_positive", "budget_excluded", "retired"]),
  transition: z.string(),
});

/**
 * `history.json` as `gate history` writes it (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { HistoryFileSchema } from "./history_file.ts";
 * import { ok } from "node:assert/strict";
 * ok(!HistoryFileSchema.safeParse({ format: "gatelab.history/v1" }).success);
 * ```
 */
export const HistoryFileSchema = z.looseObject({
  format: z.literal("gatelab.history/v1"),
  metric: z.string(),
  conventions: z.looseObject({
    interval: z.string(),
    internalization: z.looseObject({ trend: z.string(), note: z.string() }),
  }),
  steps: z.array(z.looseObject({
    step: z.number().int().min(1),
    gate_ids: z.array(z.string()),
    checkpoint_id: z.string().nullable(),
  })).min(1),
  chunks: z.record(z.string(), z.array(entry.nullable())),
  exposure: z.record(
    z.string(),
    z.looseObject({ steps_in_skill: z.number(), steps_selected: z.number() }),
  ),
  internalization: z.array(z.looseObject({
    chunk_id: z.string(),
    version_id: z.string(),
    steps: z.array(z.number()),
    estimates: z.array(z.number()),
    slope: z.number(),
    slope_ci: z.tuple([z.number(), z.number()]),
    flagged: z.boolean(),
  })),
});
