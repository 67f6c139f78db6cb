/**
 * Exploratory re-analysis of gates that fail strict pairing: the waivable
 * codes and the legacy intercept comparison.
 *
 * @module
 */
export { type LegacyComparison, legacyComparison } from "./legacy_intercept.ts";
export { legacyComparisonTable } from "./table.ts";
export { WAIVABLE_CODES } from "./waivable.ts";
