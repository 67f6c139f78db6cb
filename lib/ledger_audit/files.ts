/**
 * The files `gate ledger-audit` writes into `--out` when the ledger is clean.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import type { LedgerAuditDocument } from "./audit.ts";
import { ledgerTidy } from "./ledger_audit_tidy.ts";
import type { LedgerLine } from "./schema.ts";

/**
 * The bytes of every file of a clean ledger audit: `validation.json`,
 * `ledger_audit.json` and the tidy table `ledger` (`ledger.csv` and
 * `ledger.parquet`; a refusal writes validation.json only, through the command's
 * refusal). Pure: nothing is written.
 *
 * @param audit The clean audit's documents and its parsed lines.
 * @returns File name to contents.
 *
 * @example
 * ```ts
 * import { ledgerAuditFiles } from "./files.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { generatorMeta } from "../core/meta.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = await ledgerAuditFiles({
 *   validation: validationDocument([], "gate ledger-audit l.jsonl"),
 *   document: { format: "gatelab.ledger-audit/v1", ledger: { file: "l.jsonl", sha256: null }, history: null,
 *     lines: 0, proposals: 0, checks: [], conventions: {}, generator: generatorMeta("gate ledger-audit l.jsonl") },
 *   entries: [] });
 * deepEqual(Object.keys(files), ["validation.json", "ledger_audit.json", "ledger.csv", "ledger.parquet"]);
 * ```
 */
export async function ledgerAuditFiles(audit: {
  readonly validation: ValidationDocument;
  readonly document: LedgerAuditDocument;
  readonly entries: readonly LedgerLine[];
}): Promise<Record<string, FileValue>> {
  return {
    "validation.json": toJsonText(audit.validation),
    "ledger_audit.json": toJsonText(audit.document),
    ...await tidyFiles([ledgerTidy(audit.entries)]),
  };
}
