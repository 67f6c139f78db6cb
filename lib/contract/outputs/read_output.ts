/**
 * Reading a gatelab output file back (`gate report`, `plan-power --from`,
 * `gate history`, `gate ledger-audit --history`, `gate compare
 * --selection`): bytes, JSON, then the file's schema. A file that
 * does not match its schema is an `output_schema_mismatch` issue naming
 * the file and the field path.
 *
 * @module
 */
import { plainMessage } from "../plain_issue.ts";
import type { z } from "npm:zod@4.6.7";
import type { Issue } from "../../core/issue.ts";

/**
 * Checks a parsed output value against its schema; every mismatch is an
 * `output_schema_mismatch` issue with file and dotted field path.
 *
 * @param schema The output's schema (lib/contract/outputs).
 * @param value The parsed JSON value.
 * @param file The file it was read from.
 * @returns The typed value (the schema's output; write the original value, not this), or the issues.
 *
 * @example
 * ```ts
 * import { checkOutput } from "./read_output.ts";
 * import { SelectionSchema } from "./selection.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = checkOutput(SelectionSchema, { format: "gatelab.selection/v1" }, "out/selection.json");
 * deepEqual(r.ok ? null : [r.issues[0]!.code, r.issues[0]!.file, r.issues[0]!.path],
 *   ["output_schema_mismatch", "out/selection.json", "metric"]);
 * ```
 */
export function checkOutput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
): { ok: true; value: z.output<S> } | { ok: false; issues: Issue[] } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((zi): Issue => ({
      code: "output_schema_mismatch",
      message: `does not match the gatelab output schema of this file: ${plainMessage(zi, value)}`,
      file,
      path: zi.path.map(String).join("."),
    })),
  };
}

/** A read output: its bytes, the parsed JSON as written, and the typed value. */
export interface ReadOutput<T> {
  /** The file's bytes (for its sha256). */
  readonly bytes: Uint8Array;
  /** The JSON value as written (key order and numbers exactly as in the file). */
  readonly raw: unknown;
  /** The value as its schema parsed it (unknown fields dropped). */
  readonly value: T;
}

/**
 * Reads one output file and checks it against its schema.
 *
 * @param file Path of the file.
 * @param schema Its schema (lib/contract/outputs).
 * @returns The output, null when the file does not exist, or issues:
 *   `io_error`, `parse_error` (invalid JSON), `output_schema_mismatch`.
 *
 * @example
 * ```ts
 * import { readOutput } from "./read_output.ts";
 * import { SelectionSchema } from "./selection.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/selection.json`, '{"format": "gatelab.selection/v1", "metric": 1}');
 * const r = await readOutput(`${dir}/selection.json`, SelectionSchema);
 * deepEqual(r.ok ? null : r.issues.map((i) => i.path).slice(0, 2), ["metric", "budget_k"]);
 * deepEqual(await readOutput(`${dir}/none.json`, SelectionSchema), { ok: true, output: null });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readOutput<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<
  { ok: true; output: ReadOutput<z.output<S>> | null } | { ok: false; issues: Issue[] }
> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { ok: true, output: null };
    return {
      ok: false,
      issues: [{
        code: "io_error",
        message: `Cannot read file: ${(error as Error).message}`,
        file,
      }],
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    return {
      ok: false,
      issues: [{
        code: "parse_error",
        message: `Cannot parse JSON: ${(error as Error).message}`,
        file,
      }],
    };
  }
  const checked = checkOutput(schema, raw, file);
  return checked.ok ? { ok: true, output: { bytes, raw, value: checked.value } } : checked;
}
