/**
 * The tidy table of `gate compare` (Gate B): `comparison`, one row per
 * compared quantity (docs/FORMAT.md, "Tidy tables").
 *
 * @module
 */
import { tidyFromRows, type TidyTable } from "../tidy/tidy_table.ts";
import type { ComparedQuantity, ComparisonOutput } from "./compare.ts";

/**
 * `comparison`: one row per metric (`kind` "metric") and behaviour
 * quantity (`kind` "behaviour"; a quantity a run lacks has every number
 * missing), with the interval ends of comparison.json in columns.
 *
 * @param comparison comparison.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { comparisonTidy } from "./gateb_tidy.ts";
 * import { deepEqual } from "node:assert/strict";
 * const q = { bare: 0.5, equipped: 0.7, difference: 0.2, ci: [0.1, 0.3], bare_ci: null, equipped_ci: null };
 * const t = comparisonTidy({ metrics: { reward: q }, behaviour: { steps: null } } as never);
 * deepEqual(t.columns.map((c) => c.values), [["metric", "behaviour"], ["reward", "steps"], [0.5, null],
 *   [0.7, null], [0.2, null], [0.1, null], [0.3, null], [null, null], [null, null], [null, null], [null, null]]);
 * ```
 */
export function comparisonTidy(
  comparison: Pick<ComparisonOutput, "metrics" | "behaviour">,
): TidyTable {
  const row = (kind: string, quantity: string, q: ComparedQuantity | null) => ({
    kind,
    quantity,
    bare: q?.bare,
    equipped: q?.equipped,
    difference: q?.difference,
    ci_low: q?.ci?.[0],
    ci_high: q?.ci?.[1],
    bare_ci_low: q?.bare_ci?.[0],
    bare_ci_high: q?.bare_ci?.[1],
    equipped_ci_low: q?.equipped_ci?.[0],
    equipped_ci_high: q?.equipped_ci?.[1],
  });
  return tidyFromRows("comparison", {
    kind: "str",
    quantity: "str",
    bare: "f64",
    equipped: "f64",
    difference: "f64",
    ci_low: "f64",
    ci_high: "f64",
    bare_ci_low: "f64",
    bare_ci_high: "f64",
    equipped_ci_low: "f64",
    equipped_ci_high: "f64",
  }, [
    ...Object.entries(comparison.metrics).map(([m, q]) => row("metric", m, q)),
    ...Object.entries(comparison.behaviour).map(([b, q]) => row("behaviour", b, q)),
  ]);
}
