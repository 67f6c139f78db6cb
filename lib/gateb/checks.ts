/**
 * Gate B admissibility: a bare and an equipped
 * test run may be compared only when they differ in the skill alone.
 *
 * @module
 */

import type { Issue } from "../core/issue.ts";
import type { Attempt, EpisodeKey } from "../core/types.ts";
import { episodeLabel } from "../core/types.ts";
import type { LoadedRun } from "../load/read_run.ts";
import { PAIRING_PROVENANCE_FIELDS, provenanceDifferences } from "../validate/provenance.ts";
import { plannedEpisodes } from "../validate/plan.ts";
import { attemptProvenanceIssues, indexCompleted, rewardIssues } from "../validate/run_checks.ts";
import { join } from "node:path";

/**
 * Manifest fields that must be equal between the bare and the equipped
 * run: the same list as bare vs masked in a gate (split and plan size,
 * checkpoint, model, endpoint, decoding, whether seeds were sent, base
 * prompt, environment, runtime (protocol and max_steps), reward version and
 * components). Only the skill may differ.
 */
export const GATE_B_FIELDS: readonly string[] = PAIRING_PROVENANCE_FIELDS;

/** The paired completed attempts of an admissible comparison. */
export interface GateBPairs {
  /** Planned episodes in plan order (bare manifest's task order, then sample id). */
  readonly episodes: readonly EpisodeKey[];
  readonly bare: readonly Attempt[];
  readonly equipped: readonly Attempt[];
}

/**
 * Checks that two loaded runs form a valid Gate B comparison and pairs
 * their completed attempts by (split, task_id, sample_id).
 *
 * Refuses (issues) when: the bare run is not skill-free (`arm` bare, bank
 * `NoSkills`, no selected skills, nothing injected: `bare_not_skill_free`);
 * the equipped run is not `arm: "equipped"` with a non-empty skill, or its
 * `max_skills` would truncate the selected skills, or the task plans differ
 * (`comparison_invalid`); any field of {@linkcode GATE_B_FIELDS} differs, or
 * a per-attempt provenance disagrees with its manifest
 * (`provenance_mismatch`); an equipped attempt injected something other
 * than the selected skills (`injection_mismatch`); coverage, duplicate and
 * reward checks as in gate validation.
 *
 * @param bare The bare test run.
 * @param equipped The equipped test run.
 * @returns Issues, and the pairs when there is none.
 *
 * @example
 * ```ts
 * import { GATE_B_FIELDS } from "./checks.ts";
 * import { ok } from "node:assert/strict";
 * ok(GATE_B_FIELDS.includes("provenance.runtime"));
 * ```
 */
export function gateBIssues(
  bare: LoadedRun,
  equipped: LoadedRun,
): { issues: Issue[]; pairs: GateBPairs | null } {
  const issues: Issue[] = [];
  const bm = bare.manifest, em = equipped.manifest;
  const bareFile = join(bare.dir, "manifest.json");
  const eqFile = join(equipped.dir, "manifest.json");
  if (bm.arm !== "bare" || bm.skill.bank !== "NoSkills" || bm.skill.selected_skills.length > 0) {
    issues.push({
      code: "bare_not_skill_free",
      file: bareFile,
      message:
        `the bare side must be a skill-free run (arm bare, bank NoSkills, no selected skills); ` +
        `got arm ${bm.arm}, bank ${bm.skill.bank}, ${bm.skill.selected_skills.length} selected skill(s)`,
    });
  }
  if (em.arm !== "equipped") {
    issues.push({
      code: "comparison_invalid",
      file: eqFile,
      path: "arm",
      message:
        `the equipped side must be an equipped run (the whole frozen selected skill), got arm ${em.arm}`,
    });
  }
  const selected = em.skill.selected_skills;
  if (selected.length === 0) {
    issues.push({
      code: "comparison_invalid",
      file: eqFile,
      path: "skill.selected_skills",
      message:
        "the equipped run lists no selected skills, so it does not differ from bare in the skill",
    });
  }
  const maxSkills = em.skill.max_skills;
  if (maxSkills !== null && maxSkills < selected.length) {
    issues.push({
      code: "comparison_invalid",
      file: eqFile,
      path: "skill.max_skills",
      message: `max_skills ${maxSkills} is below the ${selected.length} selected chunks, ` +
        `so the runtime would silently truncate the skill; it must be null or >= ${selected.length}`,
    });
  }
  issues.push(
    ...provenanceDifferences(bm, em, GATE_B_FIELDS, { labels: ["bare", "equipped"], file: eqFile }),
  );
  const bareTasks = [...bm.tasks].sort(), eqTasks = [...em.tasks].sort();
  if (bareTasks.join("\n") !== eqTasks.join("\n")) {
    const onlyBare = bareTasks.filter((t) => !em.tasks.includes(t));
    const onlyEq = eqTasks.filter((t) => !bm.tasks.includes(t));
    issues.push({
      code: "comparison_invalid",
      file: eqFile,
      path: "tasks",
      message: `the two runs plan different tasks (${onlyBare.length} only in bare, e.g. ${
        onlyBare.slice(0, 3).join(", ") || "-"
      }; ${onlyEq.length} only in equipped, e.g. ${onlyEq.slice(0, 3).join(", ") || "-"})`,
    });
  }
  const bareTraces = join(bare.dir, "traces.jsonl"), eqTraces = join(equipped.dir, "traces.jsonl");
  issues.push(...attemptProvenanceIssues(bare.attempts, bm.provenance, bareTraces));
  issues.push(...attemptProvenanceIssues(equipped.attempts, em.provenance, eqTraces));
  const planned = plannedEpisodes(bm);
  const b = indexCompleted(bare.attempts, planned, bareTraces, "bare");
  const e = indexCompleted(equipped.attempts, plannedEpisodes(em), eqTraces, "equipped");
  issues.push(...b.issues, ...e.issues);
  const components = bm.provenance.reward.components;
  const want = [...selected].sort().join("\n");
  for (const a of b.completed.values()) {
    issues.push(...rewardIssues(a, components, bareTraces));
  }
  for (const a of e.completed.values()) {
    issues.push(...rewardIssues(a, components, eqTraces));
  }
  for (const a of bare.attempts) {
    if (a.injected.length > 0) {
      issues.push({
        code: "bare_not_skill_free",
        file: bareTraces,
        line: a.line,
        episode: episodeLabel(a),
        message: `a bare attempt injected ${a.injected.join(", ")}`,
      });
    }
  }
  for (const a of equipped.attempts) {
    if (a.status === "completed" && [...a.injected].sort().join("\n") !== want) {
      issues.push({
        code: "injection_mismatch",
        file: eqTraces,
        line: a.line,
        episode: episodeLabel(a),
        message: `the equipped attempt injected [${
          a.injected.join(", ")
        }], not the selected skills`,
      });
    }
  }
  if (issues.length > 0) return { issues, pairs: null };
  return {
    issues,
    pairs: {
      episodes: planned,
      bare: planned.map((p) => b.completed.get(p)!),
      equipped: planned.map((p) => e.completed.get(p)!),
    },
  };
}

/**
 * Checks that the equipped run carries exactly the frozen Gate A selection
 * (Gate B injects the whole selected skill S_0). Compared as
 * sets; the order of injection is the runtime's business.
 *
 * @param equipped The equipped run.
 * @param selected `selected` of the Gate A selection.json.
 * @param file The selection.json path, named in issues.
 * @returns `comparison_invalid` issues (empty when equal).
 *
 * @example
 * ```ts
 * import { selectionMismatch } from "./checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * // deno-lint-ignore no-explicit-any
 * const run = { dir: "e", manifest: { skill: { selected_skills: ["a", "b"] } } } as any;
 * deepEqual(selectionMismatch(run, ["b", "a"], "s.json"), []);
 * deepEqual(selectionMismatch(run, ["a"], "s.json").map((i) => i.code), ["comparison_invalid"]);
 * ```
 */
export function selectionMismatch(
  equipped: LoadedRun,
  selected: readonly string[],
  file: string,
): Issue[] {
  const have = new Set(equipped.manifest.skill.selected_skills);
  const want = new Set(selected);
  const missing = [...want].filter((v) => !have.has(v));
  const extra = [...have].filter((v) => !want.has(v));
  if (missing.length === 0 && extra.length === 0) return [];
  return [{
    code: "comparison_invalid",
    file,
    path: "selected",
    message: `the equipped run does not carry the frozen selection: missing ${
      missing.join(", ") || "none"
    }; not selected but equipped ${extra.join(", ") || "none"}`,
  }];
}
