import { GatelabError, type Result } from "../core/issue.ts";

/**
 * The value of a {@linkcode Result}, or a thrown {@linkcode GatelabError}
 * listing its issues: for notebooks, where a failed step should stop the
 * run and show why.
 *
 * @param result A non-throwing entry point's result.
 * @param what What was being done, e.g. `Cannot load study`.
 * @returns The value.
 * @throws {GatelabError} When the result is not ok.
 *
 * @example
 * ```ts
 * import { valueOrThrow } from "./value_or_throw.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(valueOrThrow({ ok: true, value: 3, issues: [] }, "x"), 3);
 * throws(() => valueOrThrow({ ok: false, issues: [{ code: "io_error", message: "gone" }] }, "Cannot load"), /io_error  gone/);
 * ```
 */
export function valueOrThrow<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new GatelabError(what, result.issues);
  return result.value;
}
