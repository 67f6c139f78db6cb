/**
 * The report's section model, shared by every stage's `section(doc)` and by
 * the HTML report that lays the sections out (lib/report/report.ts): a
 * section is a heading, then tables, figures and subheadings in order,
 * with the output directory and files it shows.
 *
 * @module
 */
import type { Table } from "./table.ts";
import type { Figure } from "./figure.ts";

/** A subheading inside a section. */
export interface ReportSubheading {
  /** The subheading's text. */
  readonly subheading: string;
}

/**
 * What a section holds, in the order a paper reads (the report orders
 * sections by the bundles' kinds, `SECTION_ORDER` of lib/report/bundles.ts).
 */
export type SectionKind =
  | "gate"
  | "pooled"
  | "sequential"
  | "history"
  | "heldout"
  | "power"
  | "gate_b"
  | "ladder"
  | "study"
  | "reward"
  | "audit";

/** One section of the report: a heading, then tables, figures and subheadings in order. */
export interface ReportSection {
  /** What the section holds (its place in the report's order: `SECTION_ORDER`, lib/report/bundles.ts). */
  readonly kind: SectionKind;
  /** The section's heading. */
  readonly heading: string;
  /** Its tables, figures and subheadings, in reading order. */
  readonly items: readonly (Table | Figure | ReportSubheading)[];
  /** The output directory the section comes from. */
  readonly dir: string;
  /** The input files (names in `dir`) the section shows. */
  readonly files: readonly string[];
}

/**
 * A section's tables and figures from its stage's `tables(doc)` and
 * `figures(doc)`: the tables in order, each followed by the figures
 * `after` places behind it (table label to figure names), then every
 * figure not placed. A table or figure added to the stage's lists shows in
 * its section with no edit of the section.
 *
 * @param tables The stage's tables of the document.
 * @param figures Its figures.
 * @param after Table label to the names of the figures that follow it.
 * @returns The items, every table and figure once.
 *
 * @example
 * ```ts
 * import { sectionItems } from "./section.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = (label: string) => ({ caption: label, label, columns: [], rows: [] });
 * const f = (name: string) => ({ name, title: name, svg: "<svg/>" });
 * const items = sectionItems([t("tab:a"), t("tab:b")], [f("y"), f("x")], { "tab:a": ["x"] });
 * deepEqual(items.map((i) => "svg" in i ? i.name : i.label), ["tab:a", "x", "tab:b", "y"]);
 * ```
 */
export function sectionItems(
  tables: readonly Table[],
  figures: readonly Figure[],
  after: Readonly<Record<string, readonly string[]>> = {},
): (Table | Figure)[] {
  const byName = new Map(figures.map((f) => [f.name, f]));
  const shown = new Set<string>();
  const items: (Table | Figure)[] = [];
  for (const table of tables) {
    items.push(table);
    for (const name of after[table.label ?? ""] ?? []) {
      const figure = byName.get(name);
      if (figure !== undefined && !shown.has(name)) {
        items.push(figure);
        shown.add(name);
      }
    }
  }
  return [...items, ...figures.filter((f) => !shown.has(f.name))];
}
