import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Issue, Result } from "../core/issue.ts";
import type { Attempt } from "../core/types.ts";
import { type RunManifest, RunManifestSchema } from "../contract/manifest.ts";
import { type TraceLine, TraceLineSchema } from "../contract/trace.ts";
import { AttemptTable } from "./attempt_table.ts";
import type { StringIds } from "./columns.ts";
import { isTraceLineFast } from "../contract/trace_fast.ts";
import { parseWithSchema } from "../contract/schema_issues.ts";
import { forEachJsonlLine } from "./jsonl.ts";
import type { ProgressCallback } from "../core/progress.ts";
import { parseJsonText } from "./json_text.ts";
import { readFailure, readRegularFile } from "./regular_file.ts";

/** A run directory read into memory (docs/FORMAT.md section 1). */
export interface LoadedRun {
  /** The directory as given. */
  readonly dir: string;
  /** The parsed manifest.json. */
  readonly manifest: RunManifest;
  /** sha256 over the manifest.json bytes followed by the traces.jsonl bytes. */
  readonly sha256: string;
  /** Every readable attempt, in file order. */
  readonly attempts: readonly Attempt[];
}

/**
 * What {@linkcode loadRunParts} could read: the manifest when it parsed,
 * every attempt whose line passed the schema, and all issues. Validation
 * uses this to keep checking a run that has some bad lines.
 */
export interface RunParts {
  readonly dir: string;
  readonly manifest: RunManifest | null;
  /** sha256 of manifest then traces bytes, or null when a file could not be read. */
  readonly sha256: string | null;
  /** Every readable attempt as an object, in file order (built from `table` when first read). */
  readonly attempts: readonly Attempt[];
  /**
   * The same attempts as columns (what validation reads), when the run was
   * parsed by {@linkcode loadRunParts}; absent for runs built otherwise.
   */
  readonly table?: AttemptTable;
  readonly issues: readonly Issue[];
}

/**
 * Reads a JSON file: the value, or an io_error (also for anything that is
 * not a regular file) or parse_error issue (invalid UTF-8, invalid JSON, a
 * duplicate key, nesting deeper than `MAX_JSON_DEPTH`).
 */
export async function readJsonFile(
  path: string,
): Promise<{ ok: true; value: unknown; bytes: Uint8Array } | { ok: false; issue: Issue }> {
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    return {
      ok: false,
      issue: { code: "io_error", message: `cannot read file: ${readFailure(error)}`, file: path },
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return {
      ok: false,
      issue: { code: "parse_error", message: "file is not valid UTF-8", file: path },
    };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const issue: Issue = {
      code: "parse_error",
      message: `file ${parsed.why}`,
      file: path,
      ...(parsed.path ? { path: parsed.path } : {}),
    };
    return { ok: false, issue };
  }
  return { ok: true, value: parsed.value, bytes };
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * A manifest checked against {@linkcode RunManifestSchema}, the same value
 * and issues as `parseWithSchema` gives, faster for a long plan: a `tasks`
 * list of distinct non-empty strings (what its schema accepts) is checked
 * in one loop and the rest of the manifest by the schema, instead of the
 * schema's check per task (about 0.6 s per manifest of a million tasks).
 *
 * @param value The parsed manifest.json.
 * @param file The file named in issues.
 * @returns The manifest, or its issues.
 *
 * @example
 * ```ts
 * import { parseRunManifest } from "./read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = parseRunManifest({ tasks: ["a", "a"] }, "m.json");
 * deepEqual(r.ok ? [] : r.issues.some((i) => i.path === "tasks.1"), true);
 * ```
 */
export function parseRunManifest(
  value: unknown,
  file: string,
): ReturnType<typeof parseWithSchema<RunManifest>> {
  const tasks = value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as { tasks?: unknown }).tasks
    : undefined;
  if (!distinctTaskIds(tasks)) return parseWithSchema(RunManifestSchema, value, { file });
  const parsed = parseWithSchema(RunManifestSchema, { ...(value as object), tasks: [] }, { file });
  // The list as read (this reader's own array), where the schema would give a copy of it.
  if (parsed.ok) (parsed.value as { tasks: string[] }).tasks = tasks;
  return parsed;
}

/** Whether `tasks` is a list of distinct non-empty strings. */
function distinctTaskIds(tasks: unknown): tasks is string[] {
  if (!Array.isArray(tasks)) return false;
  const seen = new Set<string>();
  for (const t of tasks) {
    if (typeof t !== "string" || t.length === 0 || seen.has(t)) return false;
    seen.add(t);
  }
  return true;
}

/**
 * One copy of each distinct string: a trace or assignment line repeats the
 * split, task ids and version ids of other lines, and each parsed line
 * would otherwise keep its own copies for as long as the run is held.
 * `internAll` replaces an array's strings in place and returns it (an
 * empty array becomes one shared frozen empty array).
 */
export function stringPool(): {
  intern: (s: string) => string;
  internAll: (xs: readonly string[]) => readonly string[];
} {
  const pool = new Map<string, string>();
  const intern = (s: string): string => {
    const seen = pool.get(s);
    if (seen !== undefined) return seen;
    pool.set(s, s);
    return s;
  };
  // In place: the arrays are freshly parsed and owned by the reader.
  const internAll = (xs: readonly string[]): readonly string[] => {
    if (xs.length === 0) return NONE;
    const out = xs as string[];
    for (let i = 0; i < out.length; i++) out[i] = intern(out[i]!);
    return out;
  };
  return { intern, internAll };
}

/**
 * Reads a run directory as far as possible, collecting every issue
 * (unreadable files: `io_error`; bad JSON: `parse_error`; schema
 * violations: `schema_error`, with file, line and field path). Reward
 * components that are not finite numbers are left out of
 * `Attempt.rewards`; validation reports them as `reward_incomplete`.
 *
 * @param dir Run directory holding manifest.json and traces.jsonl.
 * @returns The readable parts and the issues.
 */
export async function loadRunParts(
  dir: string,
  options: {
    readonly onProgress?: (file: string) => ProgressCallback | undefined;
    /** String ids shared with the other files read (a new set when not given). */
    readonly ids?: StringIds;
  } = {},
): Promise<RunParts> {
  const issues: Issue[] = [];
  const manifestPath = join(dir, "manifest.json");
  const tracesPath = join(dir, "traces.jsonl");
  let manifest: RunManifest | null = null;
  let manifestBytes: Uint8Array | null = null;
  const json = await readJsonFile(manifestPath);
  if (!json.ok) issues.push(json.issue);
  else {
    manifestBytes = json.bytes;
    const parsed = parseRunManifest(json.value, manifestPath);
    if (parsed.ok) manifest = parsed.value;
    else issues.push(...parsed.issues);
    if (manifest !== null && options.ids !== undefined) holdTaskIds(manifest, options.ids);
  }

  const hash = createHash("sha256");
  if (manifestBytes) hash.update(manifestBytes);
  // Columns, not an object per line: the objects are built only when `attempts` is read.
  const table = new AttemptTable(options.ids);
  let tracesRead = true;
  // Progress over traces.jsonl's bytes, when the caller asks for it (a file of some size).
  let size = 0, read = 0;
  try {
    size = (await Deno.stat(tracesPath)).size;
  } catch { /* reported by the read below */ }
  const progress = size > 0 ? options.onProgress?.(tracesPath) : undefined;
  try {
    await forEachJsonlLine(tracesPath, (value, line) => {
      let t: TraceLine;
      if (isTraceLineFast(value)) t = value;
      else {
        const parsed = parseWithSchema(TraceLineSchema, value, { file: tracesPath, line });
        if (!parsed.ok) {
          issues.push(...parsed.issues);
          return;
        }
        t = parsed.value;
      }
      table.pushLine(t, line);
    }, {
      onBytes: (chunk) => {
        hash.update(chunk);
        if (progress) progress(read = Math.min(size, read + chunk.length), size);
      },
      label: tracesPath,
      onIssue: (i) => issues.push(i),
    });
  } catch (error) {
    tracesRead = false;
    issues.push({
      code: "io_error",
      message: `cannot read file: ${readFailure(error)}`,
      file: tracesPath,
    });
  }
  const sha256 = manifestBytes && tracesRead ? hash.digest("hex") : null;
  return runPartsOf({ dir, manifest, sha256, issues }, table.trim());
}

/**
 * Puts a manifest's task ids into `ids`, in place: the same strings as the
 * traces' and the other runs', held once.
 *
 * @param manifest The parsed manifest (its `tasks` rewritten).
 * @param ids The string ids of the files read.
 */
export function holdTaskIds(manifest: RunManifest, ids: StringIds): void {
  const tasks = manifest.tasks as string[];
  for (let i = 0; i < tasks.length; i++) tasks[i] = ids.strings[ids.id(tasks[i]!)]!;
}

/**
 * A run's parts around its attempt table, `attempts` built from the table
 * the first time it is read.
 *
 * @param parts The run's directory, manifest, sha256 and issues.
 * @param table Its attempts as columns.
 * @returns The parts.
 */
export function runPartsOf(
  parts: Omit<RunParts, "attempts" | "table">,
  table: AttemptTable,
): RunParts {
  let attempts: readonly Attempt[] | undefined;
  return {
    ...parts,
    get attempts() {
      return attempts ??= table.toArray();
    },
    table,
  };
}

/**
 * Reads an evaluator run directory (manifest.json + traces.jsonl,
 * docs/FORMAT.md section 1), streaming the traces line by line.
 *
 * @param dir Run directory.
 * @returns The loaded run, or every parse/schema/io issue found.
 *
 * @example
 * ```ts
 * import { readRun } from "./read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await readRun("/nonexistent-run");
 * deepEqual(r.ok, false);
 * deepEqual(r.issues.map((i) => i.code), ["io_error", "io_error"]);
 * ```
 */
export async function readRun(dir: string): Promise<Result<LoadedRun>> {
  const parts = await loadRunParts(dir);
  if (parts.issues.length > 0 || parts.manifest === null || parts.sha256 === null) {
    return { ok: false, issues: parts.issues };
  }
  return {
    ok: true,
    value: { dir, manifest: parts.manifest, sha256: parts.sha256, attempts: parts.attempts },
    issues: [],
  };
}
