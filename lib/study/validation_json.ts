import { type Issue, IssueList } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import type { InputFile } from "./load.ts";

/**
 * Builds a `validation.json` document (docs/FORMAT.md, Extensions): the
 * issues (capped per code by {@linkcode IssueList}), counts per code,
 * generator and inputs.
 *
 * @param issues The issues found.
 * @param options Command line and inputs.
 * @returns The JSON-ready document; `ok` is true only without issues.
 *
 * @example
 * ```ts
 * import { validationDocument } from "./validation_json.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = validationDocument([{ code: "parse_error", message: "bad", file: "a.jsonl", line: 2 }], { command: "study x", inputs: [] });
 * deepEqual([doc.ok, doc.counts], [false, { parse_error: 1 }]);
 * ```
 */
export function validationDocument(
  issues: readonly Issue[],
  options: { command: string; inputs: readonly InputFile[] },
) {
  const list = new IssueList();
  list.addAll(issues);
  return {
    format: "gatelab.validation/v1",
    ok: list.ok,
    issues: list.toArray(),
    counts: list.counts(),
    generator: generatorMeta(options.command),
    inputs: options.inputs,
  };
}
