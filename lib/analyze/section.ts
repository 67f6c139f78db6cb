/**
 * The report section of a gate analysis (or of pooled rounds):
 * contributions.json and selection.json as the HTML report (and a
 * notebook's `displaySection`) shows them.
 *
 * @module
 */
import type { Figure } from "../table/figure.ts";
import type { ReportSection, ReportSubheading, SectionKind } from "../table/section.ts";
import { type AnalysisShownInput, analysisTablesShown } from "./tables.ts";
import { analysisFigures } from "./figures.ts";
import type { Table } from "../table/table.ts";

/** What {@linkcode analysisSection} shows: the parsed files, either may be missing. */
export type AnalysisSectionInput = AnalysisShownInput;

/** A figure (by its name in `analysisFigures`) or a subheading, placed beside a table. */
type Placed = { readonly figure: string } | ReportSubheading;

/**
 * What the section places around the tables of `analysisTablesShown`, by
 * the table's id: the delta-by-count figure, the coefficients' subheading
 * and the forest after the means per metric; the selection's subheading
 * before it and its stability figure after it. A figure the analysis does
 * not have is left out; a table without an entry stands alone.
 */
const AROUND: Readonly<
  Record<string, { readonly before?: readonly Placed[]; readonly after?: readonly Placed[] }>
> = {
  metric_means: {
    after: [{ figure: "delta_by_count" }, { subheading: "Coefficients" }, { figure: "forest" }],
  },
  selection: { before: [{ subheading: "Selection" }], after: [{ figure: "selection_stability" }] },
};

/**
 * The section of a gate analysis: the tables of `analysisTablesShown`
 * (lib/analyze/tables.ts) in its order, with the figures and subheadings
 * placed around them by id: overview, checks not made, means per metric,
 * the delta-by-count figure, the forest and the selection metric's
 * coefficient table, then the selection with its stability (figure and
 * table) when the bootstrap ran. Pooled rounds (several gates) are a
 * `pooled` section, one gate a `gate` section.
 *
 * @param doc The parsed contributions.json and selection.json.
 * @param dir The output directory they come from.
 * @returns The section, or null when the directory holds neither file.
 *
 * @example
 * ```ts
 * import { analysisSection } from "./section.ts";
 * import { equal } from "node:assert/strict";
 * equal(analysisSection({ contributions: null, selection: null }, "out"), null);
 * ```
 */
export function analysisSection(doc: AnalysisSectionInput, dir: string): ReportSection | null {
  const { contributions, selection } = doc;
  if (!contributions && !selection) return null;
  const figures = new Map(
    (contributions ? analysisFigures({ contributions, selection }) : []).map((f) => [f.name, f]),
  );
  const placed = (p: Placed): (Figure | ReportSubheading)[] =>
    "subheading" in p ? [p] : figures.has(p.figure) ? [figures.get(p.figure)!] : [];
  const items: (Table | Figure | ReportSubheading)[] = [];
  for (const { id, table } of analysisTablesShown(doc)) {
    items.push(...(AROUND[id]?.before ?? []).flatMap(placed), table);
    items.push(...(AROUND[id]?.after ?? []).flatMap(placed));
  }
  const gates = contributions?.gates?.map((g) => g.gate_id) ?? [];
  const pooled = gates.length > 1;
  const kind: SectionKind = pooled ? "pooled" : "gate";
  return {
    kind,
    heading: (pooled ? "Pooled rounds" : "Gate analysis") +
      (gates.length > 0 ? ` (${gates.join(" + ")})` : ""),
    items,
    dir,
    files: [
      ...(contributions ? ["contributions.json"] : []),
      ...(selection ? ["selection.json"] : []),
    ],
  };
}
