import type { Issue } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import type { GateValidation } from "./validate_gates.ts";
import type { ValidationInput } from "./read_inputs.ts";

/** The `validation.json` document of a gate validation: the shared document with typed inputs. */
export interface ValidationReport extends ValidationDocument {
  readonly inputs: readonly ValidationInput[];
  /** Present only when there were warnings (`cache_corrupt`); they never make `ok` false. */
  readonly warnings?: readonly Issue[];
}

/**
 * The `validation.json` object of a validation: format, ok, issues,
 * counts per code, generator and the inputs with their sha256. Contains no
 * timestamps, so the same inputs and command give the same bytes.
 *
 * @param v The validation.
 * @param command The command line that ran it (recorded as `generator.command`).
 * @returns The report object (serialise with `toJsonText`).
 *
 * @example
 * ```ts
 * import { validationReport } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const r = validationReport({ ok: true, issues: [], counts: {}, dataset: null, inputs: [] }, "gate validate g");
 * deepEqual([r.format, r.ok, r.generator.command], ["gatelab.validation/v1", true, "gate validate g"]);
 * ```
 */
export function validationReport(v: GateValidation, command: string): ValidationReport {
  return {
    format: "gatelab.validation/v1",
    ok: v.ok,
    issues: v.issues,
    counts: v.counts,
    generator: generatorMeta(command),
    inputs: v.inputs,
    ...(v.warnings !== undefined && v.warnings.length > 0 ? { warnings: v.warnings } : {}),
  };
}
