/**
 * The side-by-side table of the paired-delta and legacy intercept fits.
 *
 * @module
 */
import { formatNumber, type Table } from "../table/table.ts";
import type { LegacyComparison } from "./legacy_intercept.ts";

/**
 * Renders `legacy_comparison.json` as a table: coefficients, ranks and the
 * status each estimator's selection would give.
 *
 * @param doc The comparison.
 * @returns The table.
 */
export function legacyComparisonTable(doc: LegacyComparison): Table {
  return {
    caption:
      `Exploratory: paired-delta vs legacy intercept fit (${doc.metric}, K = ${doc.budget_k})`,
    label: "tab:legacy-comparison",
    columns: [
      { label: "version" },
      { label: "paired-delta", align: "right" },
      { label: "rank", align: "right" },
      { label: "would select" },
      { label: "legacy intercept", align: "right" },
      { label: "rank", align: "right" },
      { label: "would select" },
    ],
    rows: doc.rows.map((r) => [
      r.version_id,
      formatNumber(r.paired_delta.estimate, 4),
      r.paired_delta.rank === null ? "—" : String(r.paired_delta.rank),
      r.paired_delta.status,
      formatNumber(r.legacy_intercept.estimate, 4),
      r.legacy_intercept.rank === null ? "—" : String(r.legacy_intercept.rank),
      r.legacy_intercept.status,
    ]),
    notes: [
      `legacy intercept ${formatNumber(doc.legacy_intercept_estimate, 4)}; mean bare ${
        formatNumber(doc.bare_mean, 4)
      }`,
      doc.estimators.paired_delta,
      doc.estimators.legacy_intercept,
      doc.note,
    ],
  };
}
