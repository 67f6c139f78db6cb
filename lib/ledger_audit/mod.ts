/**
 * The proposal ledger audit: the ledger schema, its checks, and the audit's
 * bundle (the library call, its files, tables and report section).
 *
 * @module
 */
export { type LedgerLine, LedgerLineSchema, VALIDATION_RESULTS } from "./schema.ts";
export { type CitedResult, ledgerIssues, REJECTED_RESULTS } from "./checks.ts";
export {
  type CitedLookup,
  historyLookup,
  type LedgerAudit,
  ledgerAudit,
  type LedgerAuditDocument,
} from "./audit.ts";
export { ledgerTidy } from "./ledger_audit_tidy.ts";
export { ledgerAuditFiles } from "./files.ts";
export { ledgerAuditTables } from "./tables.ts";
export { ledgerAuditSection } from "./section.ts";
export * from "./bundle.ts";
