import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import { type GatePlan, GatePlanSchema } from "../contract/gate.ts";
import { type AssignmentLine, AssignmentLineSchema } from "../contract/assignment.ts";
import { isAssignmentLineFast } from "../contract/assignment_fast.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "./jsonl.ts";
import { readJsonFile, stringPool } from "./read_run.ts";
import { readFailure } from "./regular_file.ts";

/** One assignment with its one-based line in assignments.jsonl. */
export type LoadedAssignment = AssignmentLine & { readonly line: number };

/** The gate plan files of a gate directory (the masked run is read separately). */
export interface GateParts {
  readonly dir: string;
  /** Parsed gate.json, or null when it could not be read or parsed. */
  readonly plan: GatePlan | null;
  /** Every assignment line that passed the schema, in file order. */
  readonly assignments: readonly LoadedAssignment[];
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
 *   assignments, `sha256` null): for SQL queries that need no gate table.
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
  options: { readonly assignments?: boolean } = {},
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
  const assignments: LoadedAssignment[] = [];
  if (options.assignments === false) return { dir, plan, assignments, sha256: null, issues };
  try {
    const { intern } = stringPool();
    await forEachJsonlLine(assignmentsPath, (value, line) => {
      let a: AssignmentLine;
      if (isAssignmentLineFast(value)) a = value;
      else {
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
      // The line's object is this reader's own (fresh from JSON.parse or zod): its version ids
      // are swapped for one shared copy in place (keys are interned by the engine already).
      const slots = a.slots;
      for (const key in slots) {
        const version = slots[key]!;
        if (version !== null) slots[key] = intern(version);
      }
      assignments.push({ ...a, split: intern(a.split), task_id: intern(a.task_id), line });
    }, {
      onBytes: (chunk) => hash.update(chunk),
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
  return { dir, plan, assignments, sha256: bytesOk ? hash.digest("hex") : null, issues };
}
