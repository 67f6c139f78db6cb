/**
 * Notebook display: tables and figures as objects the Deno Jupyter kernel
 * renders (through the `Symbol.for("Jupyter.display")` protocol), so a cell
 * ends with one expression and shows HTML, Markdown or SVG.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { toLatex, toMarkdown } from "../table/table.ts";
import type { Figure } from "../table/figure.ts";
import { toHtmlTable } from "./html_table.ts";
import { escapeHtml } from "./escape_html.ts";

/** The symbol the Deno kernel looks up to display a value (`Deno.jupyter.$display`). */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

/** A value the Deno kernel displays as a rich media bundle. */
export interface Displayable {
  /** Returns the MIME bundle, e.g. `{"text/html": ..., "text/plain": ...}`. */
  [JUPYTER_DISPLAY](): Record<string, string>;
}

/**
 * Wraps a MIME bundle so the kernel displays it when it is a cell's value.
 *
 * @param bundle MIME type to contents.
 * @returns A displayable value.
 *
 * @example
 * ```ts
 * import { displayBundle, JUPYTER_DISPLAY } from "./display.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(displayBundle({ "text/plain": "x" })[JUPYTER_DISPLAY](), { "text/plain": "x" });
 * ```
 */
export function displayBundle(bundle: Readonly<Record<string, string>>): Displayable {
  return { [JUPYTER_DISPLAY]: () => ({ ...bundle }) };
}

/**
 * A table for notebook display: HTML for the notebook (optionally with
 * its LaTeX source), Markdown and plain text as fallbacks.
 *
 * @param table The table model.
 * @param options Whether to add the LaTeX source.
 * @returns A displayable value.
 *
 * @example
 * ```ts
 * import { displayTable, JUPYTER_DISPLAY } from "./display.ts";
 * import { ok } from "node:assert/strict";
 * const bundle = displayTable({ caption: "T", columns: [{ label: "a" }], rows: [["1"]] })[JUPYTER_DISPLAY]();
 * ok(bundle["text/html"]!.startsWith("<table") && bundle["text/markdown"]!.includes("| 1 |"));
 * ```
 */
export function displayTable(table: Table, options: DisplayTableOptions = {}): Displayable {
  const markdown = toMarkdown(table);
  const latex = options.latex
    ? `\n<details><summary>LaTeX</summary><pre>${escapeHtml(toLatex(table))}</pre></details>`
    : "";
  return displayBundle({
    "text/html": toHtmlTable(table, { inlineAlign: true }) + latex,
    "text/markdown": markdown,
    "text/plain": markdown,
  });
}

/** Options of {@linkcode displayTable}. */
export interface DisplayTableOptions {
  /**
   * Also show the LaTeX (booktabs) source, collapsed, for pasting into a paper.
   * @default {false}
   */
  readonly latex?: boolean;
}

/**
 * A figure for notebook display: inline SVG (as `image/svg+xml`) with its
 * title as plain-text fallback.
 *
 * @param figure A rendered figure.
 * @returns A displayable value.
 *
 * @example
 * ```ts
 * import { displayFigure, JUPYTER_DISPLAY } from "./display.ts";
 * import { deepEqual } from "node:assert/strict";
 * const bundle = displayFigure({ name: "f", title: "F", svg: "<svg/>" })[JUPYTER_DISPLAY]();
 * deepEqual(bundle, { "image/svg+xml": "<svg/>", "text/plain": "[figure] F" });
 * ```
 */
export function displayFigure(figure: Figure): Displayable {
  return displayBundle({ "image/svg+xml": figure.svg, "text/plain": `[figure] ${figure.title}` });
}

/**
 * Several tables and figures shown as one HTML block, in order.
 *
 * @param items Tables, figures or headings (plain strings become `<h3>`).
 * @returns A displayable value.
 *
 * @example
 * ```ts
 * import { displayAll, JUPYTER_DISPLAY } from "./display.ts";
 * import { ok } from "node:assert/strict";
 * const html = displayAll(["Heading", { name: "f", title: "F", svg: "<svg/>" }])[JUPYTER_DISPLAY]()["text/html"]!;
 * ok(html.includes("<h3>Heading</h3>") && html.includes("<svg/>"));
 * ```
 */
export function displayAll(items: readonly (Table | Figure | string)[]): Displayable {
  const html: string[] = [];
  const text: string[] = [];
  for (const item of items) {
    if (typeof item === "string") {
      html.push(`<h3>${escapeHtml(item)}</h3>`);
      text.push(item);
    } else if ("svg" in item) {
      html.push(`<div class="figure">${item.svg}</div>`);
      text.push(`[figure] ${item.title}`);
    } else {
      html.push(toHtmlTable(item, { inlineAlign: true }));
      text.push(toMarkdown(item));
    }
  }
  return displayBundle({ "text/html": html.join("\n"), "text/plain": text.join("\n") });
}
