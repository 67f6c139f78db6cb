import { GatelabError } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import type { Table } from "../report/table.ts";
import type { GateValidation } from "./validate_gates.ts";

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
 * import { validationSummaryTable } from "./summary.ts";
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
 * The paired dataset of a clean validation, or a thrown
 * {@linkcode GatelabError} listing the issues (for notebooks: stop and say why).
 *
 * @param validation What `validateGates` returned.
 * @param what What could not be done, e.g. `Cannot analyse the gate`.
 * @returns The dataset.
 * @throws {GatelabError} When the validation found issues.
 *
 * @example
 * ```ts
 * import { datasetOrThrow } from "./summary.ts";
 * import { throws } from "node:assert/strict";
 * const issues = [{ code: "seed_mismatch" as const, message: "job seeds differ" }];
 * throws(() => datasetOrThrow({ ok: false, issues, counts: { seed_mismatch: 1 }, dataset: null, inputs: [] }, "Cannot analyse"),
 *   /Cannot analyse:\n  seed_mismatch  job seeds differ/);
 * ```
 */
export function datasetOrThrow(validation: GateValidation, what: string): PairedDataset {
  if (!validation.ok || validation.dataset === null) {
    const issues = validation.issues.length > 0
      ? validation.issues
      : [{ code: "io_error" as const, message: "validation produced no dataset" }];
    throw new GatelabError(what, issues);
  }
  return validation.dataset;
}
