import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, IssueSchema, list, numOrNull, pair } from "./common.ts";

const role = z.enum(["current", "add", "old", "new"]);
const status = z.enum([
  "selected",
  "rewrite_loser",
  "non_positive",
  "budget_excluded",
  "not_estimable",
  "retired",
]);

/** One step of one chunk's lifecycle in history.json (null where the chunk is not in the step's gate). */
export const LifecycleEntrySchema = z.object({
  step: z.int().min(1),
  version_id: z.string(),
  role,
  estimate: z.number(),
  se: numOrNull,
  ci_lower: numOrNull,
  ci_upper: numOrNull,
  interval: z.enum(["bootstrap", "hc3_normal", "cr1_normal"]),
  status,
  rank: numOrNull,
  transition: z.enum(["added", "kept", "replaced", "retired", "rejected", "re_added"]),
  /** The chunk's other versions at this step (REWRITE family members), with their status. */
  others: list(z.object({
    version_id: z.string(),
    role,
    estimate: z.number(),
    status,
  })),
});

/**
 * `history.json` of `gate history` (docs/FORMAT.md, Extensions; docs/history.md).
 *
 * @example
 * ```ts
 * import { HistorySchema } from "./history.ts";
 * import { ok } from "node:assert/strict";
 * ok(!HistorySchema.safeParse({ format: "gatelab.history/v1" }).success);
 * ```
 */
export const HistorySchema = z.object({
  format: z.literal("gatelab.history/v1"),
  metric: z.string(),
  conventions: z.object({
    interval: z.string(),
    lineage: z.string(),
    status: z.string(),
    internalization: z.object({
      window: z.string(),
      trend: z.string(),
      flagged: z.string(),
      note: z.string(),
    }),
  }),
  steps: list(z.object({
    step: z.int().min(1),
    gate_ids: list(z.string()),
    checkpoint_id: z.string().nullable(),
    stage: z.enum(["cold_start", "online"]),
    budget_k: z.number(),
    baseline_sha256: z.string(),
    source: z.object({ kind: z.enum(["analysis", "gates"]), dirs: list(z.string()) }),
    bootstrap: z.object({ draws: z.number(), seed: z.number() }).nullable(),
    selected: list(z.string()),
  })).check(z.minLength(1)),
  lineage: z.object({
    ok: z.boolean(),
    /** True when `--allow-lineage-gaps` recorded the lineage issues as warnings. */
    gaps_allowed: z.boolean(),
    issues: list(IssueSchema),
  }),
  chunks: z.record(z.string(), list(LifecycleEntrySchema.nullable())),
  /** Per chunk: steps it entered a gate as part of the skill, and steps it was selected. */
  exposure: z.record(
    z.string(),
    z.object({ steps_in_skill: z.number(), steps_selected: z.number() }),
  ),
  internalization: list(z.object({
    chunk_id: z.string(),
    version_id: z.string(),
    steps: list(z.number()),
    estimates: list(z.number()),
    standard_errors: list(z.number()),
    slope: z.number(),
    slope_se: z.number(),
    slope_ci: pair,
    flagged: z.boolean(),
  })),
  generator: GeneratorSchema,
});

/**
 * Parsed history.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type HistoryJson = z.output<typeof HistorySchema>;
