/**
 * The content-addressed baseline cache of ladder gates, prefilled from a
 * seed baseline run of the base arm: how many base-arm units it would have
 * served and how many base-arm inferences that saves.
 *
 * @module
 */
import { foldUnit } from "./fold_unit.ts";
import type { BaselineLine, UnitLine } from "./schema.ts";
import type { z } from "npm:zod@4.6.7";
import type { PrefillSchema } from "../contract/outputs/ladder.ts";

/**
 * The cache key of a base-arm unit: `task_type|sha256(base skill text)|prompts_version|unit_id`.
 * A changed skill text (another hash) or prompts version gives another key, so it misses.
 *
 * @example
 * ```ts
 * import { baselineCacheKey } from "./prefill.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(baselineCacheKey("count", "ab", "v1", "u7"), "count|ab|v1|u7");
 * ```
 */
export function baselineCacheKey(
  taskType: string,
  skillSha256: string,
  promptsVersion: string,
  unitId: string,
): string {
  return `${taskType}|${skillSha256}|${promptsVersion}|${unitId}`;
}

/** What a prefilled cache would have done for a ladder's base arm (ladder_result.json's `prefill`). */
export type PrefillSummary = z.output<typeof PrefillSchema>;

/**
 * Builds the cache from a baseline run and counts the base-arm units it
 * would have served.
 *
 * @param baseline Baseline lines (any task types).
 * @param base The ladder's base-arm unit lines.
 * @param ladder task_type, base_skill_sha256 and prompts_version of the ladder.
 * @returns The summary.
 *
 * @example
 * ```ts
 * import { prefillSummary } from "./prefill.ts";
 * import { deepEqual } from "node:assert/strict";
 * const ok = [{ question_id: "q", correct: true, stop_reason: "stop" }];
 * const bad = [{ question_id: "q", correct: null, stop_reason: "error" }];
 * const baseline = [
 *   { task_type: "t", unit_id: "u1", skill_sha256: "h", prompts_version: "v1", members: ok },
 *   { task_type: "t", unit_id: "u2", skill_sha256: "h", prompts_version: "v1", members: bad },
 *   { task_type: "t", unit_id: "u3", skill_sha256: "old", prompts_version: "v1", members: ok },
 * ];
 * const base = ["u1", "u2", "u3"].map((unit_id, i) => ({ block: 0, unit_id, arm: "base" as const, members: ok, line: i + 1 }));
 * const s = prefillSummary(baseline, base, { task_type: "t", base_skill_sha256: "h", prompts_version: "v1" });
 * deepEqual(s, { base_units: 3, served: 1, saved: 1, cache_entries: 2, baseline_infra: 1 });
 * ```
 */
export function prefillSummary(
  baseline: readonly BaselineLine[],
  base: readonly UnitLine[],
  ladder: { task_type: string; base_skill_sha256: string; prompts_version: string },
): PrefillSummary {
  const cache = new Map<string, boolean>();
  let infra = 0;
  for (const b of baseline) {
    const verdict = foldUnit(b.members);
    if (verdict === "INFRA") {
      infra++;
      continue;
    }
    cache.set(baselineCacheKey(b.task_type, b.skill_sha256, b.prompts_version, b.unit_id), verdict);
  }
  let served = 0, saved = 0;
  for (const u of base) {
    const key = baselineCacheKey(
      ladder.task_type,
      ladder.base_skill_sha256,
      ladder.prompts_version,
      u.unit_id,
    );
    if (cache.has(key)) {
      served++;
      saved += u.members.length;
    }
  }
  return {
    base_units: base.length,
    served,
    saved,
    cache_entries: cache.size,
    baseline_infra: infra,
  };
}
