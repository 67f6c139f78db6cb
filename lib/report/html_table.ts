/**
 * HTML rendering of the shared {@linkcode Table} model (the third
 * rendering next to Markdown and LaTeX in lib/table/table.ts).
 *
 * @module
 */
import { noteText, type Table } from "../table/table.ts";
import { escapeHtml } from "./escape_html.ts";

/**
 * Prints a negative number with a true minus sign (U+2212) instead of the
 * ASCII hyphen the shared formatter writes (which the exports keep): a
 * hyphen before a digit (or `.digit`) at the start or after a space,
 * bracket, comma, semicolon or `=`. Hyphens inside names and dates
 * (`ws-val-0117`, `2026-11-30`) stay.
 *
 * @example
 * ```ts
 * import { trueMinus } from "./html_table.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(trueMinus("-0.020 [-0.110, 0.080]"), "\u22120.020 [\u22120.110, 0.080]");
 * deepEqual(trueMinus("ws-val-0117 on 2026-11-30"), "ws-val-0117 on 2026-11-30");
 * ```
 */
export function trueMinus(text: string): string {
  return text.replace(/(^|[\s(\[,;=])-(?=\.?\d)/g, "$1\u2212");
}

/** Options of {@linkcode toHtmlTable}. */
export interface HtmlTableOptions {
  /**
   * Set each cell's alignment as an inline style too, not only as a class.
   * @default {false}
   */
  readonly inlineAlign?: boolean;
}

/**
 * Renders a table as an HTML `<table>` with caption, header, body and the
 * notes in a `<tfoot>`; column alignment becomes a `class` (`l`, `r`, `c`).
 *
 * @param table The table model.
 * @param options `inlineAlign`: also set `style="text-align: ..."` on every
 *   cell, for pages without the report's stylesheet (Jupyter outputs, whose
 *   own CSS right-aligns every cell).
 * @returns HTML text (no surrounding document).
 *
 * @example
 * ```ts
 * import { toHtmlTable } from "./html_table.ts";
 * import { ok } from "node:assert/strict";
 * const html = toHtmlTable({ caption: "T", columns: [{ label: "a" }, { label: "b", align: "right" }], rows: [["x<", "1"]] });
 * ok(html.includes("<caption>T</caption>") && html.includes('<td class="l">x&lt;</td><td class="r">1</td>'));
 * const inline = toHtmlTable({ caption: "T", columns: [{ label: "a" }], rows: [["x"]] }, { inlineAlign: true });
 * ok(inline.includes('<td class="l" style="text-align: left">x</td>'));
 * const noted = toHtmlTable({ caption: "T", columns: [{ label: "a" }], rows: [], notes: ["n"] }, { inlineAlign: true });
 * ok(noted.includes('<tfoot><tr><td colspan="1" style="text-align: left">n</td>'));
 * ```
 */
export function toHtmlTable(table: Table, options: HtmlTableOptions = {}): string {
  const align = table.columns.map((c) => c.align ?? "left");
  const attrs = (j: number) => {
    const a = align[j] ?? "left";
    return options.inlineAlign ? `class="${a[0]}" style="text-align: ${a}"` : `class="${a[0]}"`;
  };
  const head = table.columns
    .map((c, j) => `<th ${attrs(j)} scope="col">${escapeHtml(c.label)}</th>`)
    .join("");
  const body = table.rows
    .map((row) =>
      `<tr>${
        row.map((cell, j) =>
          `<td ${attrs(j)}>${trueMinus(escapeHtml(cell)).replaceAll("\n", "<br>")}</td>`
        )
          .join("")
      }</tr>`
    )
    .join("\n");
  const notes = table.notes && table.notes.length > 0
    ? `\n<tfoot><tr><td colspan="${table.columns.length}"${
      options.inlineAlign ? ' style="text-align: left"' : ""
    }>${table.notes.map((n) => trueMinus(escapeHtml(noteText(n)))).join("<br>")}</td></tr></tfoot>`
    : "";
  const id = table.label ? ` id="${escapeHtml(table.label)}"` : "";
  return `<table${id}>\n<caption>${
    escapeHtml(table.caption)
  }</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>${notes}\n</table>`;
}
