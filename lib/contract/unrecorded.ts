import type { z } from "npm:zod@4.6.7";

/**
 * Fields a run manifest or a gate plan may mark as not recorded (docs/FORMAT.md,
 * "Extensions": unrecorded provenance), each with the check that cannot be
 * made without it: what a recorded value would have caught. `gate import`
 * writes such a field as `null` and lists its dotted path in the file's
 * top-level `unrecorded` array instead of inventing a value; validation
 * reports one `provenance_unrecorded` warning per field.
 *
 * `rewards.r_strict` is special: the traces carry no `r_strict` component,
 * the manifest's reward components need not include it, and the
 * `reward == rewards.r_strict` check is not applicable (not passed).
 * `assignments` and `traces.injected` say that one of the two was derived
 * from the other (a table with only mask bits, or only injected ids), so an
 * injection that differed from the plan cannot be seen.
 */
export const UNRECORDED_FIELDS: Readonly<Record<string, string>> = {
  "provenance.checkpoint_id":
    "a baseline from another checkpoint cannot be detected, and gate history cannot name the step's checkpoint",
  "provenance.model": "a bare and a masked run served by different models cannot be detected",
  "provenance.endpoint": "runs served by different endpoints cannot be detected",
  "provenance.sampling":
    "different decoding parameters (temperature, top_p, max_tokens) between bare and masked runs cannot be detected",
  "provenance.send_seed":
    "whether job seeds were sent is unknown, so bare and masked job seeds are not compared (seed_mismatch cannot be detected)",
  "provenance.base_prompt_sha256":
    "a different base (skill-free) prompt between bare and masked runs cannot be detected",
  "provenance.environment":
    "a different environment (name, version, configuration) between bare and masked runs cannot be detected",
  "provenance.runtime":
    "a different action/runtime protocol or step limit between bare and masked runs cannot be detected",
  "provenance.reward.version":
    "bare and masked runs scored by different reward versions cannot be detected",
  "rewards.r_strict":
    "the reward == rewards.r_strict check is not applicable: the primary metric is not known to be the strict reward",
  tasks:
    "the plan is the tasks found in the rows: a planned task that never ran cannot be detected (coverage_incomplete)",
  assignments:
    "the planned masks were derived from the injected versions: an injection that differed from the plan cannot be detected (injection_mismatch)",
  "traces.injected":
    "the injected versions were derived from the planned masks: an injection that differed from the plan cannot be detected (injection_mismatch)",
  mask_seed: "the masks cannot be re-drawn to check that they are the planned random draw",
  p_present:
    "the planned presence probability is unknown (the design's own share of present columns is all there is)",
};

/** Manifest fields that may be `null` when listed in `unrecorded`. */
export const UNRECORDABLE_MANIFEST_FIELDS = [
  "provenance.checkpoint_id",
  "provenance.model",
  "provenance.endpoint",
  "provenance.sampling",
  "provenance.send_seed",
  "provenance.base_prompt_sha256",
  "provenance.environment",
  "provenance.runtime",
  "provenance.reward.version",
] as const;

/** Gate plan fields that may be `null` when listed in `unrecorded`. */
export const UNRECORDABLE_GATE_FIELDS = ["mask_seed", "p_present"] as const;

/**
 * The check a document's `unrecorded` list makes: every field in `fields`
 * whose value is `null` must be listed (otherwise it is the schema error it
 * always was), and every listed path must be a known field. Used by the
 * manifest and gate plan schemas.
 *
 * @param value The parsed document.
 * @param fields Fields that may be null when listed.
 * @param ctx zod's refinement context.
 */
export function checkUnrecorded(
  value: { readonly unrecorded?: readonly string[] | undefined },
  fields: readonly string[],
  ctx: z.core.$RefinementCtx,
): void {
  const listed = new Set(value.unrecorded ?? []);
  (value.unrecorded ?? []).forEach((path, i) => {
    if (!Object.hasOwn(UNRECORDED_FIELDS, path)) {
      ctx.addIssue({
        code: "custom",
        path: ["unrecorded", i],
        message: `"${path}" is not a field that can be unrecorded (known: ${
          Object.keys(UNRECORDED_FIELDS).join(", ")
        })`,
      });
    }
  });
  for (const field of fields) {
    if (readPath(value, field) === null && !listed.has(field)) {
      ctx.addIssue({
        code: "custom",
        path: field.split("."),
        message: `${field} is null; a field that was not recorded must be listed in "unrecorded"`,
      });
    }
  }
}

function readPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
