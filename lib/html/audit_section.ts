/**
 * The report's "Audits" section: the findings of `gate ledger-audit` and
 * `gate firewall`, which write only `validation.json`. Such a file is read
 * as an audit when its `generator.command` is one of those two commands
 * (every command writes a validation.json; the others are not audits).
 *
 * @module
 */
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { Table } from "../report/table.ts";
import { formatCount } from "../report/format.ts";

/** The commands whose validation.json is an audit. */
export const AUDIT_COMMANDS: readonly string[] = ["ledger-audit", "firewall"];

/**
 * The audit command that wrote a parsed validation.json, or null when it is
 * not one of {@linkcode AUDIT_COMMANDS}.
 *
 * @example
 * ```ts
 * import { auditCommand } from "./audit_section.ts";
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

/** A parsed audit validation.json (its schema is lib/contract's `ValidationSchema`). */
export type AuditFile = ValidationJson;

/** Breaks text at spaces into lines of at most `width` characters (longer words stay whole). */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}

/**
 * The tables of one audit: the result with a count per code, then every
 * finding with its code, file:line and field, and its message.
 *
 * @param audit Parsed validation.json of `gate ledger-audit` or `gate firewall`.
 * @returns Two tables (one when nothing was found).
 *
 * @example
 * ```ts
 * import { auditTables } from "./audit_section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const [summary, findings] = auditTables({
 *   issues: [{ code: "gold_asin", message: "holds B0", file: "c.jsonl", line: 3, path: "text" }] });
 * deepEqual(summary!.rows, [["result", "1 finding"], ["gold_asin", "1"]]);
 * deepEqual(findings!.rows, [["gold_asin", "c.jsonl:3\ntext", "holds B0"]]);
 * ```
 */
export function auditTables(audit: Pick<AuditFile, "issues">): Table[] {
  const counts = new Map<string, number>();
  for (const issue of audit.issues) counts.set(issue.code, (counts.get(issue.code) ?? 0) + 1);
  const n = audit.issues.length;
  const summary: Table = {
    caption: "Result",
    columns: [{ label: "code" }, { label: "findings", align: "right" }],
    rows: [
      ["result", n === 0 ? "nothing found" : `${formatCount(n)} finding${n === 1 ? "" : "s"}`],
      ...[...counts].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map((
        [code, count],
      ) => [code, formatCount(count)]),
    ],
  };
  if (n === 0) return [summary];
  return [summary, {
    caption: "Findings",
    columns: [{ label: "code" }, { label: "where (file:line, field)" }, { label: "message" }],
    rows: audit.issues.map((issue) => [
      issue.severity === "warning" ? `${issue.code} (warning)` : issue.code,
      [
        issue.file === undefined
          ? "—"
          : `${issue.file}${issue.line === undefined ? "" : `:${issue.line}`}`,
        ...(issue.path === undefined ? [] : [issue.path]),
      ].join("\n"),
      wrap(issue.message, 40),
    ]),
  }];
}
