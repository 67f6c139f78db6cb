/**
 * One table model, two renderings: Markdown (pipe table) and LaTeX
 * (booktabs). Cells are preformatted strings; number formatting happens in
 * {@linkcode formatNumber} and {@linkcode formatInterval} so precision is
 * stated once per table.
 *
 * @module
 */

/** A column of a {@linkcode Table}. */
export interface TableColumn {
  readonly label: string;
  /** @default {"left"} */
  readonly align?: "left" | "right" | "center";
}

/** A rendered-ready table: header, string cells, caption and notes. */
export interface Table {
  readonly caption: string;
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table (conventions, seeds, hashes). */
  readonly notes?: readonly string[];
  /** LaTeX label, e.g. `tab:coefficients`. */
  readonly label?: string;
}

/**
 * Fixed-point formatting with `digits` decimals; `null`/NaN render as an
 * em dash, and negative zero as zero.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatNumber(0.123456, 3), "0.123");
 * deepEqual(formatNumber(-0.0001, 3), "0.000");
 * deepEqual(formatNumber(null, 3), "—");
 * ```
 */
export function formatNumber(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/**
 * An interval as `[lo, hi]` with `digits` decimals.
 *
 * @example
 * ```ts
 * import { formatInterval } from "./table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatInterval([-0.0123, 0.2], 3), "[-0.012, 0.200]");
 * ```
 */
export function formatInterval(
  interval: readonly [number, number] | readonly number[] | null | undefined,
  digits: number,
): string {
  if (!interval) return "—";
  return `[${formatNumber(interval[0], digits)}, ${formatNumber(interval[1], digits)}]`;
}

function escapeMarkdown(cell: string): string {
  return cell.replaceAll("|", "\\|").replaceAll("\n", " ");
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
    `**${table.caption}**`,
    "",
    `| ${table.columns.map((c) => escapeMarkdown(c.label)).join(" | ")} |`,
    `| ${table.columns.map((c) => align[c.align ?? "left"]).join(" | ")} |`,
    ...table.rows.map((row) => `| ${row.map(escapeMarkdown).join(" | ")} |`),
  ];
  if (table.notes && table.notes.length > 0) lines.push("", ...table.notes.map((n) => `_${n}_`));
  return lines.join("\n") + "\n";
}

const LATEX_SPECIALS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  "$": "\\$",
  "#": "\\#",
  "_": "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "—": "---",
  "−": "$-$",
};

/** Escapes LaTeX special characters in plain text. */
export function escapeLatex(text: string): string {
  return text.replace(/[\\&%$#_{}~^—−]/g, (ch) => LATEX_SPECIALS[ch]!);
}

/**
 * Renders a LaTeX `table` environment with booktabs rules.
 *
 * @example
 * ```ts
 * import { toLatex } from "./table.ts";
 * import { ok } from "node:assert/strict";
 * const tex = toLatex({ caption: "Coefficients of r_strict", columns: [{ label: "version" }, { label: "beta", align: "right" }], rows: [["c_1", "0.100"]] });
 * ok(tex.includes("\\toprule") && tex.includes("c\\_1 & 0.100 \\\\"));
 * ```
 */
export function toLatex(table: Table): string {
  const spec = table.columns.map((c) => (c.align ?? "left")[0]).join("");
  const lines = [
    "\\begin{table}[htbp]",
    "\\centering",
    `\\caption{${escapeLatex(table.caption)}}`,
    ...(table.label ? [`\\label{${table.label}}`] : []),
    `\\begin{tabular}{${spec}}`,
    "\\toprule",
    table.columns.map((c) => escapeLatex(c.label)).join(" & ") + " \\\\",
    "\\midrule",
    ...table.rows.map((row) => row.map(escapeLatex).join(" & ") + " \\\\"),
    "\\bottomrule",
    "\\end{tabular}",
  ];
  if (table.notes && table.notes.length > 0) {
    lines.push(...table.notes.map((n) => `\\par\\footnotesize ${escapeLatex(n)}`));
  }
  lines.push("\\end{table}");
  return lines.join("\n") + "\n";
}
