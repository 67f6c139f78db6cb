/**
 * One zod schema per gatelab output file (docs/FORMAT.md sections 5-7 and
 * Extensions), with {@linkcode OUTPUT_SCHEMAS} mapping each file name to
 * its schema. Writers type their documents from these schemas; readers
 * (`gate report`, `plan-power --from`, `gate history`) parse with them.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { ContributionsSchema } from "./contributions.ts";
import { SelectionSchema } from "./selection.ts";
import { DiagnosticsSchema } from "./diagnostics.ts";
import { ValidationSchema } from "./validation.ts";
import { HeldoutSchema } from "./heldout.ts";
import { PowerSchema } from "./power.ts";
import { ComparisonSchema } from "./comparison.ts";
import { StudySchema } from "./study.ts";
import { RecipeComparisonSchema, RewardLineSchema, RewardsMetaSchema } from "./rewards.ts";
import { SequentialSchema } from "./sequential.ts";
import { LadderResultSchema } from "./ladder.ts";
import { HistorySchema } from "./history.ts";
import { FirewallSchema, LedgerAuditSchema } from "./audits.ts";
import { LegacyComparisonSchema } from "./legacy_comparison.ts";

export {
  EstimatorSchema,
  GateRunSchema,
  GeneratorSchema,
  IssueSchema,
  RunRefSchema,
  type View,
} from "./common.ts";
export * from "./contributions.ts";
export * from "./selection.ts";
export * from "./diagnostics.ts";
export * from "./validation.ts";
export * from "./heldout.ts";
export * from "./power.ts";
export * from "./comparison.ts";
export * from "./study.ts";
export * from "./rewards.ts";
export * from "./sequential.ts";
export * from "./ladder.ts";
export * from "./history.ts";
export * from "./audits.ts";
export * from "./legacy_comparison.ts";
export * from "./read_output.ts";

/**
 * Every output file gatelab writes as JSON (or JSONL, one schema per line),
 * by file name, with its schema.
 *
 * @example
 * ```ts
 * import { OUTPUT_SCHEMAS } from "./mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(OUTPUT_SCHEMAS["selection.json"]!.safeParse({}).success, false);
 * ```
 */
export const OUTPUT_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  "contributions.json": ContributionsSchema,
  "selection.json": SelectionSchema,
  "diagnostics.json": DiagnosticsSchema,
  "validation.json": ValidationSchema,
  "heldout.json": HeldoutSchema,
  "power.json": PowerSchema,
  "comparison.json": ComparisonSchema,
  "study.json": StudySchema,
  "rewards.jsonl": RewardLineSchema,
  "rewards_meta.json": RewardsMetaSchema,
  "recipe_comparison.json": RecipeComparisonSchema,
  "sequential.json": SequentialSchema,
  "ladder_result.json": LadderResultSchema,
  "history.json": HistorySchema,
  "ledger_audit.json": LedgerAuditSchema,
  "firewall.json": FirewallSchema,
  "legacy_comparison.json": LegacyComparisonSchema,
};
export * from "./task_rows_file.ts";
