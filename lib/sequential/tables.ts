/**
 * Tables of a sequential re-analysis: per metric and version, the estimate
 * and fixed-n interval at N beside the anytime-valid interval, its running
 * intersection, the largest e-value and when the sign was certified.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { formatEstimate, formatInterval, formatStatistic } from "../table/format.ts";
import type { SequentialDocument } from "./sequential.ts";

/**
 * One table per metric.
 *
 * @param doc sequential.json.
 * @returns The tables, `reward` first.
 *
 * @example
 * ```ts
 * import { sequentialTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = { estimate: [0.2], se: [0.05], cs_lower: [0.01], cs_upper: [0.39], e_value: [30], running_lower: [0.01],
 *   running_upper: [0.39], running_max_e: [30], sign_certified_at: 40, sign: 1 as const, rollouts_saved: 0, fixed_n_interval: [0.1, 0.3] as const };
 * const doc = { alpha: 0.05, phi: 1, order: "run", rows: 40, rollouts_total: 80,
 *   metrics: { reward: { n: [40], selection: [["a"]], selection_stable_from: 40, selection_rollouts_saved: 0, versions: { a: v } } } };
 * // deno-lint-ignore no-explicit-any
 * const [t] = sequentialTables(doc as any);
 * deepEqual(t!.rows[0], ["a", "0.200\n[0.100, 0.300]", "[0.010, 0.390]\n[0.010, 0.390]", "30.00", "+ 40\n(0)"]);
 * ```
 */
export function sequentialTables(doc: SequentialDocument): Table[] {
  return Object.entries(doc.metrics).map(([metric, m]) => {
    const last = m.n.length - 1;
    return {
      caption: `Anytime-valid re-analysis (${metric}): ${doc.rows} rows in ${doc.order} order, ` +
        `alpha ${doc.alpha}, phi ${doc.phi}`,
      label: `tab:sequential-${metric}`,
      columns: [
        { label: "version" },
        { label: "estimate at N\nfixed-n 95% CI", align: "right" },
        { label: "CS at N\nrunning CS", align: "right" },
        { label: "max e", align: "right" },
        { label: "sign at n\n(saved)", align: "right" },
      ],
      rows: Object.entries(m.versions).map(([id, v]) => [
        id,
        `${formatEstimate(v.estimate[last])}\n${formatInterval(v.fixed_n_interval)}`,
        `${formatInterval([v.cs_lower[last] ?? NaN, v.cs_upper[last] ?? NaN])}\n${
          formatInterval([v.running_lower[last] ?? NaN, v.running_upper[last] ?? NaN])
        }`,
        formatStatistic(v.running_max_e[last]),
        v.sign_certified_at === null
          ? "—"
          : `${v.sign === 1 ? "+" : "−"} ${v.sign_certified_at}\n(${v.rollouts_saved})`,
      ]),
      notes: [
        `Selection stable from n = ${m.selection_stable_from ?? "—"} (descriptive; rollouts saved ${
          m.selection_rollouts_saved ?? "—"
        } of ${doc.rollouts_total}).`,
        "CS: anytime-valid confidence sequence; running CS: its intersection up to N; saved: " +
        "rollouts a stop at that n would have saved. The sequences assume Gaussian, homoskedastic " +
        "errors given the design; the HC3 and bootstrap intervals of gate analyze do not.",
      ],
    };
  });
}
