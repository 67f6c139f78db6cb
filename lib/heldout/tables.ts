/**
 * Tables of held-out checks (heldout.json): the summary over splits and the
 * selection checked against a later gate, as {@linkcode Table} models for
 * `toMarkdown` and `toLatex` (lib/table/table.ts).
 *
 * @module
 */
import type { AcrossGateCheck, HeldoutDocument } from "./heldout.ts";
import {
  COEFFICIENT,
  formatCount,
  formatEstimate,
  formatRate,
  formatStatistic,
} from "../table/format.ts";
import type { Table } from "../table/table.ts";

/**
 * What {@linkcode heldoutSummaryTable} reads: a {@linkcode HeldoutResult} or
 * a parsed heldout.json.
 */
export type HeldoutSummaryInput = Pick<
  HeldoutDocument,
  "plan" | "budget_k" | "summary" | "degenerate_splits" | "realised_to_predicted"
>;

const HELDOUT_NAMES: Readonly<Record<string, string>> = {
  spearman: "Spearman",
  kendall_tau_b: "Kendall tau-b",
  topk_overlap: "top-K overlap",
  topk_jaccard: "top-K Jaccard",
  gain_predicted: "gain, predicted",
  gain_realised: "gain, realised",
};

/**
 * Held-out summary: one row per statistic over the usable splits (count,
 * mean, SD over splits, 5th percentile, median, 95th percentile).
 *
 * @param result The result of {@linkcode heldoutCheck}, or a parsed heldout.json.
 * @returns The table, with the plan and the excluded splits in its notes.
 *
 * @example Five folds of the demo's Gate A
 * ```ts
 * import { datasetOrThrow, heldoutCheck, validateGates } from "../mod.ts";
 * import { heldoutSummaryTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const result = heldoutCheck(gateA, {
 *   format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward",
 * });
 * const table = heldoutSummaryTable(result);
 * deepEqual(table.rows[0], ["Spearman", "5", "0.30", "0.20", "0.04", "0.23", "0.48"]);
 * ```
 */
export function heldoutSummaryTable(result: HeldoutSummaryInput): Table {
  const rows = Object.entries(result.summary).map(([key, s]) => {
    // Correlations are statistics, gains rewards, the overlap a count of chunks: its
    // quantiles (sorted elements) are whole numbers, its mean and SD statistics.
    const count = key === "topk_overlap";
    const fmt = key === "spearman" || key === "kendall_tau_b" || count
      ? formatStatistic
      : formatEstimate;
    const quantile = count ? formatCount : fmt;
    return [
      HELDOUT_NAMES[key] ?? key,
      formatCount(s.n),
      fmt(s.mean),
      fmt(s.sd),
      quantile(s.p05),
      quantile(s.median),
      quantile(s.p95),
    ];
  });
  const p = result.plan;
  return {
    caption: `Held-out ranking checks of ${p.metric} (${p.scheme}${
      p.scheme === "kfold" ? `, ${p.folds} folds` : ""
    }, ${p.repeats} repeats)`,
    label: "tab:heldout",
    columns: [
      { label: "statistic" },
      { label: "splits", align: "right" },
      { label: "mean", align: "right" },
      { label: "SD over splits", align: "right" },
      { label: "5%", align: "right" },
      { label: "median", align: "right" },
      { label: "95%", align: "right" },
    ],
    rows,
    notes: [
      `Tasks split at random, seed ${p.seed}, K = ${result.budget_k}; ${result.degenerate_splits} degenerate split(s) excluded.`,
      "SD over splits: spread of the statistic across splits (not a standard error: splits share tasks).",
      `Realised / predicted gain of the selected set: ${formatRate(result.realised_to_predicted)}.`,
    ],
  };
}

/**
 * Across-gate check: earlier vs later coefficient per shared version, and
 * whether the earlier gate selected it.
 *
 * @param check The result of {@linkcode againstLaterGate}, or heldout.json's `against`.
 * @returns The table, with rank agreement and predicted vs realised gain in its notes.
 *
 * @example The demo's Gate A against the first online round
 * ```ts
 * import { againstLaterGate, datasetOrThrow, validateGates } from "../mod.ts";
 * import { acrossGateTable } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const round1 = datasetOrThrow(await validateGates(["data/demo/ckpt-b/gate-online-r1"]), "round 1");
 * const table = acrossGateTable(againstLaterGate(gateA, round1));
 * deepEqual(table.rows.length, 6);
 * deepEqual(table.rows[0], ["query-formulation.v1", "yes", "0.108", "0.045"]);
 * ```
 */
export function acrossGateTable(check: AcrossGateCheck): Table {
  const selected = new Set(check.selected);
  return {
    caption: `Selection against a later gate (${check.metric})`,
    label: "tab:heldout-across-gates",
    columns: [
      { label: "version" },
      { label: "selected earlier", align: "center" },
      { label: "earlier", align: "right" },
      { label: "later", align: "right" },
    ],
    rows: check.per_version.map((v) => [
      v.version_id,
      selected.has(v.version_id) ? "yes" : "no",
      formatEstimate(v.earlier),
      formatEstimate(v.later),
    ]),
    notes: [
      `Columns: ${COEFFICIENT} on each gate. Shared versions ${check.shared.length}; Spearman ${
        formatStatistic(check.spearman_shared)
      }, Kendall tau-b ${formatStatistic(check.kendall_tau_b_shared)}.`,
      `Gain of the selected shared versions: predicted ${
        formatEstimate(check.gain_predicted)
      }, realised ${
        formatEstimate(check.gain_realised)
      }; selected but not tested later: ${check.selected_not_in_later.length}.`,
    ],
  };
}

/**
 * The tables of a held-out check, in report order: the summary over splits,
 * then (with a later gate) the across-gate check.
 *
 * @param doc A parsed heldout.json (or the document `gate heldout` writes).
 * @returns One or two tables, unscoped (`scopeTables` names the run).
 *
 * @example
 * ```ts
 * import { againstLaterGate, datasetOrThrow, heldoutCheck, heldoutTables, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const round1 = datasetOrThrow(await validateGates(["data/demo/ckpt-b/gate-online-r1"]), "round 1");
 * const result = heldoutCheck(gateA, {
 *   format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward",
 * });
 * const tables = heldoutTables({ ...result, against: againstLaterGate(gateA, round1) });
 * deepEqual(tables.map((t) => [t.label, t.rows.length]), [["tab:heldout", 6], ["tab:heldout-across-gates", 6]]);
 * ```
 */
export function heldoutTables(
  doc: HeldoutSummaryInput & { readonly against: AcrossGateCheck | null },
): Table[] {
  return [heldoutSummaryTable(doc), ...(doc.against ? [acrossGateTable(doc.against)] : [])];
}
