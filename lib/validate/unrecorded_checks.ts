import type { Issue } from "../core/issue.ts";
import { UNRECORDED_FIELDS } from "../contract/unrecorded.ts";

/** A document that may list unrecorded fields: a run manifest or a gate plan. */
export interface UnrecordedSource {
  /** The file, as given (manifest.json or gate.json). */
  readonly file: string;
  /** Its `unrecorded` list (absent: everything recorded). */
  readonly unrecorded?: readonly string[] | undefined;
}

/**
 * One `provenance_unrecorded` warning per field that some input does not
 * record (docs/FORMAT.md, Extensions: unrecorded provenance): the field,
 * the check that could not be made ("what it would have caught"), the first
 * file that lists it and how many list it. These never fail validation:
 * they say which of the strict checks were not verified.
 *
 * @param sources The manifests and gate plans read, in reading order.
 * @returns The warnings, in first-seen order.
 *
 * @example
 * ```ts
 * import { unrecordedWarnings } from "./unrecorded_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const w = unrecordedWarnings([
 *   { file: "bare/manifest.json", unrecorded: ["provenance.model"] },
 *   { file: "gate/manifest.json", unrecorded: ["provenance.model"] },
 *   { file: "gate/gate.json" },
 * ]);
 * deepEqual(w.map((i) => [i.code, i.file, i.path, i.severity]), [
 *   ["provenance_unrecorded", "bare/manifest.json", "provenance.model", "warning"],
 * ]);
 * deepEqual(w[0]!.message, "provenance.model not recorded (2 files): a bare and a masked run served by different models cannot be detected");
 * ```
 */
export function unrecordedWarnings(sources: readonly UnrecordedSource[]): Issue[] {
  const seen = new Map<string, { file: string; n: number }>();
  for (const s of sources) {
    for (const field of s.unrecorded ?? []) {
      const entry = seen.get(field);
      if (entry) entry.n++;
      else seen.set(field, { file: s.file, n: 1 });
    }
  }
  return [...seen].map(([field, { file, n }]) => ({
    code: "provenance_unrecorded",
    message: `${field} not recorded (${n} file${n === 1 ? "" : "s"}): ${
      UNRECORDED_FIELDS[field] ?? "unknown field"
    }`,
    file,
    path: field,
    severity: "warning",
  }));
}
