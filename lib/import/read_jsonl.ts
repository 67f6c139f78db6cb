import type { Issue } from "../core/issue.ts";
import { forEachJsonlLine } from "../load/jsonl.ts";
import type { SourceTable } from "./table.ts";

/**
 * Reads a JSON Lines table: one object per line (blank lines skipped),
 * read with gatelab's strict JSONL reader (UTF-8, duplicate keys and depth
 * checked). Columns are the keys in first-seen order; a key a line lacks
 * is `null` there. Row n is the n-th object.
 *
 * @param file The .jsonl file.
 * @returns The table, or the issues (file and line).
 */
export async function readJsonlTable(file: string): Promise<SourceTable | Issue[]> {
  const rows: Record<string, unknown>[] = [];
  const issues: Issue[] = [];
  const columns: string[] = [];
  const seen = new Set<string>();
  const readIssues = await forEachJsonlLine(file, (row) => {
    for (const k in row) {
      if (!seen.has(k)) {
        seen.add(k);
        columns.push(k);
      }
    }
    rows.push(row);
  }, { label: file });
  for (const i of readIssues) issues.push(i);
  if (issues.length > 0) return issues;
  const data: Record<string, unknown[]> = {};
  for (const c of columns) data[c] = rows.map((r) => r[c] ?? null);
  return { file, format: "jsonl", columns, rows: rows.length, data };
}
