/**
 * The proposal ledger audit: the ledger schema and its checks.
 *
 * @module
 */
export { type LedgerLine, LedgerLineSchema, VALIDATION_RESULTS } from "./schema.ts";
export { type CitedResult, ledgerIssues, REJECTED_RESULTS } from "./checks.ts";
