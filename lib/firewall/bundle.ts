/**
 * The bundle of the gold firewall audit (`gate firewall`): its validation.json read
 * back, its findings tables, its files and the report section.
 *
 * @module
 */
import { type Bundle, readBundleFile } from "../table/bundle.ts";
import { auditCommand } from "../core/audit_command.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import { type ValidationJson, ValidationSchema } from "../contract/outputs/mod.ts";
import type { FirewallDocument } from "./audit.ts";
import { firewallFiles } from "./files.ts";
import { firewallTables } from "./tables.ts";
import { firewallSection } from "./section.ts";

/**
 * The gold firewall audit as a bundle. Its document is the validation.json that
 * `gate firewall` wrote (any other command's is not read); `files` writes
 * the command's files from the audit itself.
 *
 * @example
 * ```ts
 * import { firewallBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([firewallBundle.file, firewallBundle.kind], ["validation.json", ["audit"]]);
 * ```
 */
export const firewallBundle: Bundle<
  ValidationJson,
  { readonly document: FirewallDocument; readonly validation: ValidationDocument }
> = {
  stage: "firewall",
  file: "validation.json",
  schema: ValidationSchema,
  kind: ["audit"],
  commands: ["firewall"],
  tidy: [],
  read: (dir) =>
    readBundleFile(dir, "validation.json", ValidationSchema, (v) => auditCommand(v) === "firewall"),
  tables: firewallTables,
  files: (_doc, { document, validation }) => firewallFiles(document, validation),
  section: firewallSection,
};
