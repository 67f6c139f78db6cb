import type { z } from "npm:zod@4.6.7";
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "./jsonl.ts";
import { readJsonFile } from "./read_run.ts";

/** One validated JSONL record and its one-based line number. */
export interface JsonlRecord<T> {
  /** The parsed record. */
  readonly value: T;
  /** Its 1-based line number in the file. */
  readonly line: number;
}

/** Result of {@linkcode readJsonlRecords}. */
export interface JsonlRecords<T> {
  /** Valid records in file order. */
  readonly records: JsonlRecord<T>[];
  /** `io_error`, `parse_error` and `schema_error` issues, with file and line. */
  readonly issues: Issue[];
  /** sha256 of the file bytes (empty when the file could not be read). */
  readonly sha256: string;
}

/**
 * Reads a JSONL file (through lib/load's line reader) and validates every
 * line with a zod schema: an unparsable line is a `parse_error`, a line that
 * does not fit gives one `schema_error` per zod issue with its field path,
 * and a file that cannot be read is an `io_error`. All lines are checked
 * before returning; issues are collected, not thrown.
 *
 * @param path File to read.
 * @param schema zod schema of one line.
 * @param label File name used in issues.
 * @returns Records, issues and the file's sha256.
 *
 * @example
 * ```ts
 * import { readJsonlRecords } from "./read_jsonl.ts";
 * import { z } from "npm:zod@4.6.7";
 * import { deepEqual } from "node:assert/strict";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, '{"a":1}\n\n{"a":"x"}\nnot json\n');
 * const r = await readJsonlRecords(path, z.object({ a: z.number() }), "f.jsonl");
 * deepEqual(r.records, [{ value: { a: 1 }, line: 1 }]);
 * deepEqual(r.issues.map((i) => [i.code, i.line]), [["schema_error", 3], ["parse_error", 4]]);
 * await Deno.remove(path);
 * ```
 */
export async function readJsonlRecords<T>(
  path: string,
  schema: z.ZodType<T>,
  label: string = path,
): Promise<JsonlRecords<T>> {
  const records: JsonlRecord<T>[] = [];
  const schemaIssues: Issue[] = [];
  const chunks: Uint8Array[] = [];
  let parseIssues: Issue[];
  try {
    parseIssues = await forEachJsonlLine(path, (value, line) => {
      const parsed = parseWithSchema(schema, value, { file: label, line });
      if (parsed.ok) records.push({ value: parsed.value, line });
      else schemaIssues.push(...parsed.issues);
    }, { label, onBytes: (chunk) => chunks.push(chunk.slice()) });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      records: [],
      issues: [{ code: "io_error", message: `Cannot read file: ${why}`, file: label }],
      sha256: "",
    };
  }
  const issues = [...parseIssues, ...schemaIssues].sort((x, y) => (x.line ?? 0) - (y.line ?? 0));
  return { records, issues, sha256: sha256Hex(...chunks) };
}

/**
 * Reads a JSON file with lib/load's `readJsonFile` and validates it with a
 * zod schema: `io_error`, `parse_error` or one `schema_error` per zod issue.
 *
 * @param path File to read.
 * @param schema zod schema of the document.
 * @returns The value (or `undefined`), the issues and the file's sha256.
 */
export async function readValidatedJson<T>(
  path: string,
  schema: z.ZodType<T>,
): Promise<{ value: T | undefined; issues: Issue[]; sha256: string }> {
  const read = await readJsonFile(path);
  if (!read.ok) return { value: undefined, issues: [read.issue], sha256: "" };
  const sha256 = sha256Hex(read.bytes);
  const parsed = parseWithSchema(schema, read.value, { file: path });
  return parsed.ok
    ? { value: parsed.value, issues: [], sha256 }
    : { value: undefined, issues: parsed.issues, sha256 };
}
