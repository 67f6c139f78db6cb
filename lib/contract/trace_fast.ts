import type { TraceLine } from "./trace.ts";
import { isCount, isNonEmptyString, isObject } from "./_fast_predicates.ts";

const optional = (v: unknown, test: (x: unknown) => boolean) =>
  v === undefined || v === null || test(v);
const isFiniteNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/**
 * A fast structural check of one trace line that accepts only values
 * {@linkcode TraceLineSchema} also accepts (it is never more lenient). The
 * loader uses it to skip zod on the common, valid line and falls back to
 * zod, for its precise issues, whenever this returns false.
 *
 * @param value A parsed JSON object.
 * @returns Whether the line certainly satisfies the schema.
 *
 * @example
 * ```ts
 * import { isTraceLineFast } from "./trace_fast.ts";
 * import { deepEqual } from "node:assert/strict";
 * const line = { split: "val", task_id: "t", sample_id: 0, attempt: 0, status: "completed", reward: 1, rewards: { r_strict: 1 }, injected: [] };
 * deepEqual([isTraceLineFast(line), isTraceLineFast({ ...line, injected: undefined })], [true, false]);
 * ```
 */
export function isTraceLineFast(value: Record<string, unknown>): value is TraceLine {
  const v = value;
  if (!isNonEmptyString(v["split"]) || !isNonEmptyString(v["task_id"])) return false;
  if (!isCount(v["sample_id"]) || !isCount(v["attempt"])) return false;
  const status = v["status"];
  if (status !== "completed" && status !== "failed") return false;
  const injected = v["injected"];
  if (injected === undefined) {
    if (status === "completed") return false;
  } else if (!Array.isArray(injected) || !injected.every((x) => typeof x === "string")) {
    return false;
  }
  if (!optional(v["reward"], isFiniteNumber)) return false;
  if (v["rewards"] !== undefined && !isObject(v["rewards"])) return false;
  if (!optional(v["success"], (x) => typeof x === "boolean")) return false;
  if (!optional(v["job_seed"], (x) => Number.isSafeInteger(x))) return false;
  if (!optional(v["provenance"], isObject)) return false;
  if (!optional(v["steps"], isFiniteNumber)) return false;
  if (!optional(v["error"], (x) => typeof x === "string")) return false;
  const tokens = v["tokens"];
  if (tokens !== undefined && tokens !== null) {
    if (
      !isObject(tokens) || !isFiniteNumber(tokens["prompt"]) ||
      !isFiniteNumber(tokens["completion"])
    ) return false;
  }
  return true;
}
