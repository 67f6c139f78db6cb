import type { Table } from "../report/table.ts";
import type { ValidationInput } from "./read_inputs.ts";

/**
 * The inputs of a validation as a table: kind, directory, run id, the
 * first 12 hex digits of the sha256, and for runs whether their parsed data
 * came from the run cache (`hit`, `miss`, `off`; `-` for gate plan files,
 * which are always parsed).
 *
 * @param inputs `GateValidation.inputs` (or validation.json's `inputs`).
 * @returns A table for `toMarkdown`, `toLatex` or `displayTable`.
 *
 * @example
 * ```ts
 * import { validationInputsTable } from "./inputs_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = validationInputsTable([
 *   { dir: "g/../bare", kind: "bare", run_id: "b1", sha256: "0123456789abcdef", cache: "hit" },
 *   { dir: "g", kind: "gate", sha256: null },
 * ]);
 * deepEqual(t.rows, [["bare", "g/../bare", "b1", "0123456789ab", "hit"], ["gate", "g", "", "-", "-"]]);
 * ```
 */
export function validationInputsTable(inputs: readonly ValidationInput[]): Table {
  return {
    caption: "Inputs and run cache status",
    columns: [
      { label: "kind" },
      { label: "dir" },
      { label: "run_id" },
      { label: "sha256" },
      { label: "cache" },
    ],
    rows: inputs.map((i) => [
      i.kind,
      i.dir,
      i.run_id ?? "",
      i.sha256 === null ? "-" : i.sha256.slice(0, 12),
      i.cache ?? "-",
    ]),
    notes: [
      "cache: hit = parsed run read from the run cache, miss = parsed now, off = no cache; gate plan files are always parsed",
    ],
  };
}
