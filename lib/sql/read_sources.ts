import { join, normalize } from "node:path";
import type { Issue } from "../core/issue.ts";
import { type LoadedRun, loadRunParts } from "../load/read_run.ts";
import { readGateParts } from "../load/read_gate.ts";
import { resolveBareDir } from "../load/bare_dir.ts";
import type { SqlGate } from "./gate_tables.ts";
import type { SqlSources } from "./load_tables.ts";

/**
 * Reads gate and run directories for SQL: a directory with `gate.json` is
 * a gate (its plan, assignments, masked run and bare run are read); any
 * other is a run. Each run is read once even when several gates share it.
 * Readable parts are kept even when some lines are bad (SQL is for
 * exploring, validation is for refusing); every problem is returned as an
 * issue.
 *
 * @param dirs Gate or run directories.
 * @returns The sources and the issues.
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
): Promise<SqlSources & { issues: Issue[] }> {
  const issues: Issue[] = [];
  const runs: LoadedRun[] = [];
  const gates: SqlGate[] = [];
  const seen = new Set<string>();
  const addRun = async (dir: string): Promise<string | null> => {
    const parts = await loadRunParts(dir);
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
    let isGate = false;
    try {
      isGate = (await Deno.stat(join(dir, "gate.json"))).isFile;
    } catch {
      isGate = false;
    }
    if (!isGate) {
      await addRun(dir);
      continue;
    }
    const gate = await readGateParts(dir);
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
  return { runs, gates, issues };
}
