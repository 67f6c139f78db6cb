/**
 * Reads a study directory (docs/FORMAT.md section 3): `study.json`,
 * `slots.jsonl` and `attempts.jsonl`, with their sha256.
 *
 * @module
 */
import { join } from "node:path";
import type { Issue, Result } from "../core/issue.ts";
import type { StudyInput } from "./analyze.ts";
import { readJsonlRecords, readValidatedJson } from "../load/read_jsonl.ts";
import { attemptSchema, slotSchema, studyPlanSchema } from "./schema.ts";
import { slotKey, slotLabel } from "./_keys.ts";

/** An input file as recorded in outputs. */
export interface InputFile {
  /** Name of the file in the study directory. */
  readonly file: string;
  /** sha256 of its bytes. */
  readonly sha256: string;
}

/** A loaded study: the parsed input and the hashes of its files. */
export interface LoadedStudy {
  /** The parsed plan, slots and attempts. */
  readonly input: StudyInput;
  /** The files read, with their hashes. */
  readonly inputs: readonly InputFile[];
}

/**
 * Loads and validates a study directory. Every problem is collected before
 * returning: `io_error` for unreadable files, `parse_error` and
 * `schema_error` with file and line, and `schema_error` for a slot planned
 * twice. A plan without `bootstrap` gets `DEFAULTS.draws` draws and `DEFAULTS.seed`.
 *
 * @param dir The study directory.
 * @returns The parsed study and input hashes, or the issues.
 *
 * @example A missing directory is an io_error
 * ```ts
 * import { loadStudyDir } from "./load.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await loadStudyDir("/nonexistent/study");
 * deepEqual(r.ok ? [] : [...new Set(r.issues.map((i) => i.code))], ["io_error"]);
 * ```
 * @example The demo study
 * ```ts
 * import { loadStudyDir, valueOrThrow } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { input } = valueOrThrow(await loadStudyDir("data/demo/study"), "study");
 * deepEqual([input.slots.length, input.attempts.length], [1440, 1453]);
 * deepEqual(input.plan.comparisons, [["M", "B"], ["M", "O"]]);
 * ```
 */
export async function loadStudyDir(dir: string): Promise<Result<LoadedStudy>> {
  const planFile = join(dir, "study.json");
  const slotsFile = join(dir, "slots.jsonl");
  const attemptsFile = join(dir, "attempts.jsonl");
  const [plan, slots, attempts] = await Promise.all([
    readValidatedJson(planFile, studyPlanSchema),
    readJsonlRecords(slotsFile, slotSchema),
    readJsonlRecords(attemptsFile, attemptSchema),
  ]);
  const issues: Issue[] = [...plan.issues, ...slots.issues, ...attempts.issues];
  const firstLine = new Map<string, number>();
  for (const { value, line } of slots.records) {
    const key = slotKey(value);
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, line);
    else {
      issues.push({
        code: "schema_error",
        message: `Cannot plan slot ${
          slotLabel(value)
        } twice: it is already planned on line ${first}`,
        file: slotsFile,
        line,
        episode: slotLabel(value),
      });
    }
  }
  if (issues.length > 0 || plan.value === undefined) return { ok: false, issues };
  return {
    ok: true,
    issues: [],
    value: {
      input: { plan: plan.value, slots: slots.records, attempts: attempts.records },
      inputs: [
        { file: "study.json", sha256: plan.sha256 },
        { file: "slots.jsonl", sha256: slots.sha256 },
        { file: "attempts.jsonl", sha256: attempts.sha256 },
      ],
    },
  };
}
