/**
 * The figure model: what a rendered figure is, for the report's sections, the
 * figure files and the paper. The renderers of lib/figures make them; this
 * floor only describes them, so tables and sections never import a renderer.
 *
 * @module
 */

/** A rendered figure: a file-friendly name, its title and standalone SVG text. */
export interface Figure {
  /** File stem, e.g. `forest_reward`; used for `<name>.svg` and `<name>.png`. */
  readonly name: string;
  /** Human-readable title, drawn at the top of the SVG and used as a heading. */
  readonly title: string;
  /** Standalone SVG document text (xmlns set, no external references). */
  readonly svg: string;
  /** The lines under the title that explain the encodings (in a paper: the caption's). */
  readonly legend?: readonly string[];
  /** The figure as a paper includes it (see {@linkcode PaperFigure}). */
  readonly paper?: PaperFigure;
}

/**
 * A figure for LaTeX: the same plot with no title or legend lines (the
 * caption carries them) and its text enlarged so that, included at the
 * width it is meant for, no text is smaller than `PAPER_MIN_PT` (7 pt, lib/figures/render.ts).
 */
export interface PaperFigure {
  /** Standalone SVG text (no title band). */
  readonly svg: string;
  /** `column`: `\columnwidth` of a two-column page; `text`: `\textwidth` (a `figure*`). */
  readonly span: "column" | "text";
  /** The smallest text at the narrowest such width, in pt. */
  readonly minTextPt: number;
}
