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
