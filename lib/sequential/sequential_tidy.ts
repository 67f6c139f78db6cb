/**
 * The tidy table of `gate sequential`: `prefixes`, one row per metric,
 * prefix length n and version (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { SequentialDocument } from "./sequential.ts";

/** The per-n arrays of sequential.json's versions, in column order. */
const SERIES = [
  "estimate",
  "se",
  "cs_lower",
  "cs_upper",
  "e_value",
  "running_lower",
  "running_upper",
  "running_max_e",
] as const;

/**
 * `prefixes`: sequential.json's per-n series unrolled: `metric`, `n`
 * (rows in the prefix), `version_id`, then `estimate`, `se`, `cs_lower`,
 * `cs_upper`, `e_value`, `running_lower`, `running_upper`,
 * `running_max_e` at that n (missing where the JSON has null). Rows by
 * metric, then n, then version.
 *
 * @param document sequential.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { sequentialTidy } from "./sequential_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = { estimate: [0.1, 0.2], se: [1, 0.5], cs_lower: [null, -0.5], cs_upper: [null, 0.9], e_value: [1, 2],
 *   running_lower: [null, -0.5], running_upper: [null, 0.9], running_max_e: [1, 2] };
 * const t = sequentialTidy({ metrics: { reward: { n: [5, 10], versions: { a: v } } } } as never);
 * deepEqual(t.columns.slice(0, 5).map((c) => c.values), [["reward", "reward"], [5, 10], ["a", "a"], [0.1, 0.2], [1, 0.5]]);
 * ```
 */
export function sequentialTidy(document: Pick<SequentialDocument, "metrics">): TidyTable {
  const rows: Record<string, unknown>[] = [];
  for (const [metric, m] of Object.entries(document.metrics)) {
    m.n.forEach((n, i) => {
      for (const [version_id, v] of Object.entries(m.versions)) {
        const row: Record<string, unknown> = { metric, n, version_id };
        for (const s of SERIES) row[s] = v[s][i];
        rows.push(row);
      }
    });
  }
  return tidyFromRows("prefixes", {
    metric: "str",
    n: "i32",
    version_id: "str",
    ...Object.fromEntries(SERIES.map((s) => [s, "f64" as const])),
  }, rows);
}
