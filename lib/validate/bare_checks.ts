import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import { episodeLabel } from "../core/types.ts";
import type { RunManifest } from "../contract/manifest.ts";
import { plannedEpisodes, type Plans } from "./plan.ts";
import { completedRunChecks } from "./completed_run_checks.ts";
import type { CompletedAttempts } from "./completed_attempts.ts";
import { type Attempts, attemptTable } from "./run_checks.ts";

/** A run whose manifest parsed: its directory, manifest and readable attempts. */
export interface ParsedRun {
  readonly dir: string;
  readonly manifest: RunManifest;
  /** The attempts in file order: objects, or the reader's columns. */
  readonly attempts: Attempts;
}

/**
 * The checks of the bare run on its own: skill-free (`bare_not_skill_free`:
 * arm `bare`, skill bank `NoSkills`, no selected skill, no attempt that
 * injected a version), then coverage, rewards and per-attempt provenance
 * (see {@linkcode completedRunChecks}).
 *
 * @param bare The bare run.
 * @param plans The validation's plans, shared with its gates' masked runs (a plan of its own when not given).
 * @returns The issues in that order, and the completed attempt per episode key.
 *
 * @example
 * ```ts
 * import { bareRunChecks } from "./bare_checks.ts";
 * import { RunManifestSchema } from "../contract/manifest.ts";
 * import { deepEqual } from "node:assert/strict";
 * const manifest = RunManifestSchema.parse({
 *   format: "gatelab.run/v1", run_id: "b", arm: "bare", split: "val", repeats: 1, tasks: ["t"],
 *   provenance: { checkpoint_id: "c", model: "m", endpoint: "e", sampling: { temperature: 0, top_p: 1, max_tokens: 9 }, send_seed: false, base_prompt_sha256: "b".repeat(64), environment: { name: "n", version: "1", config_sha256: "e".repeat(64) }, runtime: { protocol: "p", max_steps: 1 }, reward: { version: "r", components: ["r_strict"] } },
 *   skill: { bank: "NoSkills", selected_skills: [], max_skills: null },
 * });
 * const attempt = { split: "val", task_id: "t", sample_id: 0, attempt: 0, status: "completed" as const, reward: 1, rewards: { r_strict: 1 }, success: null, injected: ["c1"], job_seed: null, steps: null, tokens: null, error: null, provenance: null, line: 1 };
 * const r = bareRunChecks({ dir: "bare", manifest, attempts: [attempt] });
 * deepEqual([r.issues.map((i) => [i.code, i.file, i.line]), r.completed.size], [[["bare_not_skill_free", "bare/traces.jsonl", 1]], 1]);
 * ```
 */
export function bareRunChecks(
  bare: ParsedRun,
  plans?: Plans,
): { issues: Issue[]; completed: CompletedAttempts } {
  const manifestFile = join(bare.dir, "manifest.json");
  const tracesFile = join(bare.dir, "traces.jsonl");
  const issues = bareSkillIssues(bare.manifest, manifestFile);
  const attempts = attemptTable(bare.attempts);
  for (let i = 0; i < attempts.length; i++) {
    if (attempts.injectedCount(i) > 0) {
      const a = attempts.get(i);
      issues.push({
        code: "bare_not_skill_free",
        message: `bare attempt injected versions [${
          a.injected.join(", ")
        }]; a bare run carries no skill`,
        file: tracesFile,
        line: a.line,
        path: "injected",
        episode: episodeLabel(a),
      });
    }
  }
  const run = completedRunChecks(
    attempts,
    bare.manifest,
    plans?.of(bare.manifest) ?? plannedEpisodes(bare.manifest),
    tracesFile,
    "bare",
  );
  return { issues: [...issues, ...run.issues], completed: run.completed };
}

function bareSkillIssues(manifest: RunManifest, file: string): Issue[] {
  const out: Issue[] = [];
  if (manifest.arm !== "bare") {
    out.push({
      code: "bare_not_skill_free",
      message:
        `the baseline run has arm "${manifest.arm}"; only a bare run counts (a masked run with all-zero masks is not bare)`,
      file,
      path: "arm",
    });
  }
  if (manifest.skill.bank !== "NoSkills") {
    out.push({
      code: "bare_not_skill_free",
      message: `the bare run's skill bank is "${manifest.skill.bank}", expected "NoSkills"`,
      file,
      path: "skill.bank",
    });
  }
  if (manifest.skill.selected_skills.length > 0) {
    out.push({
      code: "bare_not_skill_free",
      message: `the bare run selected skills [${
        manifest.skill.selected_skills.join(", ")
      }], expected []`,
      file,
      path: "skill.selected_skills",
    });
  }
  return out;
}
