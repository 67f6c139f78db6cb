import type { Issue } from "../core/issue.ts";

/** Options of {@linkcode forEachJsonlLine}. */
export interface JsonlOptions {
  /** Called with every raw byte chunk as read (e.g. to hash the file while streaming). */
  readonly onBytes?: (chunk: Uint8Array) => void;
  /** Name of the file in issues. @default {path} */
  readonly label?: string;
  /**
   * Receives each parse issue as it is found (so a caller can keep its
   * issues in line order); when given, the returned array stays empty.
   */
  readonly onIssue?: (issue: Issue) => void;
}

/**
 * Reads a JSONL file line by line without holding it in memory: every
 * non-blank line is parsed as JSON and passed to `visit` with its one-based
 * line number. Blank (whitespace-only) lines are skipped; `\r\n` endings are
 * accepted. A line that is not valid JSON, or not a JSON object, becomes a
 * `parse_error` issue naming file and line, and reading goes on.
 *
 * @param path File to read.
 * @param visit Called for every parsed object line.
 * @param options Byte hook and file label.
 * @returns The parse issues, in line order.
 * @throws Deno.errors.NotFound and other I/O errors when the file cannot be read.
 *
 * @example
 * ```ts
 * import { forEachJsonlLine } from "./jsonl.ts";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a":1}\n\n{oops\r\n[1]\n{"a":2}');
 * const seen: number[] = [];
 * const issues = await forEachJsonlLine(path, (_obj, line) => seen.push(line), { label: "x.jsonl" });
 * deepEqual(seen, [1, 5]);
 * deepEqual(issues.map((i) => `${i.code} ${i.file}:${i.line}`), ["parse_error x.jsonl:3", "parse_error x.jsonl:4"]);
 * await Deno.remove(path);
 * ```
 */
export async function forEachJsonlLine(
  path: string,
  visit: (value: Record<string, unknown>, line: number) => void,
  options: JsonlOptions = {},
): Promise<Issue[]> {
  const label = options.label ?? path;
  const issues: Issue[] = [];
  const report = options.onIssue ?? ((issue: Issue) => void issues.push(issue));
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let pending = "";
  let lineNo = 0;
  const handle = (text: string) => {
    lineNo++;
    const trimmed = text.trim();
    if (trimmed === "") return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      report({
        code: "parse_error",
        message: `line is not valid JSON: ${why}`,
        file: label,
        line: lineNo,
      });
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      report({
        code: "parse_error",
        message: `line is not a JSON object (got ${
          Array.isArray(value) ? "array" : value === null ? "null" : typeof value
        })`,
        file: label,
        line: lineNo,
      });
      return;
    }
    visit(value as Record<string, unknown>, lineNo);
  };
  using file = await Deno.open(path, { read: true });
  for await (const chunk of file.readable) {
    options.onBytes?.(chunk);
    pending += decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl = pending.indexOf("\n", start);
    while (nl !== -1) {
      handle(pending.slice(start, nl));
      start = nl + 1;
      nl = pending.indexOf("\n", start);
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending !== "") handle(pending);
  return issues;
}
