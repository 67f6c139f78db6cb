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
const SUBTITLE_LINE = 15;
// Widths of a bold 13 px and a regular 11 px sans-serif glyph, on the wide
// side (capitals and digits), so text estimated to fit does fit.
const TITLE_GLYPH = 8.2;
const SUBTITLE_GLYPH = 6.4;

/** Splits text into lines of at most `chars` characters at spaces. */
function wrapText(text: string, chars: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= chars) {
      lines[lines.length - 1] = `${last} ${word}`;
    } else lines.push(word);
  }
  return lines;
}

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
 * `subtitle` lines, drawn under the title and wrapped to the figure's
 * width, explain the figure's encodings (the figure's legend).
 */
export function renderPlot(
  name: string,
  title: string,
  options: Plot.PlotOptions,
  subtitle: readonly string[] = [],
): Figure {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new RangeError(
      `Cannot render figure "${name}": a figure name may only hold letters, digits, "_", "." and "-"`,
    );
  }
  const { document } = parseHTML("<!DOCTYPE html><html><body></body></html>");
  // SVG text does not wrap: widen the figure so the title fits; subtitles
  // (the legend of every encoding) wrap to the width.
  const width0 = Math.max(options.width ?? 640, Math.ceil(24 + TITLE_GLYPH * title.length));
  const plot = Plot.plot({ ...options, width: width0, document: document as unknown as Document });
  if (plot.tagName.toLowerCase() !== "svg") {
    throw new Error(
      `Cannot render figure "${name}": Plot returned <${plot.tagName}> instead of <svg>`,
    );
  }
  const width = Number(plot.getAttribute("width"));
  const height = Number(plot.getAttribute("height"));
  const subtitleLines = subtitle.flatMap((line) =>
    wrapText(line, Math.floor((width - 24) / SUBTITLE_GLYPH))
  );
  const band = TITLE_HEIGHT + SUBTITLE_LINE * subtitleLines.length +
    (subtitleLines.length > 0 ? 4 : 0);
  const totalHeight = height + band;
  // linkedom does not escape attribute values, so user text (the title)
  // only goes into text nodes. Move Plot's content into a group shifted down by the title band; the
  // outer element keeps Plot's class (its stylesheet) and text attributes.
  const body = document.createElementNS(SVG_NS, "g");
  body.setAttribute("transform", `translate(0,${band})`);
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
  const notes = subtitleLines.map((line, i) => {
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", "8");
    text.setAttribute("y", String(TITLE_HEIGHT + 8 + SUBTITLE_LINE * i));
    text.setAttribute("text-anchor", "start");
    text.setAttribute("font-size", "11");
    text.setAttribute("fill", "#555");
    text.setAttribute("class", "subtitle");
    text.textContent = line;
    return text;
  });
  plot.append(label, background, heading, ...notes, body);
  plot.setAttribute("xmlns", SVG_NS);
  plot.setAttribute("height", String(totalHeight));
  plot.setAttribute("viewBox", `0 0 ${width} ${totalHeight}`);
  plot.setAttribute("role", "img");
  plot.setAttribute("data-figure", name);
  return { name, title, svg: plot.outerHTML };
}
