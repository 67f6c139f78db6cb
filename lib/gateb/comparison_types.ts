/**
 * The shapes of comparison.json (Gate B), derived from its zod schema in
 * lib/contract/outputs/comparison.ts (the schema is the one declaration).
 * Their own file so that the builders of the document
 * (compared_quantity.ts, document.ts) and compare.ts, which
 * calls them, import the types without a cycle.
 *
 * @module
 */

import type { z } from "npm:zod@4.6.7";
import type { ComparedQuantitySchema, ComparisonSchema } from "../contract/outputs/comparison.ts";

/**
 * One compared quantity: the arm means, equipped - bare and the paired
 * task-bootstrap percentile intervals (null without bootstrap); undefined
 * numbers are null (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type ComparedQuantity = z.output<typeof ComparedQuantitySchema>;

/**
 * comparison.json, the document `gate compare` writes and `compareRuns`
 * returns (zod-inferred: its schema and docs/FORMAT.md document it).
 *
 * @ignore
 */
export type ComparisonDocument = z.output<typeof ComparisonSchema>;

/**
 * comparison.json under its earlier name: the same type as {@linkcode ComparisonDocument}.
 *
 * @ignore
 */
export type ComparisonOutput = ComparisonDocument;
