import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import { type GatePlan, GatePlanSchema } from "../contract/gate.ts";
import { type AssignmentLine, AssignmentLineSchema } from "../contract/assignment.ts";
import { isAssignmentLineFast } from "../contract/assignment_fast.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "./jsonl.ts";
import { readJsonFile } from "./read_run.ts";
import { readFailure } from "./regular_file.ts";
import { AssignmentTable, type LoadedAssignment } from "./assignment_table.ts";
import type { StringIds } from "./columns.ts";
import type { ProgressCallback } from "../core/progress.ts";

export type { LoadedAssignment } from "./assignment_table.ts";

/** The gate plan files of a gate directory (the masked run is read separately). */
export interface GateParts {
  readonly dir: string;
  /** Parsed gate.json, or null when it could not be read or parsed. */
  readonly plan: GatePlan | null;
  /** Every assignment line that passed the schema, in file order (built from `table` when first read). */
  readonly assignments: readonly LoadedAssignment[];
  /** The same lines as columns (what validation reads); absent when built otherwise. */
  readonly table?: AssignmentTable;
  /** sha256 over gate.json bytes followed by assignments.jsonl bytes, or null. */
  readonly sha256: string | null;
  readonly issues: readonly Issue[];
}

/**
 * Reads `gate.json` and `assignments.jsonl` of a gate directory
 * (docs/FORMAT.md section 2), collecting io, parse and schema issues.
 *
 * @param dir Gate directory.
 * @param options `assignments: false` reads gate.json only (no
 *   assignments, `sha256` null): for SQL queries that need no gate table;
 *   `ids`, string ids shared with the other files read; `onProgress`,
 *   progress over assignments.jsonl's bytes.
 * @returns What could be read, and the issues.
 *
 * @example
 * ```ts
 * import { readGateParts } from "./read_gate.ts";
 * import { deepEqual } from "node:assert/strict";
 * const g = await readGateParts("/nonexistent-gate");
 * deepEqual([g.plan, g.issues.length], [null, 2]);
 * ```
 */
export async function readGateParts(
  dir: string,
  options: {
    readonly assignments?: boolean;
    readonly ids?: StringIds;
    readonly onProgress?: (file: string) => ProgressCallback | undefined;
  } = {},
): Promise<GateParts> {
  const issues: Issue[] = [];
  const planPath = join(dir, "gate.json");
  const assignmentsPath = join(dir, "assignments.jsonl");
  let plan: GatePlan | null = null;
  const hash = createHash("sha256");
  const json = await readJsonFile(planPath);
  let bytesOk = json.ok;
  if (!json.ok) issues.push(json.issue);
  else {
    hash.update(json.bytes);
    const parsed = parseWithSchema(GatePlanSchema, json.value, { file: planPath });
    if (parsed.ok) plan = parsed.value;
    else issues.push(...parsed.issues);
  }
  if (options.assignments === false) return { dir, plan, assignments: [], sha256: null, issues };
  // Columns, not an object per line: the objects are built only when `assignments` is read.
  const table = new AssignmentTable(options.ids);
  let size = 0, read = 0;
  if (options.onProgress) {
    try {
      size = (await Deno.stat(assignmentsPath)).size;
    } catch { /* reported by the read below */ }
  }
  const progress = size > 0 ? options.onProgress?.(assignmentsPath) : undefined;
  try {
    await forEachJsonlLine(assignmentsPath, (value, line) => {
      let a: AssignmentLine, plain = true;
      if (isAssignmentLineFast(value)) a = value;
      else {
        plain = false;
        const parsed = parseWithSchema(AssignmentLineSchema, value, {
          file: assignmentsPath,
          line,
        });
        if (!parsed.ok) {
          issues.push(...parsed.issues);
          return;
        }
        a = parsed.value;
      }
      table.pushLine(a, line, plain);
    }, {
      onBytes: (chunk) => {
        hash.update(chunk);
        if (progress) progress(read = Math.min(size, read + chunk.length), size);
      },
      label: assignmentsPath,
      onIssue: (i) => issues.push(i),
    });
  } catch (error) {
    bytesOk = false;
    issues.push({
      code: "io_error",
      message: `cannot read file: ${readFailure(error)}`,
      file: assignmentsPath,
    });
  }
  table.trim();
  let assignments: readonly LoadedAssignment[] | undefined;
  return {
    dir,
    plan,
    get assignments() {
      return assignments ??= table.toArray();
    },
    table,
    sha256: bytesOk ? hash.digest("hex") : null,
    issues,
  };
}
