/**
 * The report section of a gate analysis (or of pooled rounds):
 * contributions.json and selection.json as the HTML report (and a
 * notebook's `displaySection`) shows them.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import type { Figure } from "../table/figure.ts";
import type { ReportSection, ReportSubheading, SectionKind } from "../table/section.ts";
import type { ContributionsJson, SelectionJson } from "../contract/outputs/mod.ts";
import { stabilityTable } from "./bootstrap_tables.ts";
import {
  metricMeansTable,
  overviewTable,
  primaryCoefficientTable,
  selectionTable,
  unverifiableTable,
} from "./tables.ts";
import { analysisFigures, bootstrapStability } from "./figures.ts";

/** What {@linkcode analysisSection} shows: the parsed files, either may be missing. */
export interface AnalysisSectionInput {
  readonly contributions: ContributionsJson | null;
  readonly selection: SelectionJson | null;
}

/**
 * The section of a gate analysis: overview, checks not made, means per
 * metric, the delta-by-count figure, the forest and the selection metric's
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
  const figure = (name: string): Figure[] => (figures.has(name) ? [figures.get(name)!] : []);
  const items: (Table | Figure | ReportSubheading)[] = [];
  const gates = contributions?.gates?.map((g) => g.gate_id) ?? [];
  const pooled = gates.length > 1;
  if (contributions) {
    const metric = selection?.metric ??
      (contributions.metrics["reward"] ? "reward" : Object.keys(contributions.metrics)[0]);
    items.push(
      overviewTable(contributions),
      ...unverifiableTable(contributions.unverifiable),
      metricMeansTable(contributions),
      ...figure("delta_by_count"),
      { subheading: "Coefficients" },
      ...figure("forest"),
    );
    const primary = primaryCoefficientTable(contributions, metric);
    if (primary) items.push(primary);
  }
  if (selection) {
    items.push({ subheading: "Selection" }, selectionTable(selection));
    items.push(...figure("selection_stability"));
    const stability = contributions ? bootstrapStability(contributions) : null;
    if (stability && stability.metric === selection.metric && contributions) {
      items.push(stabilityTable(stability, contributions.columns));
    }
  }
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
