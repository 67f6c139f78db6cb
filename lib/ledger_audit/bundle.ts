/**
 * The bundle of the proposal ledger audit (`gate ledger-audit`): its validation.json read
 * back, its findings tables, its files and the report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { auditCommand } from "../core/audit_command.ts";

import { type ValidationJson, ValidationSchema } from "../contract/outputs/mod.ts";

import { ledgerAuditFiles } from "./files.ts";
import { ledgerAuditTables } from "./tables.ts";
import { ledgerAuditSection } from "./section.ts";

/**
 * The proposal ledger audit as a bundle. Its document is the validation.json that
 * `gate ledger-audit` wrote (any other command's is not read); `files` writes
 * the command's files from the audit itself.
 *
 * @example
 * ```ts
 * import { ledgerAuditBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([ledgerAuditBundle.file, ledgerAuditBundle.kind], ["validation.json", ["audit"]]);
 * ```
 */
export const ledgerAuditBundle: Bundle<ValidationJson, Parameters<typeof ledgerAuditFiles>[0]> = {
  stage: "ledger_audit",
  file: "validation.json",
  schema: ValidationSchema,
  kind: ["audit"],
  commands: ["ledger-audit"],
  tidy: ["ledger"],
  read: (dir) =>
    readBundleFile(
      dir,
      "validation.json",
      ValidationSchema,
      (v) => auditCommand(v) === "ledger-audit",
    ),
  tables: ledgerAuditTables,
  files: (_doc, audit) => ledgerAuditFiles(audit),
  section: ledgerAuditSection,
};
