/**
 * The one line a command prints about checks it could not make (fields an
 * import did not record), shared by `gate analyze` and `gate heldout`.
 *
 * @module
 */
import { formatIssue, type Issue } from "../core/issue.ts";
import { printError } from "../core/terminal_text.ts";
import { SEEDS_NOT_COMPARED } from "../validate/validate_gates.ts";

/**
 * The one line about checks that could not be made (fields an import did
 * not record): how many, which fields, where the list is.
 *
 * @param warnings The `provenance_unrecorded` warnings.
 * @param out The output directory whose validation.json lists them.
 * @returns The line.
 *
 * @example
 * ```ts
 * import { unverifiableLine } from "./unverifiable.ts";
 * import { equal } from "node:assert/strict";
 * const w = { code: "provenance_unrecorded", message: "m", path: "provenance.seed" } as const;
 * equal(unverifiableLine([w], "out"), "unverifiable: 1 check(s) not made, fields not recorded " +
 *   "(provenance.seed); listed as provenance_unrecorded warnings in out/validation.json");
 * ```
 */
export function unverifiableLine(warnings: readonly Issue[], out: string): string {
  const fields = warnings.map((w) => w.path ?? "?");
  const shown = fields.slice(0, 4).join(", ") + (fields.length > 4 ? ", ..." : "");
  // Job seeds recorded while send_seed is not: validation's send_seed warning says what to do.
  const seeds = warnings.some((w) =>
    w.path === "provenance.send_seed" && w.message.endsWith(SEEDS_NOT_COMPARED)
  );
  return `unverifiable: ${warnings.length} check(s) not made, fields not recorded (${shown}); ` +
    (seeds ? `${SEEDS_NOT_COMPARED}; ` : "") +
    `listed as provenance_unrecorded warnings in ${out}/validation.json`;
}

/**
 * Prints validation's warnings to stderr, one per line, except the fields an
 * import did not record: those are returned, for {@linkcode unverifiableLine}.
 *
 * @param warnings The warnings of every validated input.
 * @returns The `provenance_unrecorded` warnings, in order.
 */
export function printWarnings(warnings: readonly Issue[]): Issue[] {
  for (const w of warnings) {
    if (w.code !== "provenance_unrecorded") printError(formatIssue(w));
  }
  return warnings.filter((w) => w.code === "provenance_unrecorded");
}
