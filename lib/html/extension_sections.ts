/**
 * The report's cards for the outputs of `gate sequential` and `gate ladder`:
 * the same tables (lib/sequential/tables.ts, lib/ladder/tables.ts) and
 * figures the commands write, with an overview table that states the model
 * the sequential intervals assume and, for a ladder gate, its exit, counts
 * and cache savings.
 *
 * @module
 */
import type { Table } from "../report/table.ts";
import type { Figure } from "../figures/render.ts";
import { formatCount, formatNumber } from "../report/format.ts";
import { sequentialTables } from "../sequential/tables.ts";
import { funnelFigure, selectionFigure } from "../sequential/figures.ts";
import { ladderTable } from "../ladder/tables.ts";
import { ladderFigure } from "../ladder/figures.ts";
import type {
  LadderResultJson as LadderResultFile,
  SequentialJson as SequentialFile,
} from "../contract/outputs/mod.ts";

/** A subheading inside a section (as in lib/html/report.ts). */
interface Subheading {
  readonly subheading: string;
}

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
 * import { sequentialOverviewTable } from "./extension_sections.ts";
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
export function sequentialOverviewTable(doc: SequentialFile): Table {
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
 * The items of a sequential section: the overview, then per metric its
 * table, confidence-sequence funnels and selection over n.
 *
 * @param doc Parsed sequential.json.
 * @returns Tables, figures and a subheading per metric.
 *
 * @example
 * ```ts
 * import { sequentialItems } from "./extension_sections.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = { estimate: [0.2], se: [0.05], cs_lower: [0.01], cs_upper: [0.39], e_value: [30], running_lower: [0.01],
 *   running_upper: [0.39], running_max_e: [30], sign_certified_at: 40, sign: 1 as const, rollouts_saved: 0,
 *   fixed_n_interval: [0.1, 0.3] as [number, number] };
 * const run = { run_id: "r", run_dir: "r", sha256: "0" };
 * const items = sequentialItems({ format: "gatelab.sequential/v1", order: "run", seed: null, alpha: 0.05, phi: 1,
 *   every: 1, estimator: { name: "e", formula: "f", intercept: 0 }, conventions: {}, rows: 40, columns: 1, budget_k: 1,
 *   rollouts_total: 80, row_order: [], baseline: run, gates: [{ gate_id: "g", gate_dir: "g", masked: run }],
 *   generator: { tool: "gatelab", version: "0", command: "gate sequential g --out o" },
 *   metrics: { reward: { n: [40], selection: [["a"]], selection_stable_from: 40, selection_rollouts_saved: 0,
 *     versions: { a: v } } } });
 * deepEqual(items.map((i) => "name" in i ? i.name : "subheading" in i ? i.subheading : i.caption), [
 *   "Sequential re-analysis", "reward", "Anytime-valid re-analysis (reward): 40 rows in run order, alpha 0.05, phi 1",
 *   "sequential_funnel_reward", "sequential_selection_reward"]);
 * ```
 */
export function sequentialItems(doc: SequentialFile): (Table | Figure | Subheading)[] {
  const tables = sequentialTables(doc);
  return [
    sequentialOverviewTable(doc),
    ...Object.keys(doc.metrics).flatMap((metric, i) => [
      { subheading: metric },
      tables[i]!,
      funnelFigure(doc, metric),
      selectionFigure(doc, metric),
    ]),
  ];
}

/** The first 16 hex digits of a sha256 (a full hash would widen the table past a narrow page). */
const shortHash = (hash: string) => (hash.length > 16 ? `${hash.slice(0, 16)}…` : hash);

/**
 * The decision of a ladder gate in one table: exit and block, cumulative
 * W/L/E/INFRA at the exit, the rule, the arms and the baseline-cache
 * savings.
 *
 * @param doc Parsed ladder_result.json.
 * @returns A two-column table.
 *
 * @example
 * ```ts
 * import { ladderDecisionTable } from "./extension_sections.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = ladderDecisionTable({ format: "gatelab.ladder-result/v1", task_type: "counting", alpha: 0.05,
 *   threshold: 20, n_max: 64, block_size: 8, infra_max_rate: 0.25, prompts_version: "p", base_skill_sha256: "b",
 *   cand_skill_sha256: "c", exit: "accept", exit_block: 1, counts: { W: 7, L: 0, E: 8, INFRA: 1, units: 16 },
 *   blocks: [], blocks_after_exit: 0, recorded_decision: "accept", prefill: null, conventions: {}, inputs: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate ladder l --out o" } });
 * deepEqual(t.rows.slice(0, 2), [["exit", "accept after block 1"], ["W / L / E / INFRA (units)", "7 / 0 / 8 / 1 (16)"]]);
 * deepEqual(t.rows.at(-1), ["prefilled baseline cache", "no baseline given"]);
 * ```
 */
export function ladderDecisionTable(doc: LadderResultFile): Table {
  const c = doc.counts;
  const p = doc.prefill;
  // Short cells (table cells do not wrap in the report); one fact per row.
  return {
    caption: `Ladder gate ${doc.task_type}: decision`,
    columns: [{ label: "item" }, { label: "value" }],
    rows: [
      ["exit", doc.exit === null ? "none" : `${doc.exit} after block ${doc.exit_block}`],
      [
        "W / L / E / INFRA (units)",
        `${formatCount(c.W)} / ${formatCount(c.L)} / ${formatCount(c.E)} / ${
          formatCount(c.INFRA)
        } (${formatCount(c.units)})`,
      ],
      ["recorded decision", doc.recorded_decision ?? "none"],
      ["alpha (threshold)", `${formatNumber(doc.alpha, 2)} (${formatNumber(doc.threshold, 2)})`],
      ["block size", formatCount(doc.block_size)],
      ["unit budget", formatCount(doc.n_max)],
      ["INFRA rate limit", formatNumber(doc.infra_max_rate, 2)],
      ["blocks after the exit (ignored)", formatCount(doc.blocks_after_exit)],
      ["prompts version", doc.prompts_version],
      ["base skill sha256", shortHash(doc.base_skill_sha256)],
      ["candidate skill sha256", shortHash(doc.cand_skill_sha256)],
      ...(p === null ? [["prefilled baseline cache", "no baseline given"]] : [
        [
          "base-arm units served from cache",
          `${formatCount(p.served)} of ${formatCount(p.base_units)}`,
        ],
        ["base-arm inferences saved", formatCount(p.saved)],
        ["cache entries", formatCount(p.cache_entries)],
        ["INFRA baseline units left out", formatCount(p.baseline_infra)],
      ]),
    ],
    notes: [
      "Counts are cumulative up to the exit. Exits are checked after each block in the order " +
      "infra_abort, accept, reject, budget_exhausted. Cache savings: what a cache prefilled " +
      "from the baseline run (key task_type, base skill, prompts version, unit) would have served " +
      "of the base arm up to the exit. Skill hashes: the first 16 hex digits (all 64 in " +
      "ladder_result.json).",
    ],
  };
}

/**
 * The items of a ladder gate's card: decision, block table, e-process figure.
 *
 * @param doc Parsed ladder_result.json.
 * @returns Two tables and the figure `ladder_<task_type>`.
 *
 * @example
 * ```ts
 * import { ladderItems } from "./extension_sections.ts";
 * import { deepEqual } from "node:assert/strict";
 * const items = ladderItems({ format: "gatelab.ladder-result/v1", task_type: "counting", alpha: 0.05,
 *   threshold: 20, n_max: 64, block_size: 8, infra_max_rate: 0.25, prompts_version: "p", base_skill_sha256: "b",
 *   cand_skill_sha256: "c", exit: "accept", exit_block: 0, counts: { W: 5, L: 0, E: 2, INFRA: 1, units: 8 },
 *   blocks: [{ block: 0, W: 5, L: 0, E: 2, INFRA: 1, units: 8, e_accept: 21, e_reject: 0.1 }],
 *   blocks_after_exit: 0, recorded_decision: "accept", prefill: null, conventions: {}, inputs: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate ladder l --out o" } });
 * deepEqual(items.map((i) => "svg" in i ? i.name : i.label ?? i.caption),
 *   ["Ladder gate counting: decision", "tab:ladder-counting", "ladder_counting"]);
 * ```
 */
export function ladderItems(doc: LadderResultFile): (Table | Figure)[] {
  return [ladderDecisionTable(doc), ladderTable(doc), ladderFigure(doc)];
}
