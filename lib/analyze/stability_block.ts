/**
 * The selection-stability block of contributions.json read back, apart
 * from the figures so that the tables that show it load no plot library.
 *
 * @module
 */
import { type StabilityJson, StabilitySchema } from "../contract/outputs/contributions.ts";

/**
 * The selection-stability block of an analysis' bootstrap
 * (`contributions.bootstrap.stability`), checked, or null when the
 * bootstrap did not run or holds none.
 *
 * @param contributions contributions.json or lib/analyze's output.
 * @returns The stability block, or null.
 *
 * @example
 * ```ts
 * import { bootstrapStability } from "./stability_block.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(bootstrapStability({ bootstrap: null }), null);
 * ```
 */
export function bootstrapStability(
  contributions: { readonly bootstrap?: unknown },
): StabilityJson | null {
  const block = contributions.bootstrap;
  if (!block || typeof block !== "object") return null;
  const parsed = StabilitySchema.safeParse((block as Record<string, unknown>)["stability"]);
  return parsed.success ? parsed.data : null;
}
