/**
 * The report's section of a sequential re-analysis (sequential.json): an
 * overview that states the model the confidence sequences assume, then per
 * metric the table and the funnel and selection figures the command
 * writes.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { formatCount, formatNumber } from "../table/format.ts";
import type { ReportSection } from "../table/section.ts";
import { sequentialTables } from "./tables.ts";
import { funnelFigure, selectionFigure } from "./figures.ts";
import type { SequentialDocument } from "./sequential.ts";

/**
 * Overview of a sequential re-analysis: gates, estimator, order, alpha,
 * phi, rows and rollouts, with the model its confidence sequences assume
 * and their construction in the notes.
 *
 * @param doc Parsed sequential.json.
 * @returns A two-column table.
 *
 * @example
 * ```ts
 * import { sequentialOverviewTable } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const t = sequentialOverviewTable({ format: "gatelab.sequential/v1", order: "run", seed: null, alpha: 0.05,
 *   phi: 1, every: 1, estimator: { name: "e", formula: "f", intercept: 0 }, conventions: { model: "Gaussian" }, rows: 400,
 *   columns: 14, budget_k: 10, rollouts_total: 800, row_order: [], baseline: run,
 *   gates: [{ gate_id: "gate-a", gate_dir: "g", masked: run }], metrics: {},
 *   generator: { tool: "gatelab", version: "0", command: "gate sequential g --out o" } });
 * deepEqual(t.notes?.[0], "Model assumed: Gaussian.");
 * deepEqual(t.rows.find((r) => r[0] === "rollouts (bare and masked)"), ["rollouts (bare and masked)", "800"]);
 * ```
 */
export function sequentialOverviewTable(doc: SequentialDocument): Table {
  const text = (key: string) => String(doc.conventions[key] ?? "not recorded");
  return {
    caption: "Sequential re-analysis",
    columns: [{ label: "item" }, { label: "value" }],
    rows: [
      ["gates", doc.gates.map((g) => g.gate_id).join(", ")],
      ["estimator", `${doc.estimator.name}: ${doc.estimator.formula}`],
      ["row order", doc.seed === null ? doc.order : `${doc.order} (seed ${doc.seed})`],
      ["alpha", formatNumber(doc.alpha, 2)],
      ["phi (mixture precision)", String(doc.phi)],
      ["rows", formatCount(doc.rows)],
      ["design columns", formatCount(doc.columns)],
      ["budget K", formatCount(doc.budget_k)],
      ["rollouts (bare and masked)", formatCount(doc.rollouts_total)],
    ],
    // Long sentences go to the notes, which wrap; table cells do not.
    notes: [
      `Model assumed: ${text("model")}.`,
      `Confidence sequence: ${text("confidence_sequence")}.`,
    ],
  };
}

/**
 * The section of a sequential re-analysis: the overview, then per metric a
 * subheading, its table, its confidence-sequence funnels and its selection
 * over n.
 *
 * @param doc sequential.json.
 * @param dir The output directory it was read from.
 * @returns The section, headed by its gates.
 *
 * @example
 * ```ts
 * import { sequentialSection } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = { estimate: [0.2], se: [0.05], cs_lower: [0.01], cs_upper: [0.39], e_value: [30], running_lower: [0.01],
 *   running_upper: [0.39], running_max_e: [30], sign_certified_at: 40, sign: 1 as const, rollouts_saved: 0,
 *   fixed_n_interval: [0.1, 0.3] as [number, number] };
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const section = sequentialSection({ format: "gatelab.sequential/v1", order: "run", seed: null, alpha: 0.05, phi: 1,
 *   every: 1, estimator: { name: "e", formula: "f", intercept: 0 }, conventions: {}, rows: 40, columns: 1, budget_k: 1,
 *   rollouts_total: 80, row_order: [], baseline: run, gates: [{ gate_id: "g", gate_dir: "g", masked: run }],
 *   generator: { tool: "gatelab", version: "0", command: "gate sequential g --out o" },
 *   metrics: { reward: { n: [40], selection: [["a"]], selection_stable_from: 40, selection_rollouts_saved: 0,
 *     versions: { a: v } } } }, "out");
 * deepEqual([section.heading, section.files], ["Sequential re-analysis (g)", ["sequential.json"]]);
 * deepEqual(section.items.map((i) => "name" in i ? i.name : "subheading" in i ? i.subheading : i.caption), [
 *   "Sequential re-analysis", "reward", "Anytime-valid re-analysis (reward): 40 rows in run order, alpha 0.05, phi 1",
 *   "sequential_funnel_reward", "sequential_selection_reward"]);
 * ```
 */
export function sequentialSection(doc: SequentialDocument, dir: string): ReportSection {
  const tables = sequentialTables(doc);
  return {
    kind: "sequential",
    heading: `Sequential re-analysis (${doc.gates.map((g) => g.gate_id).join(" + ")})`,
    items: [
      sequentialOverviewTable(doc),
      ...Object.keys(doc.metrics).flatMap((metric, i) => [
        { subheading: metric },
        tables[i]!,
        funnelFigure(doc, metric),
        selectionFigure(doc, metric),
      ]),
    ],
    dir,
    files: ["sequential.json"],
  };
}
