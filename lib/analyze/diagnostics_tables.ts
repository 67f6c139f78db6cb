/**
 * Tables of the misfit diagnostics (lib/infer/diagnostics): the AMCE table,
 * the interaction screen and the residuals by count, as {@linkcode Table}
 * models for `toMarkdown` and `toLatex` (lib/table/table.ts).
 *
 * @module
 */
import type { MisfitDiagnostics } from "../infer/diagnostics/diagnostics.ts";
import {
  COEFFICIENT,
  columnNames,
  formatCount,
  formatEstimate,
  formatP,
  formatStatistic,
  type NamedColumn,
  pInProse,
} from "../table/format.ts";
import type { Table } from "../table/table.ts";

/**
 * Misfit diagnostics: the AMCE table, the flagged interactions and the
 * residuals by number of chunks present. Chunks are named by
 * {@linkcode columnNames} when the design columns are given.
 *
 * @param d The result of {@linkcode misfitDiagnostics}.
 * @param columns Design columns to name chunks by (none: version ids only).
 * @returns Three tables: AMCE, interaction screen, residuals by count.
 *
 * @example The demo's Gate A
 * ```ts
 * import { datasetOrThrow, misfitDiagnostics, validateGates } from "../mod.ts";
 * import { diagnosticsTables } from "./diagnostics_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const tables = diagnosticsTables(misfitDiagnostics(gateA));
 * deepEqual(tables.map((t) => t.rows.length), [14, 10, 11]);
 * deepEqual(tables[0]!.caption, "OLS coefficient beside AMCE (reward)");
 * ```
 */
export function diagnosticsTables(
  d: MisfitDiagnostics,
  columns: readonly NamedColumn[] = [],
): Table[] {
  const names = columnNames(columns);
  const name = (id: string) => names.get(id) ?? id;
  const amce: Table = {
    caption: `OLS coefficient beside AMCE (${d.metric})`,
    label: "tab:amce",
    columns: [
      { label: columns.length > 0 ? "chunk" : "version" },
      { label: COEFFICIENT, align: "right" },
      { label: "AMCE", align: "right" },
      { label: "SE (AMCE)", align: "right" },
      { label: "gap", align: "right" },
    ],
    rows: d.amce.map((r) => [
      name(r.version_id),
      formatEstimate(r.beta),
      formatEstimate(r.amce),
      formatEstimate(r.amce_se),
      formatEstimate(r.gap),
    ]),
    notes: [
      "AMCE: mean delta with the version present minus mean delta with its slot absent; " +
      `gap: ${COEFFICIENT} minus AMCE.`,
    ],
  };
  const top = [...d.interactions.pairs]
    .filter((p) => p.testable)
    .sort((a, b) => a.p_value! - b.p_value!)
    .slice(0, 10);
  const joint = d.interactions.joint;
  const interactions: Table = {
    caption: `Interaction screen (${d.metric}): ten smallest p-values`,
    label: "tab:interactions",
    columns: [
      { label: "pair" },
      { label: "product coefficient", align: "right" },
      { label: `SE (${d.interactions.covariance})`, align: "right" },
      { label: "p", align: "right" },
      { label: "p (Holm)", align: "right" },
    ],
    rows: top.map((p) => [
      `${name(p.a)} ×\n${name(p.b)}`,
      formatEstimate(p.gamma),
      formatEstimate(p.se),
      formatP(p.p_value),
      formatP(p.p_holm),
    ]),
    notes: [
      `${d.interactions.covariance} Wald F per pair, Holm over ${
        d.interactions.pairs.filter((p) => p.testable).length
      } testable pairs at ${d.interactions.alpha}; flagged (Holm p below ${d.interactions.alpha}): ${
        d.interactions.pairs.filter((p) => p.flagged).length
      }.`,
      joint
        ? `Joint test of all products: F(${joint.df1}, ${joint.df2}) = ${
          formatStatistic(joint.f)
        }, ${pInProse(joint.p_value)}.`
        : "Joint test not available (too few rows or singular).",
    ],
  };
  const residuals: Table = {
    caption: `Residuals by number of chunks present (${d.metric})`,
    label: "tab:residuals-by-count",
    columns: [
      { label: "chunks present", align: "right" },
      { label: "n", align: "right" },
      { label: "mean residual", align: "right" },
      { label: "SD", align: "right" },
    ],
    rows: d.residuals_by_count.map((r) => [
      formatCount(r.count),
      formatCount(r.n),
      formatEstimate(r.mean),
      formatEstimate(r.sd),
    ]),
  };
  return [amce, interactions, residuals];
}
