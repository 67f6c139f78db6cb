/**
 * Tables of a validation for notebooks and reports: the verdict at a
 * glance, and the inputs with their hashes and run cache status.
 *
 * @module
 */
import type { Table } from "./table.ts";
import type { GateValidation } from "../validate/validate_gates.ts";
import type { ValidationInput } from "../validate/read_inputs.ts";

/**
 * A validation at a glance: the verdict, the number of issues per code,
 * and for a clean gate (or pooled rounds) the gates, paired rows, task
 * clusters, design columns and metrics.
 *
 * @param validation What `validateGates` returned.
 * @returns A two-column table (`item`, `value`).
 *
 * @example
 * ```ts
 * import { validationSummaryTable } from "./validation_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = validationSummaryTable({ ok: false, issues: [], counts: { seed_mismatch: 3 }, dataset: null, inputs: [] });
 * deepEqual(t.rows, [["verdict", "not ok"], ["issues", "3 (seed_mismatch 3)"]]);
 * ```
 */
export function validationSummaryTable(validation: GateValidation): Table {
  const total = Object.values(validation.counts).reduce((a, b) => a + b, 0);
  const byCode = Object.entries(validation.counts).map(([code, n]) => `${code} ${n}`).join(", ");
  const rows: string[][] = [
    ["verdict", validation.ok ? "ok" : "not ok"],
    ["issues", total === 0 ? "0" : `${total} (${byCode})`],
  ];
  const d = validation.dataset;
  if (d) {
    rows.push(
      ["gates", d.gates.map((g) => `${g.gate_id} (${g.stage}, budget_k ${g.budget_k})`).join(", ")],
      ["bare run", d.baseline.run_id],
      ["paired rows", String(d.n)],
      ["task clusters", String(d.clusterCount)],
      ["design columns", String(d.k)],
      ["metrics", d.metrics.join(", ")],
    );
  }
  return {
    caption: "Validation",
    columns: [{ label: "item" }, { label: "value" }],
    rows,
  };
}

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
 * import { validationInputsTable } from "./validation_tables.ts";
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
