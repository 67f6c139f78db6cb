import { type Issue, IssueList } from "./issue.ts";
import { generatorMeta } from "./meta.ts";

/** The `validation.json` document every command writes on input issues (docs/FORMAT.md, Extensions). */
export interface ValidationDocument {
  readonly format: "gatelab.validation/v1";
  readonly ok: boolean;
  readonly issues: readonly Issue[];
  /** Issues per code, including those past the per-code cap. */
  readonly counts: Record<string, number>;
  readonly generator: { tool: string; version: string; command: string };
  /** The command's inputs (directories or files, with sha256 where read). */
  readonly inputs: readonly unknown[];
}

/**
 * Builds a `validation.json` document: the issues (capped per code by
 * {@linkcode IssueList}), counts per code, generator and inputs. No
 * timestamps, so the same inputs and command give the same bytes.
 *
 * @param issues The issues found, as a list or an already capped {@linkcode IssueList}.
 * @param command The command line (recorded as `generator.command`).
 * @param inputs The inputs, recorded as given.
 * @returns The JSON-ready document; `ok` is true only without issues.
 *
 * @example
 * ```ts
 * import { validationDocument } from "./validation_document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const doc = validationDocument([{ code: "parse_error", message: "bad", file: "a.jsonl", line: 2 }], "gate study x");
 * deepEqual([doc.ok, doc.counts, doc.generator.command], [false, { parse_error: 1 }, "gate study x"]);
 * ```
 */
export function validationDocument(
  issues: readonly Issue[] | IssueList,
  command: string,
  inputs: readonly unknown[] = [],
): ValidationDocument {
  let list: IssueList;
  if (issues instanceof IssueList) list = issues;
  else {
    list = new IssueList();
    list.addAll(issues);
  }
  const kept = list.toArray();
  return {
    format: "gatelab.validation/v1",
    // Warnings (issues a command was told to record without failing) leave ok true.
    ok: !list.hasErrors,
    issues: kept,
    counts: list.counts(),
    generator: generatorMeta(command),
    inputs,
  };
}
