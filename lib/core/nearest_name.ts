/**
 * The known name nearest to a mistyped one, for "did you mean" hints: a
 * known name the given one starts (from 3 characters), else the smallest
 * Levenshtein distance, within max(2, length / 3) edits; null when none is
 * that near. The CLI's option reader and `gate import`'s column checks both use it.
 *
 * @param name The name given.
 * @param known The names it may have meant.
 * @returns The nearest known name, or null.
 *
 * @example
 * ```ts
 * import { nearestName } from "./nearest_name.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(nearestName("taskid", ["task_id", "arm", "reward"]), "task_id");
 * deepEqual(nearestName("zzz", ["task_id", "arm"]), null);
 * ```
 */
export function nearestName(name: string, known: readonly string[]): string | null {
  let best: string | null = null, bestDistance = Infinity;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 3 ? 0.5 : editDistance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[b.length]!;
}
