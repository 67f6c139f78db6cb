/**
 * Pairing codes an exploratory analysis may waive: those that describe a
 * difference of conditions between the bare and masked runs. Coverage,
 * duplicates, injections, rewards and identifiability are never waived.
 *
 * @example
 * ```ts
 * import { WAIVABLE_CODES } from "./waivable.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([...WAIVABLE_CODES], ["provenance_mismatch", "seed_mismatch"]);
 * ```
 *
 * @module
 */
export const WAIVABLE_CODES = ["provenance_mismatch", "seed_mismatch"] as const;
