/// <reference lib="dom" />
/**
 * Headless rendering of Observable Plot into standalone SVG text (private).
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";

const SVG_NS = "http://www.w3.org/2000/svg";
const TITLE_HEIGHT = 26;

/** A rendered figure: a file-friendly name, its title and standalone SVG text. */
export interface Figure {
  /** File stem, e.g. `forest_reward`; used for `<name>.svg` and `<name>.png`. */
  readonly name: string;
  /** Human-readable title, drawn at the top of the SVG and used as a heading. */
  readonly title: string;
  /** Standalone SVG document text (xmlns set, no external references). */
  readonly svg: string;
}

/** Escapes text for an XML text node or attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * Renders Plot options into a standalone SVG with a visible title. The
 * options must not ask for a Plot title, caption or legend (those make Plot
 * return an HTML `<figure>`), nor use `clip` (Plot numbers clip paths with a
 * process-wide counter, which would make output depend on call order).
 */
export function renderPlot(name: string, title: string, options: Plot.PlotOptions): Figure {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new RangeError(
      `Cannot render figure "${name}": a figure name may only hold letters, digits, "_", "." and "-"`,
    );
  }
  const { document } = parseHTML("<!DOCTYPE html><html><body></body></html>");
  // SVG text does not wrap: widen the figure so the title fits (about 7.5 px per bold 13 px glyph).
  const width0 = Math.max(options.width ?? 640, Math.ceil(16 + 7.5 * title.length));
  const plot = Plot.plot({ ...options, width: width0, document: document as unknown as Document });
  if (plot.tagName.toLowerCase() !== "svg") {
    throw new Error(
      `Cannot render figure "${name}": Plot returned <${plot.tagName}> instead of <svg>`,
    );
  }
  const width = Number(plot.getAttribute("width"));
  const height = Number(plot.getAttribute("height"));
  const totalHeight = height + TITLE_HEIGHT;
  // linkedom does not escape attribute values, so user text (the title)
  // only goes into text nodes. Move Plot's content into a group shifted down by the title band; the
  // outer element keeps Plot's class (its stylesheet) and text attributes.
  const body = document.createElementNS(SVG_NS, "g");
  body.setAttribute("transform", `translate(0,${TITLE_HEIGHT})`);
  while (plot.firstChild) body.appendChild(plot.firstChild);
  const heading = document.createElementNS(SVG_NS, "text");
  heading.setAttribute("x", "8");
  heading.setAttribute("y", "18");
  heading.setAttribute("text-anchor", "start");
  heading.setAttribute("font-size", "13");
  heading.setAttribute("font-weight", "bold");
  heading.textContent = title;
  const label = document.createElementNS(SVG_NS, "title");
  label.textContent = title;
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "white");
  plot.append(label, background, heading, body);
  plot.setAttribute("xmlns", SVG_NS);
  plot.setAttribute("height", String(totalHeight));
  plot.setAttribute("viewBox", `0 0 ${width} ${totalHeight}`);
  plot.setAttribute("role", "img");
  plot.setAttribute("data-figure", name);
  return { name, title, svg: plot.outerHTML };
}
