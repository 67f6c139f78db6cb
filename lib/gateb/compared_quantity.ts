/**
 * One compared quantity of comparison.json from its sums and draws.
 *
 * @module
 */

import type { ComparedQuantity } from "./comparison_types.ts";
import { drawInterval } from "./draw_interval.ts";
import type { QuantityDraws } from "./paired_bootstrap.ts";
import { ratioOfSums } from "./ratio_of_sums.ts";
import type { RatioQuantity } from "./task_sums.ts";

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

/**
 * Point estimates of both arms and their difference (null where not
 * finite) with the percentile intervals of the draws.
 *
 * @param sums Per-task sums of the quantity.
 * @param draws Its bootstrap draws (empty arrays without bootstrap).
 * @returns The compared quantity.
 *
 * @example
 * ```ts
 * import { comparedQuantity } from "./compared_quantity.ts";
 * import { deepEqual } from "node:assert/strict";
 * const f = (...v: number[]) => Float64Array.from(v);
 * const sums = { bareNum: f(1, 0), bareDen: f(2, 2), eqNum: f(2, 1), eqDen: f(2, 2) };
 * const none = { bare: f(), eq: f(), diff: f() };
 * deepEqual(comparedQuantity(sums, none),
 *   { bare: 0.25, equipped: 0.75, difference: 0.5, ci: null, bare_ci: null, equipped_ci: null });
 * ```
 */
export function comparedQuantity(sums: RatioQuantity, draws: QuantityDraws): ComparedQuantity {
  const vb = ratioOfSums(sums.bareNum, sums.bareDen, null);
  const ve = ratioOfSums(sums.eqNum, sums.eqDen, null);
  return {
    bare: finite(vb),
    equipped: finite(ve),
    difference: finite(ve - vb),
    ci: drawInterval(draws.diff),
    bare_ci: drawInterval(draws.bare),
    equipped_ci: drawInterval(draws.eq),
  };
}
