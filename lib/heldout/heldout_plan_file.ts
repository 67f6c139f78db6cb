import type { Result } from "../core/issue.ts";
import { type HeldoutPlan, parseHeldoutPlan } from "./heldout.ts";

/**
 * Reads and checks a held-out plan file (`gatelab.heldout-plan/v1`):
 * `io_error` when it cannot be read, `plan_invalid` when it is not JSON or
 * a field is wrong (see {@linkcode parseHeldoutPlan}).
 *
 * @param file Path of the plan JSON.
 * @returns The plan with defaults filled, or the issues.
 *
 * @example
 * ```ts
 * import { readHeldoutPlan } from "./heldout_plan_file.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = await readHeldoutPlan("data/plans/heldout-kfold5.json");
 * deepEqual(plan.ok && [plan.value.scheme, plan.value.folds, plan.value.repeats], ["kfold", 5, 20]);
 * deepEqual((await readHeldoutPlan("no/such/plan.json")).issues.map((i) => i.code), ["io_error"]);
 * ```
 */
export async function readHeldoutPlan(file: string): Promise<Result<HeldoutPlan>> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    return {
      ok: false,
      issues: [{
        code: "io_error",
        file,
        message: `cannot read the plan (${(error as Error).message})`,
      }],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      issues: [{
        code: "plan_invalid",
        file,
        message: `the plan is not valid JSON (${(error as Error).message})`,
      }],
    };
  }
  return parseHeldoutPlan(value, file);
}
