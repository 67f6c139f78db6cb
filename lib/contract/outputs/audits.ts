import { z } from "npm:zod@4.6.7";
import { GeneratorSchema, list } from "./common.ts";

/**
 * `ledger_audit.json` of `gate ledger-audit`, written when the ledger is
 * clean (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { LedgerAuditSchema } from "./audits.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(LedgerAuditSchema.safeParse({ format: "gatelab.ledger-audit/v1", lines: 3 }).success, false);
 * ```
 */
export const LedgerAuditSchema = z.object({
  format: z.literal("gatelab.ledger-audit/v1"),
  ledger: z.object({ file: z.string(), sha256: z.string().nullable() }),
  history: z.string().nullable(),
  lines: z.number(),
  proposals: z.number(),
  checks: list(z.string()),
  conventions: z.record(z.string(), z.union([z.string(), z.number()])),
  generator: GeneratorSchema,
});

/**
 * `firewall.json` of `gate firewall`, written when no gold was found
 * (docs/FORMAT.md, Extensions).
 *
 * @example
 * ```ts
 * import { FirewallSchema } from "./audits.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(FirewallSchema.safeParse({ format: "gatelab.firewall/v1", ok: false }).success, false);
 * ```
 */
export const FirewallSchema = z.object({
  format: z.literal("gatelab.firewall/v1"),
  ok: z.literal(true),
  scanned: z.object({
    files: z.number(),
    lines: z.number(),
    fields: z.number(),
    gold_items: z.number(),
  }),
  findings: list(z.unknown()).check(z.maxLength(0)),
  conventions: z.record(z.string(), z.string()),
  inputs: list(z.unknown()),
  generator: GeneratorSchema,
});

/**
 * Parsed ledger_audit.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type LedgerAuditJson = z.output<typeof LedgerAuditSchema>;
/**
 * Parsed firewall.json (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type FirewallJson = z.output<typeof FirewallSchema>;
