import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import type { EpisodeKey } from "../core/types.ts";
import type { RunManifest } from "../contract/manifest.ts";
import type { ParsedRun } from "./bare_checks.ts";
import { completedRunChecks } from "./completed_run_checks.ts";
import { plannedEpisodes, type Plans } from "./plan.ts";
import { PAIRING_PROVENANCE_FIELDS, provenanceDifferences } from "./provenance.ts";
import type { CompletedAttempts } from "./completed_attempts.ts";

/**
 * The checks of a gate's masked run and its pairing with the bare run:
 * arm `masked` (`schema_error`), the pairing provenance fields equal to
 * the bare run's and the same task set (`provenance_mismatch`, only when
 * the bare manifest parsed), then coverage, rewards and per-attempt
 * provenance of the masked run ({@linkcode completedRunChecks}).
 *
 * @param masked The gate's masked run (its directory is the gate directory).
 * @param bareManifest The bare run's manifest, or null when it did not parse.
 * @param plans The validation's plans, shared with the bare run (a plan of its own when not given).
 * @returns The issues in that order, the masked run's planned episodes, and its completed attempt per episode key.
 *
 * @example
 * ```ts
 * import { pairingChecks } from "./pairing_checks.ts";
 * import { RunManifestSchema } from "../contract/manifest.ts";
 * import { deepEqual } from "node:assert/strict";
 * const manifest = (arm: string, tasks: string[]) => RunManifestSchema.parse({
 *   format: "gatelab.run/v1", run_id: arm, arm, split: "val", repeats: 1, tasks,
 *   provenance: { checkpoint_id: "c", model: "m", endpoint: "e", sampling: { temperature: 0, top_p: 1, max_tokens: 9 }, send_seed: false, base_prompt_sha256: "b".repeat(64), environment: { name: "n", version: "1", config_sha256: "e".repeat(64) }, runtime: { protocol: "p", max_steps: 1 }, reward: { version: "r", components: ["r_strict"] } },
 *   skill: { bank: "NoSkills", selected_skills: [], max_skills: null },
 * });
 * const r = pairingChecks({ dir: "gate", manifest: manifest("masked", ["t1"]), attempts: [] }, manifest("bare", ["t0"]));
 * deepEqual(r.issues.map((i) => [i.code, i.path ?? i.episode]), [["provenance_mismatch", "tasks"], ["coverage_incomplete", "val/t1/0"]]);
 * ```
 */
export function pairingChecks(
  masked: ParsedRun,
  bareManifest: RunManifest | null,
  plans?: Plans,
): { issues: Issue[]; planned: readonly EpisodeKey[]; completed: CompletedAttempts } {
  const manifest = masked.manifest;
  const manifestFile = join(masked.dir, "manifest.json");
  const issues: Issue[] = [];
  if (manifest.arm !== "masked") {
    issues.push({
      code: "schema_error",
      message: `a gate's run must have arm "masked", got "${manifest.arm}"`,
      file: manifestFile,
      path: "arm",
    });
  }
  if (bareManifest) {
    issues.push(
      ...provenanceDifferences(bareManifest, manifest, PAIRING_PROVENANCE_FIELDS, {
        labels: ["bare", "masked"],
        file: manifestFile,
      }),
    );
    const taskIssue = taskSetIssue(bareManifest.tasks, manifest.tasks, manifestFile);
    if (taskIssue) issues.push(taskIssue);
  }
  const planned = plans?.of(manifest) ?? plannedEpisodes(manifest);
  const run = completedRunChecks(
    masked.attempts,
    manifest,
    planned,
    join(masked.dir, "traces.jsonl"),
    "masked",
  );
  return { issues: [...issues, ...run.issues], planned, completed: run.completed };
}

function taskSetIssue(
  bareTasks: readonly string[],
  maskedTasks: readonly string[],
  file: string,
): Issue | null {
  const b = new Set(bareTasks), m = new Set(maskedTasks);
  const onlyBare = [...b].filter((t) => !m.has(t)).sort();
  const onlyMasked = [...m].filter((t) => !b.has(t)).sort();
  if (onlyBare.length === 0 && onlyMasked.length === 0) return null;
  const sample = (xs: string[]) => xs.slice(0, 3).join(", ") + (xs.length > 3 ? ", ..." : "");
  const parts: string[] = [];
  if (onlyBare.length > 0) parts.push(`${onlyBare.length} only in bare (${sample(onlyBare)})`);
  if (onlyMasked.length > 0) {
    parts.push(`${onlyMasked.length} only in masked (${sample(onlyMasked)})`);
  }
  return {
    code: "provenance_mismatch",
    message: `tasks differ: bare plans ${b.size} tasks, masked ${m.size}; ${parts.join("; ")}`,
    file,
    path: "tasks",
  };
}
