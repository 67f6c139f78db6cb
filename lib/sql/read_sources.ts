import { normalize } from "node:path";
import type { Issue } from "../core/issue.ts";
import { type LoadedRun, loadRunParts } from "../load/read_run.ts";
import { readGateParts } from "../load/read_gate.ts";
import { resolveBareDir } from "../load/bare_dir.ts";
import type { SqlGate } from "./gate_tables.ts";
import type { SqlSources } from "./load_tables.ts";
import { readSqlOutput, type SqlOutput, sqlSourceKind } from "./output_tables.ts";
import { SQL_COLUMN_KINDS } from "./sql_schema.ts";
import { cachedLoadRunParts } from "../cache/cached_read_run.ts";

/** Options of {@linkcode readSqlSources}. */
export interface ReadSourcesOptions {
  /**
   * The tables that will be loaded (`loadIntoDuckDb`'s `only`): runs and
   * gates are not read when none of their tables is among them.
   * @default {every table}
   */
  readonly only?: ReadonlySet<string>;
  /**
   * Read runs through the run cache in this directory (lib/cache
   * `cachedLoadRunParts`: a clean run's parsed tables are stored on a miss
   * and reused, checked against their sha256, on a hit).
   * @default {no cache}
   */
  readonly cacheDir?: string;
  /**
   * The tables an analysis output brings, in load order (`gate sql`: the
   * analysis bundle's `tidy`, from `BUNDLES`).
   * @default {OUTPUT_TABLES}
   */
  readonly analysisTables?: readonly string[];
}

/**
 * Reads gate, run and output directories for SQL: a directory with
 * `gate.json` is a gate (its plan, assignments, masked run and bare run are
 * read); one with `manifest.json` a run; one with `contributions.json` an
 * analysis output (`readSqlOutput`: its tidy tables, or for an older
 * output tables built from its JSON, with a note in `notes`); any other is
 * read as a run (and its problems become issues). Each run is read once even when several gates share it.
 * Readable parts are kept even when some lines are bad (SQL is for
 * exploring, validation is for refusing); every problem is returned as an
 * issue.
 *
 * @param dirs Gate, run or analysis output directories.
 * @param options Which tables will be loaded.
 * @returns The sources, the issues and the notes.
 * @example The demo's Gate A: its bare and masked runs, one gate
 * ```ts
 * import { readSqlSources } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sources = await readSqlSources(["data/demo/ckpt-a/gate-a"]);
 * deepEqual([sources.runs.length, sources.gates.length, sources.issues.length], [2, 1, 0]);
 * ```
 */
export async function readSqlSources(
  dirs: readonly string[],
  options: ReadSourcesOptions = {},
): Promise<SqlSources & { outputs: SqlOutput[]; issues: Issue[]; notes: string[] }> {
  const issues: Issue[] = [];
  const notes: string[] = [];
  const runs: LoadedRun[] = [];
  const gates: SqlGate[] = [];
  const outputs: SqlOutput[] = [];
  const only = options.only;
  const readRuns = only === undefined || Object.keys(SQL_COLUMN_KINDS).some((t) => only.has(t));
  const readAssignments = only === undefined || only.has("assignments");
  const seen = new Set<string>();
  const addRun = async (dir: string): Promise<string | null> => {
    const parts = options.cacheDir === undefined
      ? await loadRunParts(dir)
      : (await cachedLoadRunParts(dir, { cacheDir: options.cacheDir })).parts;
    issues.push(...parts.issues);
    if (!parts.manifest) return null;
    const key = normalize(dir);
    if (!seen.has(key)) {
      seen.add(key);
      runs.push({
        dir,
        manifest: parts.manifest,
        sha256: parts.sha256 ?? "",
        attempts: parts.attempts,
      });
    }
    return parts.manifest.run_id;
  };
  for (const dir of dirs) {
    const kind = await sqlSourceKind(dir);
    if (kind === "output") {
      const { output, note } = await readSqlOutput(dir, options.analysisTables);
      outputs.push(output);
      if (note !== null) notes.push(note);
      continue;
    }
    if (!readRuns) continue;
    if (kind !== "gate") {
      await addRun(dir);
      continue;
    }
    const gate = await readGateParts(dir, { assignments: readAssignments });
    issues.push(...gate.issues);
    const maskedRunId = await addRun(dir);
    if (gate.plan) {
      gates.push({
        dir,
        plan: gate.plan,
        assignments: gate.assignments,
        masked_run_id: maskedRunId,
      });
      const bareDir = resolveBareDir(dir, gate.plan.bare_run_dir);
      if (!seen.has(bareDir)) await addRun(bareDir);
    }
  }
  return { runs, gates, outputs, issues, notes };
}
