/**
 * The tidy table of `gate history`: `lifecycles`, one row per chunk and
 * step where the chunk was in the gate (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { LifecycleEntry } from "./lifecycle.ts";

/**
 * `lifecycles`: history.json's `chunks` unrolled, `chunk_id` then the
 * entry's fields (`others` left out; a step where the chunk is absent,
 * null in the JSON, has no row). Rows by chunk (the JSON's order), then
 * step.
 *
 * @param chunks history.json's `chunks`.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { historyTidy } from "./history_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const e = { step: 1, version_id: "a.v1", role: "add", estimate: 0.1, se: 0.05, ci_lower: 0, ci_upper: 0.2,
 *   interval: "hc3_normal", status: "selected", rank: 1, transition: "added", others: [] };
 * const t = historyTidy({ a: [e as never, null] });
 * deepEqual([t.rows, t.columns.map((c) => c.values[0]).slice(0, 4)], [1, ["a", 1, "a.v1", "add"]]);
 * ```
 */
export function historyTidy(
  chunks: Readonly<Record<string, readonly (LifecycleEntry | null)[]>>,
): TidyTable {
  const rows = Object.entries(chunks).flatMap(([chunk_id, entries]) =>
    entries.filter((e): e is LifecycleEntry => e !== null).map((e) => ({ chunk_id, ...e }))
  );
  return tidyFromRows("lifecycles", {
    chunk_id: "str",
    step: "i32",
    version_id: "str",
    role: "str",
    estimate: "f64",
    se: "f64",
    ci_lower: "f64",
    ci_upper: "f64",
    interval: "str",
    status: "str",
    rank: "i32",
    transition: "str",
  }, rows);
}
