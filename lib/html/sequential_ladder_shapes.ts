/**
 * The parts of `sequential.json` (`gate sequential`) and
 * `ladder_result.json` (`gate ladder`) that the HTML report reads, as zod
 * schemas of exactly the fields the shared tables and figures of
 * lib/sequential and lib/ladder use (unknown fields are accepted), so a
 * hand-edited file is refused with its field path instead of crashing a
 * figure.
 *
 * @module
 */
import { z } from "zod";

const num = z.number();
const numOrNull = z.number().nullable();
const path = z.array(numOrNull);

const SequentialVersionSchema = z.looseObject({
  estimate: path,
  se: path,
  cs_lower: path,
  cs_upper: path,
  e_value: path,
  running_lower: path,
  running_upper: path,
  running_max_e: path,
  sign_certified_at: numOrNull,
  sign: z.union([z.literal(1), z.literal(-1)]).nullable(),
  rollouts_saved: numOrNull,
  fixed_n_interval: z.tuple([num, num]).nullable(),
});

/**
 * `sequential.json`, the fields read by `sequentialTables`, `funnelFigure`,
 * `selectionFigure` and the report's overview.
 *
 * @example
 * ```ts
 * import { SequentialFileSchema } from "./sequential_ladder_shapes.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = SequentialFileSchema.safeParse({ format: "gatelab.sequential/v1", alpha: 0.05 });
 * deepEqual(r.success, false);
 * ```
 */
export const SequentialFileSchema = z.looseObject({
  format: z.literal("gatelab.sequential/v1"),
  order: z.string(),
  seed: numOrNull,
  alpha: num,
  phi: num,
  every: num,
  estimator: z.looseObject({ name: z.string(), formula: z.string() }),
  conventions: z.record(z.string(), z.union([z.string(), num])),
  rows: num,
  columns: num,
  budget_k: num,
  rollouts_total: num,
  gates: z.array(z.looseObject({ gate_id: z.string() })),
  metrics: z.record(
    z.string(),
    z.looseObject({
      n: z.array(num),
      selection: z.array(z.array(z.string()).nullable()),
      selection_stable_from: numOrNull,
      selection_rollouts_saved: numOrNull,
      versions: z.record(z.string(), SequentialVersionSchema),
    }),
  ),
});

/** Parsed sequential.json (the fields the report reads). */
export type SequentialFile = z.infer<typeof SequentialFileSchema>;

const LADDER_EXIT = z.enum(["infra_abort", "accept", "reject", "budget_exhausted"]);
const CountsSchema = z.object({ W: num, L: num, E: num, INFRA: num, units: num });

/**
 * `ladder_result.json`, the fields read by `ladderTable`, `ladderFigure`
 * and the report's card.
 *
 * @example
 * ```ts
 * import { LadderResultFileSchema } from "./sequential_ladder_shapes.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = LadderResultFileSchema.safeParse({ format: "gatelab.ladder-result/v1", task_type: "counting" });
 * deepEqual(r.success, false);
 * ```
 */
export const LadderResultFileSchema = z.looseObject({
  format: z.literal("gatelab.ladder-result/v1"),
  task_type: z.string(),
  alpha: num,
  threshold: num,
  n_max: num,
  block_size: num,
  infra_max_rate: num,
  prompts_version: z.string(),
  base_skill_sha256: z.string(),
  cand_skill_sha256: z.string(),
  exit: LADDER_EXIT.nullable(),
  exit_block: numOrNull,
  counts: CountsSchema,
  blocks: z.array(CountsSchema.extend({ block: num, e_accept: num, e_reject: num })),
  blocks_after_exit: num,
  recorded_decision: LADDER_EXIT.nullable(),
  prefill: z.object({
    base_units: num,
    served: num,
    saved: num,
    cache_entries: num,
    baseline_infra: num,
  }).nullable(),
});

/** Parsed ladder_result.json (the fields the report reads). */
export type LadderResultFile = z.infer<typeof LadderResultFileSchema>;
