/// <reference lib="dom" />
/**
 * Headless rendering of Observable Plot into standalone SVG text (private).
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { parseHTML } from "npm:linkedom@0.18.15";
import { sha256Hex } from "../core/sha256.ts";

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

import type { Figure, PaperFigure } from "../table/figure.ts";
export type { Figure, PaperFigure };

/** The smallest text a paper figure may print, in pt. */
export const PAPER_MIN_PT = 7;

/**
 * Widths a paper figure is sized for (pt): the narrowest column of a
 * two-column page among article, acmart and IEEEtran (article's 229.5 pt)
 * and the narrowest text width (one-column article's 345 pt).
 */
export const PAPER_WIDTHS = { column: 229.5, text: 345 } as const;

// The paper's text is sized with a margin over PAPER_MIN_PT; a column
// figure needs at most this enlargement of its text, else it spans the text.
const PAPER_TARGET_PT = 7.3;
const COLUMN_MAX_SCALE = 1.35;
// Plot's margins where the options leave them out (px at 10 px type).
const PLOT_MARGINS = { marginTop: 24, marginRight: 24, marginBottom: 32, marginLeft: 40 } as const;

/** The font sizes (px) an SVG sets, with Plot's default 10. */
function fontSizes(svg: string): number[] {
  return [10, ...[...svg.matchAll(/font-size="([0-9.]+)"/g)].map((m) => Number(m[1]))];
}

/**
 * The paper form of a plot: fonts and margins enlarged by the factor that
 * brings its smallest text to {@linkcode PAPER_MIN_PT} (with a margin) at
 * the width it is meant for; height grows with the margins and, for rows
 * of text, with the fonts, but the figure never prints taller than 0.8 of
 * its width's 1.3 (about 0.75 of a page's text height).
 */
function paperPlot(options: Plot.PlotOptions, screenSvg: string): PaperFigure {
  const { document } = parseHTML("<!DOCTYPE html><html><body></body></html>");
  const width = options.width ?? 640;
  const height = options.height ?? 400;
  const smallest = Math.min(...fontSizes(screenSvg));
  const scaleAt = (pt: number) => Math.max(1, (PAPER_TARGET_PT * width) / (smallest * pt));
  const span = scaleAt(PAPER_WIDTHS.column) <= COLUMN_MAX_SCALE ? "column" : "text";
  const target = PAPER_WIDTHS[span];
  const k = scaleAt(target);
  const margins = Object.fromEntries(
    Object.entries(PLOT_MARGINS).map(([key, fallback]) => {
      const given = (options as Record<string, unknown>)[key];
      return [key, Math.round((typeof given === "number" ? given : fallback) * k)];
    }),
  );
  const maxHeight = Math.floor((1.3 * width * 0.8 * PAPER_WIDTHS.text) / target);
  const paperHeight = Math.min(maxHeight, Math.round(height * Math.min(k, 1.6)));
  const plot = Plot.plot({
    ...options,
    ...margins,
    width,
    height: paperHeight,
    document,
  });
  plot.setAttribute("xmlns", SVG_NS);
  plot.setAttribute("viewBox", `0 0 ${width} ${plot.getAttribute("height")}`);
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("width", "100%");
  background.setAttribute("height", "100%");
  background.setAttribute("fill", "white");
  plot.insertBefore(background, plot.firstChild);
  const scaled = plot.outerHTML.replace(
    /font-size="([0-9.]+)"/g,
    (_, size: string) => `font-size="${Math.round(Number(size) * k * 10) / 10}"`,
  );
  const minTextPt = (smallest * k * target) / width;
  return { svg: scaled, span, minTextPt: Math.floor(minTextPt * 100) / 100 };
}

/** Escapes text for an XML text node or attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The characters a figure name (a file stem) may hold. */
const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * A figure's file stem for a name the data chose (a reward component, a
 * task type): `prefix + name` as it is when every character is one a stem
 * may hold (letters, digits, `_`, `.`, `-`); otherwise each run of other
 * characters becomes `_` and the first 8 hex digits of the name's sha256
 * are appended, so the stem is safe, the same on every run, and never that
 * of another name (a name already safe never ends that way unless it was
 * given so, and then their hashes differ).
 *
 * @param prefix The stem's fixed part, e.g. `sequential_funnel_`.
 * @param name The name from the data.
 * @returns The stem.
 *
 * @example
 * ```ts
 * import { figureStem } from "./render.ts";
 * import { deepEqual, notEqual } from "node:assert/strict";
 * deepEqual(figureStem("f_", "r_strict"), "f_r_strict");
 * deepEqual(figureStem("f_", "r_a b").startsWith("f_r_a_b-"), true);
 * notEqual(figureStem("f_", "r_a b"), figureStem("f_", "r_a/b"));
 * ```
 */
export function figureStem(prefix: string, name: string): string {
  if (SAFE_NAME.test(name) && name !== "." && name !== "..") return `${prefix}${name}`;
  const hash = sha256Hex(new TextEncoder().encode(name)).slice(0, 8);
  return `${prefix}${name.replace(/[^A-Za-z0-9_.-]+/g, "_")}-${hash}`;
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
  if (!SAFE_NAME.test(name)) {
    throw new RangeError(
      `Cannot render figure "${name}": a figure name may only hold letters, digits, "_", "." and "-"`,
    );
  }
  const { document } = parseHTML("<!DOCTYPE html><html><body></body></html>");
  // SVG text does not wrap: widen the figure so the title fits; subtitles
  // (the legend of every encoding) wrap to the width.
  const width0 = Math.max(options.width ?? 640, Math.ceil(24 + TITLE_GLYPH * title.length));
  const plot = Plot.plot({ ...options, width: width0, document });
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
  const svg = plot.outerHTML;
  return { name, title, svg, legend: subtitle, paper: paperPlot(options, svg) };
}
