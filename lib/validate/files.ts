/**
 * The file `gate validate` writes into `--out`, ok or not.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationReport } from "./document.ts";

/**
 * The bytes of every file of a gate validation: `validation.json`, which is
 * validate's result whether the gate passed or not. Pure: nothing is written.
 *
 * @param report What `validationReport` built.
 * @returns File name to contents.
 *
 * @example
 * ```ts
 * import { validateFiles } from "./files.ts";
 * import { validationReport } from "./document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const files = validateFiles(validationReport({ ok: false, issues: [{ code: "seed_mismatch", message: "x" }],
 *   counts: { seed_mismatch: 1 }, dataset: null, inputs: [] }, "gate validate g --out o"));
 * deepEqual(Object.keys(files), ["validation.json"]);
 * ok(String(files["validation.json"]).includes('"counts": {\n    "seed_mismatch": 1\n  }'));
 * ```
 */
export function validateFiles(report: ValidationReport): Record<string, FileValue> {
  return { "validation.json": toJsonText(report) };
}
