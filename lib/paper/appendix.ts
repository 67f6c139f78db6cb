/**
 * A paper appendix from the tables and figures gatelab already makes: each
 * section (Gate A, online rounds, held-out ranking, power, Gate B, study,
 * reward recipes) holds `Table`s and `Figure`s, and {@linkcode appendixFiles}
 * writes them as the files a paper includes: `tables/<section>_<n>.tex`
 * (booktabs, rendered by `toLatex` from lib/report), `figures/<section>_<name>.svg`
 * (and `.png` where `rsvg-convert` may run), and `appendix.tex`, which
 * `\input`s the tables and `\includegraphics` the figures in order.
 *
 * @module
 */
import type { Table } from "../report/table.ts";
import { escapeLatex, toLatex } from "../report/table.ts";
import type { Figure } from "../figures/render.ts";
import { figureFiles } from "../figures/figure_files.ts";

/** One section of the appendix. */
export interface AppendixSection {
  /** File-name prefix, lower case letters, digits and `_`: `gate_a`. */
  readonly id: string;
  /** Section title, plain text. */
  readonly title: string;
  /** Tables of the section, in order. */
  readonly tables: readonly Table[];
  /** Figures of the section, in order. */
  readonly figures: readonly Figure[];
}

/**
 * Checks and builds a section.
 *
 * @param id File-name prefix (`[a-z0-9_]+`).
 * @param title Section title.
 * @param content Its tables and figures, in reading order.
 * @returns The section.
 * @throws {RangeError} When the id is not a plain file-name prefix.
 *
 * @example
 * ```ts
 * import { appendixSection } from "./appendix.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(appendixSection("gate_a", "Gate A", { tables: [] }).figures, []);
 * throws(() => appendixSection("Gate A", "Gate A", {}), /Cannot make appendix section/);
 * ```
 */
export function appendixSection(
  id: string,
  title: string,
  content: { readonly tables?: readonly Table[]; readonly figures?: readonly Figure[] },
): AppendixSection {
  if (!/^[a-z0-9_]+$/.test(id)) {
    throw new RangeError(
      `Cannot make appendix section "${id}": the id names files, use a-z, 0-9 and _`,
    );
  }
  return { id, title, tables: content.tables ?? [], figures: content.figures ?? [] };
}

/** File names of a section's tables and figures (without extension for figures). */
function sectionNames(section: AppendixSection) {
  return {
    tables: section.tables.map((_, i) => `tables/${section.id}_${i + 1}.tex`),
    figures: section.figures.map((f) => `figures/${section.id}_${f.name}`),
  };
}

/**
 * The `appendix.tex` that includes every table and figure in order: one
 * `\section` per section, `\input{tables/...}` per table, a `figure`
 * environment with `\includegraphics[width=\linewidth]{figures/...}` (no
 * extension: pdflatex takes the PNG) and the figure title as caption.
 * Needs `booktabs` and `graphicx` in the preamble.
 *
 * @param sections The sections in appendix order.
 * @returns LaTeX text.
 *
 * @example
 * ```ts
 * import { appendixTex, appendixSection } from "./appendix.ts";
 * import { ok } from "node:assert/strict";
 * const tex = appendixTex([appendixSection("gate_a", "Gate A", {
 *   tables: [{ caption: "T", columns: [{ label: "a" }], rows: [["1"]] }],
 *   figures: [{ name: "forest", title: "Coefficients", svg: "<svg/>" }],
 * })]);
 * ok(tex.includes("\\section{Gate A}\n\\input{tables/gate_a_1.tex}\n"));
 * ok(tex.includes("\\includegraphics[width=\\linewidth]{figures/gate_a_forest}\n\\caption{Coefficients}"));
 * ```
 */
export function appendixTex(sections: readonly AppendixSection[]): string {
  const lines = [
    "% Appendix written by gatelab (lib/paper/appendix.ts). Needs \\usepackage{booktabs,graphicx}.",
  ];
  for (const section of sections) {
    const names = sectionNames(section);
    lines.push("", `\\section{${escapeLatex(section.title)}}`);
    for (const file of names.tables) lines.push(`\\input{${file}}`);
    section.figures.forEach((figure, i) => {
      lines.push(
        "\\begin{figure}[htbp]",
        "\\centering",
        `\\includegraphics[width=\\linewidth]{${names.figures[i]}}`,
        `\\caption{${escapeLatex(figure.title)}}`,
        "\\end{figure}",
      );
    });
  }
  return lines.join("\n") + "\n";
}

/**
 * Every file of the appendix: the LaTeX tables, the figures (SVG, plus PNG
 * unless `png` is false or `rsvg-convert` is unavailable) and
 * `appendix.tex`. Write them with `writeFilesAtomic(dir, files)`.
 *
 * @param sections The sections in appendix order.
 * @param options `png`: also convert figures to PNG (default true).
 * @returns File name (relative) to contents.
 * @throws {RangeError} When two sections share an id.
 *
 * @example
 * ```ts
 * import { appendixFiles, appendixSection } from "./appendix.ts";
 * import { deepEqual } from "node:assert/strict";
 * const files = await appendixFiles([appendixSection("study", "Study", {
 *   tables: [{ caption: "Arms", columns: [{ label: "arm" }], rows: [["a"]] }],
 *   figures: [{ name: "arms", title: "Arms", svg: "<svg/>" }],
 * })], { png: false });
 * deepEqual(Object.keys(files), ["tables/study_1.tex", "figures/study_arms.svg", "appendix.tex"]);
 * ```
 */
export async function appendixFiles(
  sections: readonly AppendixSection[],
  options: { readonly png?: boolean } = {},
): Promise<Record<string, string | Uint8Array>> {
  const files: Record<string, string | Uint8Array> = {};
  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.has(section.id)) {
      throw new RangeError(`Cannot write appendix: two sections have the id "${section.id}"`);
    }
    seen.add(section.id);
    const names = sectionNames(section);
    section.tables.forEach((table, i) => (files[names.tables[i]!] = toLatex(table)));
    const renamed = section.figures.map((f) => ({ ...f, name: `${section.id}_${f.name}` }));
    for (const [name, contents] of Object.entries(await figureFiles(renamed, options))) {
      files[`figures/${name}`] = contents;
    }
  }
  files["appendix.tex"] = appendixTex(sections);
  return files;
}
