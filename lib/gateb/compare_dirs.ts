import type { Issue, Result } from "../core/issue.ts";
import { readRun } from "../load/read_run.ts";
import { GATE_B_FIELDS, gateBIssues } from "./checks.ts";
import { type CompareOptions, compareRuns, type ComparisonOutput } from "./compare.ts";

/**
 * Gate B from two run directories, as `gate compare` does it without
 * `--selection`: read both runs, refuse unless they differ only in the skill
 * (`gateBIssues`), then compare with the paired task bootstrap
 * (`compareRuns`, checked fields `GATE_B_FIELDS`).
 *
 * @param bareDir The bare run on the test split.
 * @param equippedDir The run with the frozen skill.
 * @param options Draws, seed, progress (see `compareRuns`).
 * @returns comparison.json's document, or every issue found.
 *
 * @example
 * ```ts
 * import { compareRunDirs } from "./compare_dirs.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = await compareRunDirs("data/demo/gate-b/bare-test", "data/demo/gate-b/equipped-test", { draws: 0 });
 * deepEqual(r.ok && [r.value.n_tasks, r.value.selected_skills.length], [300, 10]);
 * deepEqual(r.ok && r.value.metrics.reward?.difference?.toFixed(4), "0.4455");
 * ```
 */
export async function compareRunDirs(
  bareDir: string,
  equippedDir: string,
  options: Omit<CompareOptions, "checkedFields"> = {},
): Promise<Result<ComparisonOutput>> {
  const [bare, equipped] = await Promise.all([readRun(bareDir), readRun(equippedDir)]);
  const issues: Issue[] = [...bare.issues, ...equipped.issues];
  if (!bare.ok || !equipped.ok) return { ok: false, issues };
  const checked = gateBIssues(bare.value, equipped.value);
  issues.push(...checked.issues);
  if (checked.pairs === null || issues.length > 0) return { ok: false, issues };
  const value = compareRuns(bare.value, equipped.value, checked.pairs, {
    ...options,
    checkedFields: GATE_B_FIELDS,
  });
  return { ok: true, value, issues: [] };
}
