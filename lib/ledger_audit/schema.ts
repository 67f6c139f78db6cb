/**
 * The proposal ledger's fields (one JSONL line per candidate and
 * validation) as a zod schema: the minimal persistent state of the
 * candidate proposer, which gatelab's own `ledger.jsonl` also satisfies.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/** Results a validated candidate can have (selection.json statuses, plus `retired`). */
export const VALIDATION_RESULTS = [
  "selected",
  "rewrite_loser",
  "non_positive",
  "budget_excluded",
  "not_estimable",
  "retired",
] as const;

/**
 * One ledger line. `operation` is any string here (the audit reports
 * values other than ADD and REWRITE as `operation_invalid`) or null, which
 * gatelab's own ledger writes for versions the skill already held (roles
 * `current` and `old`: not proposals). The proposer's fields gatelab cannot
 * know (`source_card_ids`, `failure_mechanism`, `consolidation_cluster_id`,
 * `notes`) may be absent; `validation_result`, `estimated_effect` and
 * `contribution_rank` are null for a candidate that did not reach a gate.
 * Unknown fields are kept.
 *
 * @example gatelab's own ledger line is an instance
 * ```ts
 * import { LedgerLineSchema } from "./schema.ts";
 * import { ok } from "node:assert/strict";
 * ok(LedgerLineSchema.safeParse({
 *   format: "gatelab.ledger/v1", key: "g|a.v1|h|reward|4", candidate_id: "a.v1", operation: "ADD", role: "add",
 *   chunk_id: "a", target_chunk_id: null, replacement_family_id: null, stage: "online", proposal_checkpoint: "c",
 *   gate_ids: ["g"], baseline_sha256: "h", metric: "reward", budget_k: 4, exploratory: false,
 *   validation_result: "selected", status: "selected", estimated_effect: 0.1, contribution_rank: 1,
 * }).success);
 * ok(!LedgerLineSchema.safeParse({ candidate_id: "a.v1" }).success);
 * ```
 */
export const LedgerLineSchema = z.looseObject({
  candidate_id: z.string().min(1),
  operation: z.string().nullable(),
  target_chunk_id: z.string().nullable(),
  source_card_ids: z.array(z.string()).optional(),
  failure_mechanism: z.string().nullable().optional(),
  proposal_checkpoint: z.string().nullable(),
  stage: z.enum(["cold_start", "online"]),
  consolidation_cluster_id: z.string().nullable().optional(),
  replacement_family_id: z.string().nullable(),
  validation_result: z.enum(VALIDATION_RESULTS).nullable(),
  estimated_effect: z.number().nullable(),
  contribution_rank: z.number().int().min(1).nullable(),
  notes: z.string().nullable().optional(),
  /** gatelab's ledger: the version's role in the gate (`current`/`old` lines are not proposals). */
  role: z.enum(["current", "add", "old", "new"]).optional(),
});

/** One parsed ledger line with its one-based line number. */
export type LedgerLine = z.infer<typeof LedgerLineSchema> & { readonly line: number };
