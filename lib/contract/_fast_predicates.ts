/**
 * Predicates shared by the fast structural line checks (trace_fast.ts,
 * assignment_fast.ts); each accepts only what the matching zod schema
 * accepts.
 *
 * @module
 */

/** A plain object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
/** A string of length at least 1. */
export const isNonEmptyString = (v: unknown): v is string => typeof v === "string" && v.length > 0;
/** A non-negative safe integer. */
export const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
