/**
 * Markdown/LaTeX tables of a history: the lifecycle grid (chunk x step)
 * and the internalization screen.
 *
 * @module
 */
import { formatInterval, formatNumber, type Table } from "../report/table.ts";
import type { HistoryDocument } from "./history.ts";

const SHORT: Record<string, string> = {
  selected: "sel",
  rewrite_loser: "loser",
  non_positive: "nonpos",
  budget_excluded: "budget",
  retired: "retired",
};

/**
 * The lifecycle table: one row per chunk, one column per step with the
 * version, status and coefficient, then exposure.
 *
 * @param doc history.json.
 * @returns The table.
 */
export function lifecycleTable(doc: HistoryDocument): Table {
  return {
    caption: `Chunk lifecycles across ${doc.steps.length} steps (${doc.metric})`,
    label: "tab:history-lifecycles",
    columns: [
      { label: "chunk" },
      ...doc.steps.map((s) => ({
        label: `step ${s.step} (${s.checkpoint_id ?? s.gate_ids.join("+")})`,
      })),
      { label: "in skill", align: "right" as const },
      { label: "selected", align: "right" as const },
    ],
    rows: Object.entries(doc.chunks).map(([chunk, entries]) => [
      chunk,
      ...entries.map((e) =>
        e === null
          ? "—"
          : `${e.version_id} ${SHORT[e.status]} ${formatNumber(e.estimate, 3)} ${
            formatInterval(
              e.ci_lower === null || e.ci_upper === null ? null : [e.ci_lower, e.ci_upper],
              3,
            )
          } (${e.transition})`
      ),
      String(doc.exposure[chunk]!.steps_in_skill),
      String(doc.exposure[chunk]!.steps_selected),
    ]),
    notes: [
      "Cell: representative version, status, coefficient, 95% interval, transition.",
      doc.conventions.interval,
    ],
  };
}

/**
 * The internalization screen table.
 *
 * @param doc history.json.
 * @returns The table.
 */
export function internalizationTable(doc: HistoryDocument): Table {
  return {
    caption: "Internalization screen (descriptive): coefficient trend while selected",
    label: "tab:history-internalization",
    columns: [
      { label: "chunk" },
      { label: "version" },
      { label: "steps" },
      { label: "estimates" },
      { label: "slope", align: "right" },
      { label: "95% CI", align: "right" },
      { label: "flagged" },
    ],
    rows: doc.internalization.map((r) => [
      r.chunk_id,
      r.version_id,
      r.steps.join(", "),
      r.estimates.map((e) => formatNumber(e, 3)).join(", "),
      formatNumber(r.slope, 4),
      formatInterval(r.slope_ci, 4),
      r.flagged ? "yes" : "no",
    ]),
    notes: [doc.conventions.internalization.trend, doc.conventions.internalization.note],
  };
}
