/**
 * Which validation.json the report reads as an audit: the findings of
 * `gate ledger-audit` and `gate firewall`, which write only validation.json
 * when they find anything. Such a file is an audit when its
 * `generator.command` is one of those two commands (every command writes a
 * validation.json; the others are not audits). The audits' tables and
 * sections live beside their stages (lib/firewall, lib/ledger_audit), whose
 * bundles read validation.json only when it is theirs.
 *
 * @module
 */

/** The commands whose validation.json is an audit. */
export const AUDIT_COMMANDS: readonly string[] = ["ledger-audit", "firewall"];

/**
 * The audit command that wrote a parsed validation.json, or null when it is
 * not one of {@linkcode AUDIT_COMMANDS}.
 *
 * @example
 * ```ts
 * import { auditCommand } from "./audit_command.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(auditCommand({ generator: { command: "gate firewall --texts a --gold b --out c" } }), "firewall");
 * deepEqual(auditCommand({ generator: { command: "gate analyze g --out o" } }), null);
 * ```
 */
export function auditCommand(value: unknown): string | null {
  const generator = (value as { generator?: { command?: unknown } } | null)?.generator;
  const command = typeof generator?.command === "string" ? generator.command : "";
  const name = command.split(/\s+/)[1] ?? "";
  return command.startsWith("gate ") && AUDIT_COMMANDS.includes(name) ? name : null;
}
