/**
 * The tidy table of `gate plan-power`: `mde`, one row per design of
 * power.json's `mde_by_tasks` and `mde_by_columns` (docs/FORMAT.md, "Tidy
 * tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";

/**
 * `mde`: `varied` says which of `tasks` and `columns` the row changes
 * from power.json's `design` (the other stays the design's), then the
 * standard error of a coefficient and the 80%-power MDE.
 *
 * @param power power.json's design and MDE tables.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { powerTidy } from "./power_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = powerTidy({ design: { tasks: 400, columns: 14 },
 *   mde_by_tasks: [{ tasks: 800, se_beta: 0.02, mde_80: 0.056 }], mde_by_columns: [{ columns: 20, se_beta: 0.03, mde_80: 0.084 }] });
 * deepEqual(t.columns.map((c) => c.values), [["tasks", "columns"], [800, 400], [14, 20], [0.02, 0.03], [0.056, 0.084]]);
 * ```
 */
export function powerTidy(power: {
  readonly design: { readonly tasks: number; readonly columns: number };
  readonly mde_by_tasks: readonly { tasks: number; se_beta: number; mde_80: number }[];
  readonly mde_by_columns: readonly { columns: number; se_beta: number; mde_80: number }[];
}): TidyTable {
  const { design } = power;
  return tidyFromRows(
    "mde",
    { varied: "str", tasks: "i32", columns: "i32", se_beta: "f64", mde_80: "f64" },
    [
      ...power.mde_by_tasks.map((r) => ({ varied: "tasks", ...r, columns: design.columns })),
      ...power.mde_by_columns.map((r) => ({ varied: "columns", ...r, tasks: design.tasks })),
    ],
  );
}
