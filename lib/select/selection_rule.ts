/**
 * The selection rule of `compileSelection` and `selectVersions`
 * (lib/select/select.ts) as recorded in outputs (bootstrap stability,
 * held-out results): kept beside the rule so that a change to one shows
 * in the other.
 *
 * @example
 * ```ts
 * import { SELECTION_RULE } from "./selection_rule.ts";
 * import { ok } from "node:assert/strict";
 * ok(SELECTION_RULE.startsWith("REWRITE family winner first (highest alpha; a tie keeps old;"));
 * ```
 */
export const SELECTION_RULE =
  "REWRITE family winner first (highest alpha; a tie keeps old; a tie among new keeps the " +
  "smallest version_id), then strictly positive top-K of the survivors by alpha (ties by version_id)";
