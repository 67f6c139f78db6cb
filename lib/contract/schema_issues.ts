import type { Issue } from "../core/issue.ts";
import type { z } from "npm:zod@4.6.7";
import { plainMessage } from "./plain_issue.ts";
import { fieldPurpose } from "./purposes.ts";

/** Where a value came from, for {@linkcode parseWithSchema}. */
export interface SchemaSource {
  /** File the value was read from, as given by the user. */
  readonly file: string;
  /** One-based line of a JSONL file. */
  readonly line?: number;
}

/**
 * Parses a value with a zod schema and turns every zod issue into a
 * `schema_error` {@linkcode Issue} carrying file, line and dotted field path,
 * its message in plain words ({@linkcode plainMessage}); a missing field of
 * the data contract says what it is for (lib/contract/purposes.ts).
 *
 * @param schema The zod schema.
 * @param value The parsed JSON value.
 * @param source File and line of the value.
 * @returns The typed value, or the issues.
 *
 * @example
 * ```ts
 * import { parseWithSchema } from "./schema_issues.ts";
 * import { z } from "npm:zod@4.6.7";
 * import { deepEqual } from "node:assert/strict";
 * const r = parseWithSchema(z.object({ a: z.object({ b: z.number() }) }), { a: { b: "x" } }, { file: "f.jsonl", line: 7 });
 * deepEqual(r.ok ? null : [r.issues[0]!.code, r.issues[0]!.line, r.issues[0]!.path, r.issues[0]!.message],
 *   ["schema_error", 7, "a.b", 'must be a number; got "x"']);
 * ```
 */
export function parseWithSchema<T>(
  schema: z.ZodType<T>,
  value: unknown,
  source: SchemaSource,
): { ok: true; value: T } | { ok: false; issues: Issue[] } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((zi): Issue => {
    const path = zi.path.map(String).join(".");
    const message = plainMessage(zi, value, fieldPurpose(schema, zi.path));
    const base = { code: "schema_error" as const, message, file: source.file, path };
    return source.line === undefined ? base : { ...base, line: source.line };
  });
  return { ok: false, issues };
}
