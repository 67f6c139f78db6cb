/**
 * Figures as files: `<name>.svg` always; where the `rsvg-convert` tool
 * (Debian librsvg2-bin) exists and may be run, `<name>.png` and the vector
 * `<name>.pdf` that pdflatex includes (the figure's paper form: no title,
 * text at 7 pt or more at the width it is meant for); and, for a run with a
 * scope, `<name>.tex`, a figure float with caption and label that a paper
 * `\input`s from any directory.
 *
 * @module
 */
import type { Figure } from "./render.ts";
import { PAPER_MIN_PT, PAPER_WIDTHS } from "./render.ts";
import { breakableLatex, escapeLatex } from "../table/table.ts";
import { type RunScope, scopedCaption, scopedLabel } from "../table/run_scope.ts";

/** The tool that writes PNG and PDF, and where it comes from. */
export const SVG_CONVERTER = "rsvg-convert (Debian/Ubuntu: apt-get install librsvg2-bin)";

/**
 * Converts SVG text to PNG bytes with `rsvg-convert` (white background, at
 * twice the SVG's size).
 * Returns `null`, without prompting, when running subprocesses is not
 * permitted (e.g. `deno task gate`, which has no `--allow-run`) or the tool
 * is not installed.
 *
 * @param svg Standalone SVG text.
 * @returns PNG bytes, or `null` when the converter is unavailable.
 * @throws {Error} When the converter runs but fails.
 *
 * @example
 * ```ts
 * import { svgToPng } from "./figure_files.ts";
 * import { ok } from "node:assert/strict";
 * const png = await svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
 * ok(png === null || (png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47)); // "PNG"
 * ```
 */
export function svgToPng(svg: string): Promise<Uint8Array | null> {
  return convertSvg(svg, "png");
}

/**
 * Converts SVG text to a vector PDF with `rsvg-convert` (white background,
 * the same drawing: text stays text). The PDF's dates are fixed, so the same
 * SVG gives the same bytes. `null` when the converter is unavailable, as
 * for {@linkcode svgToPng}.
 *
 * @example
 * ```ts
 * import { svgToPdf } from "./figure_files.ts";
 * import { ok } from "node:assert/strict";
 * const pdf = await svgToPdf('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
 * ok(pdf === null || new TextDecoder().decode(pdf.slice(0, 5)) === "%PDF-");
 * ```
 */
export function svgToPdf(svg: string): Promise<Uint8Array | null> {
  return convertSvg(svg, "pdf");
}

async function convertSvg(svg: string, format: "png" | "pdf"): Promise<Uint8Array | null> {
  const permission = Deno.permissions.querySync({ name: "run", command: "rsvg-convert" });
  if (permission.state !== "granted") return null;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("rsvg-convert", {
      // PNG at twice the SVG's size (192 dpi at 1 px = 1/96 in: sharp on slides and high-density
      // screens); the PDF is vector and keeps the SVG's size.
      args: [
        `--format=${format}`,
        "--background-color=white",
        ...(format === "png" ? ["--zoom=2"] : []),
      ],
      // cairo stamps a PDF with the time unless this is set.
      env: { SOURCE_DATE_EPOCH: "0" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(svg));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) {
    throw new Error(
      `Cannot convert SVG to ${format.toUpperCase()}: rsvg-convert exited with ${code}: ${
        new TextDecoder().decode(stderr).trim()
      }`,
    );
  }
  return stdout;
}

/** Options of {@linkcode figureFiles}. */
export interface FigureFilesOptions {
  /**
   * Whether to add PNG files where `rsvg-convert` is available.
   * @default {true}
   */
  readonly png?: boolean;
  /**
   * Whether to add the vector PDF (the figure's paper form) where
   * `rsvg-convert` is available.
   * @default {true}
   */
  readonly pdf?: boolean;
  /**
   * The run's scope: with it, each figure also gets `<name>.tex`, a
   * float with the scoped caption and label `fig:<prefix>:<name>`.
   */
  readonly scope?: RunScope;
  /** Called once with one line when `rsvg-convert` cannot be run (no PNG or PDF). */
  readonly onMissingConverter?: (line: string) => void;
}

/**
 * The `.tex` wrapper of a figure: a `figure` (meant for `\columnwidth`) or
 * `figure*` (`\textwidth`) float holding `<name>.pdf` from the wrapper's own
 * directory (LaTeX's `\CurrentFilePath`, so a paper may `\input` it from
 * anywhere), with the caption and label of the run; when the PDF is not
 * there, a framed note naming the tool instead, so the paper still compiles.
 * Preamble: `\usepackage{graphicx}`.
 *
 * @example
 * ```ts
 * import { figureTex } from "./figure_files.ts";
 * import { ok } from "node:assert/strict";
 * const tex = figureTex({ name: "forest", title: "Coefficients", svg: "<svg/>",
 *   paper: { svg: "<svg/>", span: "column", minTextPt: 7.3 } }, { label: "gate-a", name: "Gate A" });
 * ok(tex.includes("\\caption{Gate A: coefficients}\n\\label{fig:gate-a:forest}"));
 * ok(tex.includes("\\includegraphics[width=\\columnwidth,height=0.75\\textheight,keepaspectratio]{\\gatelabhere forest.pdf}"));
 * ```
 */
export function figureTex(figure: Figure, scope: RunScope): string {
  const span = figure.paper?.span ?? "text";
  const env = span === "column" ? "figure" : "figure*";
  const width = span === "column" ? "\\columnwidth" : "\\textwidth";
  const file = `${figure.name}.pdf`;
  const caption = [figure.title, ...(figure.legend ?? [])].map((t) => t.replace(/[.;:]?$/, ""))
    .join(". ");
  return [
    `% gatelab figure ${figure.name}: vector PDF of ${figure.name}.svg without its title (the caption`,
    `% carries it), meant for ${width} (${env}); its smallest text prints at ${
      figure.paper?.minTextPt ?? PAPER_MIN_PT
    } pt or more at ${PAPER_WIDTHS[span]} pt.`,
    "% Preamble: \\usepackage{graphicx}. The PDF is read from this file's own directory.",
    "\\edef\\gatelabhere{\\ifx\\CurrentFilePath\\undefined\\else\\ifx\\CurrentFilePath\\empty\\else\\CurrentFilePath/\\fi\\fi}",
    `\\begin{${env}}[tbp]`,
    "\\centering",
    // Never taller than three quarters of the page (a column figure in a one-column paper).
    `\\IfFileExists{\\gatelabhere ${file}}{\\includegraphics[width=${width},height=0.75\\textheight,keepaspectratio]{\\gatelabhere ${file}}}{%`,
    `\\fbox{\\parbox{0.9${width}}{\\centering\\small Figure ${
      escapeLatex(file)
    } is missing: gatelab writes it with rsvg-convert (librsvg2-bin), which was not found. ${
      escapeLatex(figure.name)
    }.svg is beside this file.}}}`,
    `\\caption{${breakableLatex(scopedCaption(caption, scope))}}`,
    `\\label{${scopedLabel(`fig:${figure.name}`, scope).replace(/[^A-Za-z0-9:.-]/g, "-")}}`,
    `\\end{${env}}`,
    "",
  ].join("\n");
}

/**
 * The files of a set of figures, ready for `writeFilesAtomic`: `<name>.svg`
 * for each figure; `<name>.png` and `<name>.pdf` (the paper form) when
 * `rsvg-convert` may run; `<name>.tex` ({@linkcode figureTex}) with a scope.
 *
 * @param figures Figures with distinct names.
 * @param options Which copies to add, and the run's scope.
 * @returns File name to contents.
 * @throws {RangeError} When two figures share a name.
 *
 * @example
 * ```ts
 * import { figureFiles } from "./figure_files.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = await figureFiles([{ name: "f", title: "F", svg: "<svg/>" }], { png: false, pdf: false });
 * deepEqual(Object.keys(files), ["f.svg"]);
 * const scoped = await figureFiles([{ name: "f", title: "F", svg: "<svg/>" }], {
 *   png: false, pdf: false, scope: { label: "gate-a", name: "Gate A" } });
 * deepEqual(Object.keys(scoped), ["f.svg", "f.tex"]);
 * ```
 */
export async function figureFiles(
  figures: readonly Figure[],
  options: FigureFilesOptions = {},
): Promise<Record<string, string | Uint8Array>> {
  const files: Record<string, string | Uint8Array> = {};
  let missing = false;
  for (const figure of figures) {
    if (`${figure.name}.svg` in files) {
      throw new RangeError(`Cannot write figures: two figures are named "${figure.name}"`);
    }
    files[`${figure.name}.svg`] = figure.svg + "\n";
    if (options.png ?? true) {
      const png = await svgToPng(figure.svg);
      if (png) files[`${figure.name}.png`] = png;
      else missing = true;
    }
    if (options.pdf ?? true) {
      const pdf = await svgToPdf(figure.paper?.svg ?? figure.svg);
      if (pdf) files[`${figure.name}.pdf`] = pdf;
      else missing = true;
    }
    if (options.scope) files[`${figure.name}.tex`] = figureTex(figure, options.scope);
  }
  if (missing && figures.length > 0) {
    options.onMissingConverter?.(
      `figures: ${SVG_CONVERTER} cannot be run; wrote SVG only, and each figure's .tex shows a placeholder naming the tool`,
    );
  }
  return files;
}
