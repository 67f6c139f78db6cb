/**
 * Building blocks shared by the output schemas: the generator block every
 * output carries, run references, issues, numbers that may be undefined
 * (null, never NaN) and readonly lists (so the in-memory outputs of lib/
 * with readonly arrays satisfy the schemas' input types).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/** A readonly array schema. */
export const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();
/** A finite number or null (undefined statistics are null, never NaN). */
export const numOrNull = z.number().nullable();
/** A `[lo, hi]` interval. */
export const pair = z.tuple([z.number(), z.number()]).readonly();
/** An object whose fields are not part of the contract (conventions, definitions): kept, not checked. */
export const opaque = z.record(z.string(), z.unknown());

/** `generator` of every output JSON (docs/FORMAT.md, Extensions). */
export const GeneratorSchema = z.object({
  tool: z.string(),
  version: z.string(),
  command: z.string(),
});

/** A run reference: run_id, run_dir and the sha256 over its manifest and traces bytes. */
export const RunRefSchema = z.object({
  run_id: z.string(),
  run_dir: z.string(),
  sha256: z.string(),
});

/** The fixed estimator block of the paired-delta outputs. */
export const EstimatorSchema = z.object({
  name: z.string(),
  formula: z.string(),
  intercept: z.number(),
});

/**
 * The estimator block itself, one declaration for every output that carries
 * it (contributions.json, heldout.json, power.json, sequential.json): the
 * paired-delta, no-intercept OLS; no intercept is ever estimated.
 *
 * @example
 * ```ts
 * import { ESTIMATOR, EstimatorSchema } from "./common.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(EstimatorSchema.parse(ESTIMATOR), { name: "paired_delta_ols_no_intercept", formula: "R_i - B_i = C_i' beta + e_i", intercept: 0 });
 * ```
 */
export const ESTIMATOR = {
  name: "paired_delta_ols_no_intercept",
  formula: "R_i - B_i = C_i' beta + e_i",
  intercept: 0.0,
} as const satisfies z.input<typeof EstimatorSchema>;

/** One issue as written in validation.json and history.json. */
export const IssueSchema = z.object({
  code: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  path: z.string().optional(),
  episode: z.string().optional(),
  severity: z.literal("warning").optional(),
});

/** A gate of a pooled analysis: id, directory and masked run. */
export const GateRunSchema = z.object({
  gate_id: z.string(),
  gate_dir: z.string(),
  masked: RunRefSchema,
});

/**
 * A reader's view of an output object: the fields `R` it needs and the
 * fields `O` it uses when present. Functions that read part of an output
 * (a table, a figure) take a view, so their inputs keep the schema's field
 * types while a notebook may pass a partial document.
 */
export type View<T, R extends keyof T, O extends keyof T = never> =
  & Pick<T, R>
  & Partial<Pick<T, O>>;
