import type { AppendixSection } from "../paper/appendix.ts";
import { type Displayable, displayAll } from "./display.ts";

/**
 * An appendix section for notebook display: its title, tables and figures
 * in order, as one HTML block (`displayAll`).
 *
 * @param section A section from `appendixSection`.
 * @returns A displayable value.
 *
 * @example
 * ```ts
 * import { displaySection } from "./display_section.ts";
 * import { JUPYTER_DISPLAY } from "./display.ts";
 * import { ok } from "node:assert/strict";
 * const html = displaySection({ id: "s", title: "Study", name: "Study", tables: [], figures: [{ name: "f", title: "F", svg: "<svg/>" }] })[JUPYTER_DISPLAY]()["text/html"]!;
 * ok(html.startsWith("<h3>Study</h3>") && html.includes("<svg/>"));
 * ```
 */
export function displaySection(section: AppendixSection): Displayable {
  return displayAll([section.title, ...section.tables, ...section.figures]);
}
