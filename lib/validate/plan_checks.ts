import type { Issue } from "../core/issue.ts";
import type { DesignColumn } from "../core/types.ts";
import type { GatePlan } from "../contract/gate.ts";
import { gateColumns, slotIssues } from "./slots.ts";

/** One gate's plan for {@linkcode gatePlanChecks}: gate.json parsed (null when it did not) and its path. */
export interface PlanToCheck {
  readonly plan: Pick<GatePlan, "stage" | "budget_k" | "slots"> | null;
  /** gate.json path for the issues. */
  readonly file: string;
}

/** Options of {@linkcode gatePlanChecks}. */
export interface GatePlanChecksOptions {
  /**
   * Maximum number of design columns of a cold-start gate (`dimension_cap`).
   * @default {16}
   */
  readonly dimensionCap?: number;
}

/**
 * The checks of the gate plans, and the pooled design columns. Per gate:
 * slot shapes (`family_invalid`, {@linkcode slotIssues}), at most
 * `dimensionCap` columns in a cold-start gate (`dimension_cap`),
 * `budget_k` within 1..columns (`budget_invalid`), and every version
 * defined as in earlier gates (`schema_error` on `columns.<i>`). The
 * columns are the union of versions in first-seen gate.json order.
 *
 * @param plans The gates' plans in gate order.
 * @param options Dimension cap.
 * @returns The pooled columns, and the issues of each gate (index as in `plans`).
 *
 * @example
 * ```ts
 * import { gatePlanChecks } from "./plan_checks.ts";
 * import { deepEqual } from "node:assert/strict";
 * const plan = (chunk_id: string, budget_k: number) => ({
 *   stage: "online" as const, budget_k,
 *   slots: [{ slot_id: "s", versions: [{ version_id: "v", chunk_id, role: "add" as const }] }],
 * });
 * const r = gatePlanChecks([{ plan: plan("k", 1), file: "a/gate.json" }, { plan: plan("k2", 2), file: "b/gate.json" }]);
 * deepEqual(r.columns.map((c) => c.version_id), ["v"]);
 * deepEqual(r.issues.map((g) => g.map((i) => [i.code, i.path])), [[], [["budget_invalid", "budget_k"], ["schema_error", "columns.0"]]]);
 * ```
 */
export function gatePlanChecks(
  plans: readonly PlanToCheck[],
  options: GatePlanChecksOptions = {},
): { columns: DesignColumn[]; issues: Issue[][] } {
  const dimensionCap = options.dimensionCap ?? 16;
  const columnIndex = new Map<string, number>();
  const columns: DesignColumn[] = [];
  const issues = plans.map(({ plan, file }) => {
    if (!plan) return [];
    const out = slotIssues(plan, file);
    const cols = gateColumns(plan);
    if (plan.stage === "cold_start" && cols.length > dimensionCap) {
      out.push({
        code: "dimension_cap",
        message:
          `cold-start gate has ${cols.length} design columns; at most ${dimensionCap} canonical chunks may enter validation`,
        file,
        path: "slots",
      });
    }
    if (plan.budget_k < 1 || plan.budget_k > cols.length) {
      out.push({
        code: "budget_invalid",
        message:
          `budget_k ${plan.budget_k} is outside 1..${cols.length} (the number of design columns)`,
        file,
        path: "budget_k",
      });
    }
    cols.forEach((c, ci) => {
      const seen = columnIndex.get(c.version_id);
      if (seen === undefined) {
        columnIndex.set(c.version_id, columns.length);
        columns.push(c);
        return;
      }
      const prev = columns[seen]!;
      if (prev.slot_id !== c.slot_id || prev.chunk_id !== c.chunk_id || prev.role !== c.role) {
        out.push({
          code: "schema_error",
          message:
            `version ${c.version_id} is (${c.slot_id}, ${c.chunk_id}, ${c.role}) here but (${prev.slot_id}, ${prev.chunk_id}, ${prev.role}) in an earlier gate; pooled gates must define a version the same way`,
          file,
          path: `columns.${ci}`,
        });
      }
    });
    return out;
  });
  return { columns, issues };
}
