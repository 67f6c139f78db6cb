/**
 * The table model every rendering reads (lib/table/table.ts: Markdown and
 * LaTeX; lib/report/html_table.ts: HTML), in a file of its own so the LaTeX
 * layout (latex_model.ts) and the renderers share it without a cycle.
 *
 * @module
 */

/** A column of a {@linkcode Table}. */
export interface TableColumn {
  /** Header text. */
  readonly label: string;
  /** Cell alignment. @default {"left"} */
  readonly align?: "left" | "right" | "center";
}

/**
 * A note under a table: plain text, or text with its own LaTeX (used for a
 * formula, which LaTeX sets in math mode).
 */
export type TableNote = string | { readonly text: string; readonly latex: string };

/**
 * A rendered-ready table: header, string cells, caption and notes. A `\n`
 * in a cell is a preferred line break: LaTeX breaks there, Markdown prints
 * a space, HTML a line break.
 */
export interface Table {
  /** Caption above the table. */
  readonly caption: string;
  /** Header cells, one per column. */
  readonly columns: readonly TableColumn[];
  /** Body rows of string cells, one per column. */
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table (conventions, seeds, hashes). */
  readonly notes?: readonly TableNote[];
  /** LaTeX label, e.g. `tab:coefficients`. */
  readonly label?: string;
}
