import type { GatePlan } from "../contract/gate.ts";
import type { AssignmentLine } from "../contract/assignment.ts";
import { TableBuilder } from "./_table_builder.ts";
import type { SqlTableData } from "./sql_schema.ts";

/** A gate as loaded for SQL: its plan and assignments. */
export interface SqlGate {
  /** Gate directory. */
  readonly dir: string;
  /** Parsed gate.json. */
  readonly plan: GatePlan;
  /** Parsed assignments.jsonl. */
  readonly assignments: readonly AssignmentLine[];
  /** run_id of the gate's masked run, when it could be read. */
  readonly masked_run_id: string | null;
}

/**
 * The gate tables of SQL: `gates` (one row per gate plan), `versions` (one
 * row per design column, `column_index` in gate.json order) and
 * `assignments` (one row per episode x slot; `version_id` NULL when the
 * slot is absent), in gate then file order.
 *
 * @param gates Gates as read.
 * @returns The three tables' data.
 *
 * @example
 * ```ts
 * import { gateTables } from "./gate_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = { format: "gatelab.gate/v1" as const, gate_id: "g", stage: "online" as const, bare_run_dir: "../b", estimator: "paired_delta_ols_no_intercept" as const, mask_seed: 1, p_present: 0.5, budget_k: 1, slots: [{ slot_id: "s", versions: [{ version_id: "v", chunk_id: "c", role: "add" as const }] }] };
 * const t = gateTables([{ dir: "g", plan, assignments: [{ split: "val", task_id: "t", sample_id: 0, slots: { s: null } }], masked_run_id: null }]);
 * deepEqual(t.assignments.columns.map((c) => [c.name, c.values[0]]).at(-1), ["version_id", null]);
 * ```
 */
export function gateTables(
  gates: readonly SqlGate[],
): Record<"gates" | "versions" | "assignments", SqlTableData> {
  const gateRows = new TableBuilder("gates");
  const versions = new TableBuilder("versions");
  const assignments = new TableBuilder("assignments");
  for (const g of gates) {
    const plan = g.plan;
    gateRows.push({
      gate_id: plan.gate_id,
      gate_dir: g.dir,
      stage: plan.stage,
      budget_k: plan.budget_k,
      mask_seed: plan.mask_seed,
      p_present: plan.p_present,
      bare_run_dir: plan.bare_run_dir,
      masked_run_id: g.masked_run_id,
    });
    let column = 0;
    for (const slot of plan.slots) {
      for (const v of slot.versions) {
        versions.push({
          gate_id: plan.gate_id,
          slot_id: slot.slot_id,
          ...v,
          column_index: column++,
        });
      }
    }
    for (const a of g.assignments) {
      for (const [slot_id, version_id] of Object.entries(a.slots)) {
        assignments.push({
          gate_id: plan.gate_id,
          split: a.split,
          task_id: a.task_id,
          sample_id: a.sample_id,
          slot_id,
          version_id,
        });
      }
    }
  }
  return {
    gates: gateRows.build(),
    versions: versions.build(),
    assignments: assignments.build(),
  };
}
