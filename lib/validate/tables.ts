/**
 * Tables of a validation for notebooks and reports: the verdict at a
 * glance, the inputs with their hashes and run cache status, and the
 * findings of any command's validation.json (the audits' report section).
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { formatCount } from "../table/format.ts";
import type { ValidationJson } from "../contract/outputs/mod.ts";
import type { GateValidation } from "./validate_gates.ts";
import type { ValidationInput } from "./read_inputs.ts";

/**
 * A validation at a glance: the verdict, the number of issues per code,
 * and for a clean gate (or pooled rounds) the gates, paired rows, task
 * clusters, design columns and metrics.
 *
 * @param validation What `validateGates` returned.
 * @returns A two-column table (`item`, `value`).
 *
 * @example
 * ```ts
 * import { validationSummaryTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = validationSummaryTable({ ok: false, issues: [], counts: { seed_mismatch: 3 }, dataset: null, inputs: [] });
 * deepEqual(t.rows, [["verdict", "not ok"], ["issues", "3 (seed_mismatch 3)"]]);
 * ```
 */
export function validationSummaryTable(validation: GateValidation): Table {
  const total = Object.values(validation.counts).reduce((a, b) => a + b, 0);
  const byCode = Object.entries(validation.counts).map(([code, n]) => `${code} ${n}`).join(", ");
  const rows: string[][] = [
    ["verdict", validation.ok ? "ok" : "not ok"],
    ["issues", total === 0 ? "0" : `${total} (${byCode})`],
  ];
  const d = validation.dataset;
  if (d) {
    rows.push(
      ["gates", d.gates.map((g) => `${g.gate_id} (${g.stage}, budget_k ${g.budget_k})`).join(", ")],
      ["bare run", d.baseline.run_id],
      ["paired rows", String(d.n)],
      ["task clusters", String(d.clusterCount)],
      ["design columns", String(d.k)],
      ["metrics", d.metrics.join(", ")],
    );
  }
  return {
    caption: "Validation",
    columns: [{ label: "item" }, { label: "value" }],
    rows,
  };
}

/**
 * The inputs of a validation as a table: kind, directory, run id, the
 * first 12 hex digits of the sha256, and for runs whether their parsed data
 * came from the run cache (`hit`, `miss`, `off`; `-` for gate plan files,
 * which are always parsed).
 *
 * @param inputs `GateValidation.inputs` (or validation.json's `inputs`).
 * @returns A table for `toMarkdown`, `toLatex` or `displayTable`.
 *
 * @example
 * ```ts
 * import { validationInputsTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = validationInputsTable([
 *   { dir: "g/../bare", kind: "bare", run_id: "b1", sha256: "0123456789abcdef", cache: "hit" },
 *   { dir: "g", kind: "gate", sha256: null },
 * ]);
 * deepEqual(t.rows, [["bare", "g/../bare", "b1", "0123456789ab", "hit"], ["gate", "g", "", "-", "-"]]);
 * ```
 */
export function validationInputsTable(inputs: readonly ValidationInput[]): Table {
  return {
    caption: "Inputs and run cache status",
    columns: [
      { label: "kind" },
      { label: "dir" },
      { label: "run_id" },
      { label: "sha256" },
      { label: "cache" },
    ],
    rows: inputs.map((i) => [
      i.kind,
      i.dir,
      i.run_id ?? "",
      i.sha256 === null ? "-" : i.sha256.slice(0, 12),
      i.cache ?? "-",
    ]),
    notes: [
      "cache: hit = parsed run read from the run cache, miss = parsed now, off = no cache; gate plan files are always parsed",
    ],
  };
}

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
 * The findings of a validation.json: the result with a count per code,
 * then every finding with its code, file:line and field, and its message.
 * The report section of `gate ledger-audit` and `gate firewall`.
 *
 * @param audit Parsed validation.json (of `gate ledger-audit` or `gate firewall` in the report).
 * @returns Two tables (one when nothing was found).
 *
 * @example
 * ```ts
 * import { findingsTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const [summary, findings] = findingsTables({
 *   issues: [{ code: "gold_asin", message: "holds B0", file: "c.jsonl", line: 3, path: "text" }] });
 * deepEqual(summary!.rows, [["result", "1 finding"], ["gold_asin", "1"]]);
 * deepEqual(findings!.rows, [["gold_asin", "c.jsonl:3\ntext", "holds B0"]]);
 * ```
 */
export function findingsTables(audit: Pick<ValidationJson, "issues">): Table[] {
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
