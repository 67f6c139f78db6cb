/**
 * One table model, three renderings: Markdown (pipe table), LaTeX (booktabs,
 * here) and HTML (lib/report/html_table.ts). Cells are preformatted strings
 * made by lib/table/format.ts, so a quantity prints the same everywhere.
 *
 * @module
 */
export { formatInterval, formatNumber } from "./format.ts";
import { type LatexColumn, type LatexModel, latexModel } from "./latex_model.ts";
import { breakPieces } from "./latex_breaks.ts";
import type { Table, TableColumn, TableNote } from "./table_model.ts";
export type { Table, TableColumn, TableNote } from "./table_model.ts";

/** The plain-text form of a note (Markdown, HTML). */
export function noteText(note: TableNote): string {
  return typeof note === "string" ? note : note.text;
}

/**
 * Escapes a cell for a GitHub-flavoured Markdown table: `|` and line breaks,
 * and anything the Markdown renderer would take as raw HTML (`<` before a
 * letter, `/`, `!` or `?`; `&` starting an entity), so text from the data
 * never becomes markup. `<0.001` stays as it is.
 *
 * @example
 * ```ts
 * import { escapeMarkdown } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(escapeMarkdown("<img src=x onerror=alert(1)> a|b &amp; <0.001"), "&lt;img src=x onerror=alert(1)> a\\|b &amp;amp; <0.001");
 * ```
 */
export function escapeMarkdown(cell: string): string {
  return cell
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, "&amp;")
    .replace(/<(?=[A-Za-z/!?])/g, "&lt;")
    .replaceAll("|", "\\|")
    .replace(/\r\n|\r|\n/g, " ");
}

/**
 * Renders a GitHub-flavoured Markdown pipe table with caption and notes.
 *
 * @example
 * ```ts
 * import { toMarkdown } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * const md = toMarkdown({ caption: "T", columns: [{ label: "a" }, { label: "b", align: "right" }], rows: [["x", "1"]] });
 * deepEqual(md, "**T**\n\n| a | b |\n| :-- | --: |\n| x | 1 |\n");
 * ```
 */
export function toMarkdown(table: Table): string {
  const align = { left: ":--", right: "--:", center: ":-:" } as const;
  const lines = [
    `**${escapeMarkdown(table.caption)}**`,
    "",
    `| ${table.columns.map((c) => escapeMarkdown(c.label)).join(" | ")} |`,
    `| ${table.columns.map((c) => align[c.align ?? "left"]).join(" | ")} |`,
    ...table.rows.map((row) => `| ${row.map(escapeMarkdown).join(" | ")} |`),
  ];
  if (table.notes && table.notes.length > 0) {
    lines.push("", ...table.notes.map((n) => `_${escapeMarkdown(noteText(n))}_`));
  }
  return lines.join("\n") + "\n";
}

const LATEX_SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  // Math mode's dollar, from the roman font: text mode's \$ comes from TS1 (tcrm), a bitmap
  // (Type 3) font where cm-super is not installed, which microtype's expansion then stops on.
  "$": "$\\$$",
  "#": "\\#",
  "_": "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
  "—": "---",
  "–": "--",
  "−": "$-$",
  "×": "$\\times$",
  "≤": "$\\le$",
  "≥": "$\\ge$",
  "±": "$\\pm$",
  "·": "$\\cdot$",
  "…": "\\ldots{}",
  "α": "$\\alpha$",
  "β": "$\\beta$",
  "γ": "$\\gamma$",
  "ρ": "$\\rho$",
  "τ": "$\\tau$",
  "\u00a0": "~",
  "“": "``",
  "”": "''",
  "‘": "`",
  "’": "'",
};

/**
 * Escapes plain text for LaTeX: the ten specials (`\ & % $ # _ { } ~ ^`),
 * `< > |` (which the default font would print as other glyphs), common
 * typographic characters, and a hyphen before a digit after a space becomes
 * a true minus. A `$` prints as math mode's dollar (`$\$$`, the roman
 * font's glyph; text mode's `\$` would need TS1 fonts, bitmaps without
 * cm-super). A control sequence in the data prints as text. Other
 * characters outside ASCII print as `U+XXXX` in typewriter type, because
 * pdflatex's standard fonts lack them and would stop with an error.
 *
 * @example
 * ```ts
 * import { escapeLatex } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(escapeLatex("\\input{x}_1 level -1"), "\\textbackslash{}input\\{x\\}\\_1 level $-$1");
 * deepEqual(escapeLatex("a中"), "a{\\ttfamily U+4E2D}");
 * deepEqual(escapeLatex("verify_v4$"), "verify\\_v4$\\$$");
 * ```
 */
export function escapeLatex(text: string): string {
  let out = "";
  for (const ch of text.replace(/\r\n|\r|\n|\t/g, " ")) {
    const special = LATEX_SPECIALS[ch];
    if (special !== undefined) out += special;
    else if (ch.codePointAt(0)! < 0x20) out += " ";
    else if (ch.codePointAt(0)! > 0x7e) {
      out += `{\\ttfamily U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;
    } else out += ch;
  }
  return out.replace(/(^|[\s([])-(?=\d)/g, "$1$-$");
}

// A whole cell made of numbers: `-0.081`, `<0.001`, `[0.043, 0.173]`,
// `0.108 [0.043, 0.173]`, `3–7`, `12 / 18`, `45.7%`. Such cells are set in
// math mode (true minus, aligned digits).
const NUMERIC_CELL =
  /^[<>]?-?\d[\d.]*%?(?:(?: \[|–| \/ )-?\d[\d.]*%?(?:, -?\d[\d.]*%?\])?)?$|^\[-?\d[\d.]*, -?\d[\d.]*\]$/;

/**
 * One cell as LaTeX: numbers in math mode, anything else escaped text. A
 * cell never starts with `[`, which the previous row's `\\` would read as
 * its optional argument.
 *
 * @example
 * ```ts
 * import { latexCell } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(latexCell("0.108 [-0.043, 0.173]"), "$0.108\\ [-0.043, 0.173]$");
 * deepEqual(latexCell("<0.001"), "$<0.001$");
 * deepEqual(latexCell("[x] 1"), "{}[x] 1");
 * deepEqual(latexCell("3–7"), "$3\\mbox{--}7$");
 * ```
 */
export function latexCell(cell: string, align: TableColumn["align"] = "left"): string {
  if (cell.includes("\n")) {
    // A line break the table asked for: a nested tabular, top-aligned, aligned like the column.
    return `\\begin{tabular}[t]{@{}${align[0]}@{}}${
      cell.split("\n").map((line) => latexCell(line)).join("\\\\ ")
    }\\end{tabular}`;
  }
  if (NUMERIC_CELL.test(cell)) {
    const math = cell.replace(" [", "\\ [").replaceAll("%", "\\%").replace("–", "\\mbox{--}");
    return `$${math}$`;
  }
  const text = escapeLatex(cell);
  return text.startsWith("[") ? `{}${text}` : text;
}

/** A header cell: one line, or a nested `tabular` of (at most two) lines aligned like the column. */
function latexHeader(
  column: { readonly label: string; readonly align?: TableColumn["align"] },
  width: number,
): string {
  const lines = headerLines(column.label, width);
  if (lines.length === 1) return latexCell(column.label);
  const align = (column.align ?? "left")[0];
  return `\\begin{tabular}[b]{@{}${align}@{}}${
    lines.map((line) => latexCell(line)).join("\\\\ ")
  }\\end{tabular}`;
}

/** The single-column width of a two-column page and the text width of a one-column page (pt). */
export const LATEX_WIDTHS = { column: 229.5, text: 345 } as const;

// Widths of Computer Modern Roman 10 pt glyphs (pt), from cmr10.tfm; math
// minus and relations are wider than their text forms. Escaped specials
// take the width of what they print.
const CMR10: Record<string, number> = {
  a: 5,
  b: 5.56,
  c: 4.44,
  d: 5.56,
  e: 4.44,
  f: 3.06,
  g: 5,
  h: 5.56,
  i: 2.78,
  j: 3.06,
  k: 5.28,
  l: 2.78,
  m: 8.33,
  n: 5.56,
  o: 5,
  p: 5.56,
  q: 5.28,
  r: 3.92,
  s: 3.94,
  t: 3.89,
  u: 5.56,
  v: 5.28,
  w: 7.22,
  x: 5.28,
  y: 5.28,
  z: 4.44,
  A: 7.5,
  B: 7.08,
  C: 7.22,
  D: 7.64,
  E: 6.81,
  F: 6.53,
  G: 7.85,
  H: 7.5,
  I: 3.61,
  J: 5.14,
  K: 7.78,
  L: 6.25,
  M: 9.17,
  N: 7.5,
  O: 7.78,
  P: 6.81,
  Q: 7.78,
  R: 7.36,
  S: 5.56,
  T: 7.22,
  U: 7.5,
  V: 7.5,
  W: 10.28,
  X: 7.5,
  Y: 7.5,
  Z: 6.11,
  " ": 3.33,
  ".": 2.78,
  ",": 2.78,
  "-": 3.33,
  "[": 2.78,
  "]": 2.78,
  "(": 3.89,
  ")": 3.89,
  "/": 5,
  "%": 8.33,
  ":": 2.78,
  ";": 2.78,
  "'": 2.78,
  "_": 5,
  "!": 2.78,
  "?": 4.72,
  "=": 7.78,
  "+": 7.78,
  "*": 5,
  "@": 7.78,
  "&": 7.78,
  "#": 8.33,
  "$": 5,
  "\\": 5,
  "{": 5,
  "}": 5,
  "~": 5,
  "^": 5,
  "<": 7.78,
  ">": 7.78,
  "|": 2.78,
  '"': 5,
  "`": 2.78,
  "—": 10,
  "–": 5,
  "−": 7.78,
  "×": 7.78,
  "≤": 7.78,
  "≥": 7.78,
};

/**
 * Estimated natural width (pt, 10 pt Computer Modern) of a cell as
 * {@linkcode latexCell} sets it, on the wide side: each escaped special
 * measured as it prints (`\textbackslash{}` 5 pt, `\_` 3.6 pt, `$-$` 7.78 pt).
 *
 * @example
 * ```ts
 * import { latexCellWidth } from "./table.ts";
 * import { ok } from "node:assert/strict";
 * ok(latexCellWidth("a -1") >= 5 + 3.33 + 7.78 + 5);
 * ```
 */
export function latexCellWidth(cell: string): number {
  return cellWidth(cell);
}

function cellWidth(cell: string): number {
  if (cell.includes("\n")) return Math.max(...cell.split("\n").map(cellWidth));
  const numeric = NUMERIC_CELL.test(cell);
  let w = 0;
  for (const ch of cell) {
    if (/\d/.test(ch)) w += 5;
    else if (numeric && (ch === "-" || ch === "<" || ch === ">")) w += 7.78;
    else if (numeric && ch === ",") w += 4.44; // comma and thin space
    else if (CMR10[ch] !== undefined) w += CMR10[ch]!;
    else if (ch.codePointAt(0)! > 0x7e) w += 34; // printed as U+XXXX in typewriter type
    else w += 10.28; // unknown: as wide as the widest capital
  }
  // In text, escapeLatex sets a hyphen before a digit (at the start, after a space or an
  // opening bracket) as a math minus: 7.78 pt, not a hyphen's 3.33.
  if (!numeric) w += 4.45 * (cell.match(/(^|[\s([])-(?=\d)/g)?.length ?? 0);
  // cmr10 kerns an f away from a following ' ? ! ) ] (0.78 pt); other kerns mostly narrow. The
  // table's widths are rounded to 0.01 pt: count each glyph 0.01 pt wider.
  w += 0.78 * (cell.match(/f(?=['?!)\]])/g)?.length ?? 0) + 0.01 * [...cell].length;
  // ... and a ' away from a following ? or ! (1.11 pt).
  w += 1.11 * (cell.match(/'(?=[?!])/g)?.length ?? 0);
  // A space after . ? ! or : (through closing quotes and brackets) is a sentence's: 1.11 pt wider.
  if (!numeric) w += 1.11 * (cell.match(/[.?!:]['"`)\]]*\s/g)?.length ?? 0);
  return w;
}

/**
 * Splits a header label into lines no wider than the widest data cell of
 * its column (but never narrower than its longest word), so a long header
 * does not set the column's width; never more than two lines (a header
 * that would need more is split in two where its halves are most even).
 */
function headerLines(label: string, dataWidth: number): string[] {
  // A header with its own line breaks keeps them (the table chose them).
  if (label.includes("\n")) return label.split("\n");
  const words = label.split(" ");
  const limit = Math.max(dataWidth, ...words.map(cellWidth));
  const lines: string[] = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && cellWidth(`${last} ${word}`) <= limit) {
      lines[lines.length - 1] = `${last} ${word}`;
    } else lines.push(word);
  }
  if (lines.length <= 2) return lines;
  let best: string[] = [label];
  let bestWidth = Infinity;
  for (let i = 1; i < words.length; i++) {
    const pair = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const width = Math.max(...pair.map(cellWidth));
    if (width < bestWidth) [best, bestWidth] = [pair, width];
  }
  return best;
}

/** The widest data cell of column `j` (pt at 10 pt type). */
function dataWidth(rows: readonly (readonly string[])[], j: number): number {
  let w = 0;
  for (const row of rows) w = Math.max(w, cellWidth(row[j] ?? ""));
  return w;
}

// The space between an interval's two ends (`@{\ }`), in pt at 10 pt type.
const INTERVAL_GAP = 3.33;

/** Estimated width of a LaTeX model's tabular at a font scale and column separation. */
function modelWidth(model: LatexModel, scale: number, tabcolsep: number): number {
  let total = 0;
  model.columns.forEach((column, j) => {
    const data = dataWidth(model.rows, j);
    if (column.part === "lower") {
      // The pair's header spans both ends and the gap between them.
      const pair = data + INTERVAL_GAP + dataWidth(model.rows, j + 1);
      const head = Math.max(...headerLines(column.label, pair).map(cellWidth));
      total += Math.max(pair, head) * scale + 2 * tabcolsep;
      return;
    }
    if (column.part === "upper") return;
    const head = Math.max(...headerLines(column.label, data).map(cellWidth));
    total += Math.max(data, head) * scale + 2 * tabcolsep;
  });
  return total;
}

/** A font size of a LaTeX table with its scale and column separation. */
interface LatexSize {
  readonly command: string;
  readonly scale: number;
  readonly tabcolsep: number;
}

// Scales include the optical sizes: cmr9, cmr8 and cmr7 glyphs are
// relatively wider than cmr10's (about 3%, 6% and 10%).
const SIZES: readonly LatexSize[] = [
  { command: "\\small", scale: 0.93, tabcolsep: 6 },
  { command: "\\footnotesize", scale: 0.85, tabcolsep: 4 },
  { command: "\\scriptsize", scale: 0.77, tabcolsep: 3 },
];

/**
 * Estimated natural width in pt of a table's tabular at a font scale and
 * column separation (conservative: glyph widths of cmr10, uppercase and
 * unknown glyphs as wide as the widest capitals).
 */
export function latexTableWidth(table: Table, scale = 0.9, tabcolsep = 6): number {
  return modelWidth(latexModel(table), scale, tabcolsep);
}

/** How {@linkcode toLatex} lays a table out. */
export interface LatexLayout {
  /** `table` when it fits one column of a two-column page, else `table*`. */
  readonly environment: "table" | "table*";
  /** Font size command. */
  readonly size: string;
  /** Column separation in pt. */
  readonly tabcolsep: number;
  /** Estimated width in pt. */
  readonly width: number;
  /** Whether the estimate fits the environment's width (false only when no size fits). */
  readonly fits: boolean;
}

// Estimates may be a little short of what TeX measures; keep this margin.
const SAFETY = 0.92;

/**
 * Picks the layout of a table: a `table` in `\small` or `\footnotesize`
 * type when it fits one column of a two-column page (229.5 pt); otherwise
 * a `table*` in the largest of `\small`, `\footnotesize` and
 * `\scriptsize` at which it fits the text width of a one-column page
 * (345 pt, narrower than a two-column page's 469 pt).
 *
 * @example
 * ```ts
 * import { latexLayout } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(latexLayout({ caption: "T", columns: [{ label: "a" }], rows: [["1"]] }).environment, "table");
 * ```
 */
export function latexLayout(table: Table): LatexLayout {
  const [small, footnote, script] = SIZES as [LatexSize, LatexSize, LatexSize];
  const candidates: readonly [number, LatexSize][] = [
    [LATEX_WIDTHS.column, small],
    [LATEX_WIDTHS.column, footnote],
    [LATEX_WIDTHS.text, small],
    [LATEX_WIDTHS.text, footnote],
    [LATEX_WIDTHS.text, script],
  ];
  const layout = (limit: number, size: LatexSize): LatexLayout => {
    const width = latexTableWidth(table, size.scale, size.tabcolsep);
    return {
      environment: limit === LATEX_WIDTHS.column ? "table" : "table*",
      size: size.command,
      tabcolsep: size.tabcolsep,
      width,
      fits: width <= SAFETY * limit,
    };
  };
  for (const [limit, size] of candidates) {
    const candidate = layout(limit, size);
    if (candidate.fits) return candidate;
  }
  return layout(LATEX_WIDTHS.text, script);
}

/** The packages every `.tex` table needs in the paper's preamble. */
export const LATEX_PREAMBLE = "\\usepackage{booktabs}";

/**
 * Renders a LaTeX float with booktabs rules that a paper can `\input`
 * (preamble: {@linkcode LATEX_PREAMBLE}). Numbers are set in math mode
 * (true minus), data-derived text is escaped, rows end with `\\` and no
 * cell starts with `[`. The layout comes from {@linkcode latexLayout}:
 * a `table` when the table fits one column of a two-column page, a
 * `table*` (full text width) otherwise, said in a comment above it. Notes
 * are a small ragged-right block under the table.
 *
 * @example
 * ```ts
 * import { toLatex } from "./table.ts";
 * import { ok } from "node:assert/strict";
 * const tex = toLatex({ caption: "Coefficients of r_strict", columns: [{ label: "version" }, { label: "beta", align: "right" }], rows: [["c_1", "-0.100"]] });
 * ok(tex.includes("\\toprule") && tex.includes("c\\_1 & $-0.100$ \\\\"));
 * ```
 */
export function toLatex(table: Table): string {
  const layout = latexLayout(table);
  const model = latexModel(table);
  const spec = model.columns.map((c) =>
    c.part === "lower" ? "r@{\\ }" : c.part === "upper" ? "r" : c.align[0]
  ).join("");
  const cells = model.columns.map((column, j) => columnCells(model, column, j));
  const header = model.columns.flatMap((column, j) => {
    if (column.part === "upper") return [];
    if (column.part === "lower") {
      const pair = dataWidth(model.rows, j) + INTERVAL_GAP + dataWidth(model.rows, j + 1);
      return [
        `\\multicolumn{2}{c}{${latexHeader({ label: column.label, align: "center" }, pair)}}`,
      ];
    }
    return [latexHeader(column, dataWidth(model.rows, j))];
  });
  const lines = [
    ...model.provenance.map((line) => `% provenance: ${commentText(line)}`),
    layout.environment === "table"
      ? `% table: fits one column of a two-column page (about ${
        Math.ceil(layout.width)
      } pt at ${layout.size}); preamble: ${LATEX_PREAMBLE}`
      : `% table*: wider than one column of a two-column page (about ${
        Math.ceil(layout.width)
      } pt at ${layout.size}), spans the full text width; preamble: ${LATEX_PREAMBLE}`,
    `\\begin{${layout.environment}}[tbp]`,
    "\\centering",
    layout.size,
    `\\setlength{\\tabcolsep}{${layout.tabcolsep}pt}`,
    `\\caption{${latexProse(model.caption)}}`,
    ...(model.label ? [`\\label{${model.label.replace(/[^A-Za-z0-9:.-]/g, "-")}}`] : []),
    `\\begin{tabular}{@{}${spec}@{}}`,
    "\\toprule",
    header.join(" & ") + " \\\\",
    "\\midrule",
    ...model.rows.map((_, i) => cells.map((column) => column[i]).join(" & ") + " \\\\"),
    "\\bottomrule",
    "\\end{tabular}",
  ];
  if (model.notes.length > 0) {
    lines.push(
      "\\par\\smallskip",
      `{\\footnotesize\\raggedright ${
        model.notes.map((n) => typeof n === "string" ? latexProse(n) : n.latex).join("\\par\n")
      }\\par}`,
    );
  }
  lines.push(`\\end{${layout.environment}}`);
  return lines.join("\n") + "\n";
}

/** Text for a `%` comment line: one line, no `^^` (TeX's character-code notation). */
function commentText(text: string): string {
  const printable = [...text].map((ch) => (ch.codePointAt(0)! < 0x20 ? " " : ch)).join("");
  return printable.replaceAll("^^", "^ ^");
}

// A plain number (no interval): the decimals it has.
const PLAIN_NUMBER = /^[<>]?-?\d+(?:\.(\d+))?$/;

/**
 * The LaTeX cells of one column: an interval's ends in math mode with their
 * bracket and comma; other cells by {@linkcode latexCell}. In a right-aligned
 * column, a number with fewer decimals than the column's most gets invisible
 * digits (`\hphantom`), so every decimal point lines up.
 */
function columnCells(model: LatexModel, column: LatexColumn, j: number): string[] {
  const raw = model.rows.map((row) => row[j] ?? "");
  if (column.part === "lower" || column.part === "upper") {
    return raw.map((cell) => {
      if (cell === "") return "";
      const math = cell.replaceAll("%", "\\%");
      return column.part === "lower" ? `$${math.slice(0, -1)}$,` : `$${math}$`;
    });
  }
  const decimals = raw.map((cell) => {
    const m = PLAIN_NUMBER.exec(cell);
    return m ? (m[1]?.length ?? 0) : null;
  });
  const most = Math.max(0, ...decimals.filter((d): d is number => d !== null));
  return raw.map((cell, i) => {
    const text = latexCell(cell, column.align);
    const d = decimals[i];
    if (column.align !== "right" || d === null || d === undefined || d >= most) return text;
    const phantom = d === 0 ? `.${"0".repeat(most)}` : "0".repeat(most - d);
    return `${text.slice(0, -1)}\\hphantom{${phantom}}$`;
  });
}

// ASCII math in prose and what LaTeX sets for it.
const PROSE_MATH: Readonly<Record<string, string>> = {
  "->": "$\\to$",
  "-/+": "$\\mp$",
  "+/-": "$\\pm$",
  "alpha": "$\\alpha$",
  "rho": "$\\rho$",
  " - ": " $-$ ",
};

/**
 * Prose (a caption or note) as LaTeX: escaped like {@linkcode escapeLatex},
 * with ASCII math set as math: `->` an arrow, `-/+` and `+/-` the signs,
 * ` - ` between words a minus, `= <0.001` as `<0.001`, `alpha` before a
 * number and Spearman's `rho` the Greek letters, a hyphen before a digit a
 * minus. Ids elsewhere in the text print as themselves.
 *
 * @example
 * ```ts
 * import { latexProse } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(latexProse("alpha 0.05, x -> y, est -/+ 1.96 se, -0.5"), "$\\alpha$ 0.05, x $\\to$ y, est $\\mp$ 1.96 se, $-$0.5");
 * deepEqual(latexProse("a - b: p = <0.001, Spearman's rho"), "a $-$ b: p \\textless{}0.001, Spearman's $\\rho$");
 * ```
 */
export function latexProse(text: string): string {
  const prose = text.replace(/= <(?=\d)/g, "<");
  return prose.split(/(->|-\/\+|\+\/-|\balpha(?= \d)|(?<=Spearman's )rho\b| - )/).map((part, i) =>
    i % 2 === 1 ? PROSE_MATH[part]! : breakableLatex(part)
  ).join("");
}

// A word wider than this (pt at 10 pt type) gets break points: one up to three quarters of the
// narrowest column fits a line of it even set bold (a caption), about 15% wider.
const LONG_WORD = 0.75 * LATEX_WIDTHS.column;
// ... when it holds a special of an id; a word of letters and hyphens TeX breaks itself.
const ID_SPECIAL = /[_\\/{}$#%&~^|<>@=+*]/;

/**
 * Escapes text like {@linkcode escapeLatex}, and lets each long word that
 * holds a special of an id (`_ \ / { } $ # % & ~ ^ | < > @ = + *`) and is
 * over 172 pt wide at 10 pt type (three quarters of a column) break across
 * lines with an `\allowbreak`
 * (no hyphen) after its punctuation and specials and at least every ten
 * characters (lib/table/latex_breaks.ts), so a caption or note never
 * sticks out of a column. Other words print as {@linkcode escapeLatex}
 * prints them (TeX breaks a long word of letters and hyphens itself).
 *
 * @example
 * ```ts
 * import { breakableLatex } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(breakableLatex("by r_format_compliance_v4$_strict_checker"), "by r\\_\\allowbreak{}format\\_\\allowbreak{}compliance\\_\\allowbreak{}v4$\\$$\\allowbreak{}\\_\\allowbreak{}strict\\_\\allowbreak{}checker");
 * deepEqual(breakableLatex("reward (= r_strict), -1"), "reward (= r\\_strict), $-$1");
 * deepEqual(breakableLatex("heteroskedasticity-robust; contributions.json."), "heteroskedasticity-robust; contributions.json.");
 * ```
 */
export function breakableLatex(text: string): string {
  return text.split(/(\s+)/).map((word, i) =>
    i % 2 === 1 || !ID_SPECIAL.test(word) || cellWidth(word) <= LONG_WORD
      ? escapeLatex(word)
      : breakPieces(word).map(escapeLatex).join("\\allowbreak{}")
  ).join("");
}
