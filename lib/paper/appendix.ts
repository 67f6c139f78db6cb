/**
 * A paper appendix from the tables and figures gatelab already makes: each
 * section (Gate A, online rounds, held-out ranking, power, Gate B, study,
 * reward recipes) holds `Table`s and `Figure`s, and {@linkcode appendixFiles}
 * writes them as the files a paper includes: `tables/<section>_<n>.tex`
 * (booktabs, rendered by `toLatex` from lib/table), `figures/<section>_<name>.svg`
 * (and, where `rsvg-convert` may run, `.png` and the vector `.pdf`), a
 * `figures/<section>_<name>.tex` float per figure, and `appendix.tex`, which
 * `\input`s them in order. Labels and captions are scoped by the appendix's
 * label prefix and the section (`tab:appendix-gate-a:selection`,
 * `Gate A: selection by reward ...`), so an appendix goes into a paper beside
 * the runs' own tables, or a second appendix, with no label defined twice.
 *
 * @module
 */
import type { Table } from "../table/table.ts";
import { escapeLatex, toLatex } from "../table/table.ts";
import type { Figure } from "../table/figure.ts";
import { figureFiles } from "../figures/figure_files.ts";
import { type RunScope, scopedLabel, scopeTables } from "../table/run_scope.ts";

/** One section of the appendix. */
export interface AppendixSection {
  /** File-name prefix, lower case letters, digits and `_`: `gate_a`. */
  readonly id: string;
  /** Section title, plain text. */
  readonly title: string;
  /** The name at the head of the section's captions (default: the title). */
  readonly name: string;
  /** A sentence under the heading (default: one naming the section's tables and figures). */
  readonly text?: string;
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
 * @param content Its tables and figures, in reading order; `name`, the
 *   short name its captions start with (default: the title); `text`, a
 *   sentence under the heading.
 * @returns The section.
 * @throws {RangeError} When the id is not a plain file-name prefix.
 *
 * @example
 * ```ts
 * import { appendixSection } from "./appendix.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(appendixSection("gate_a", "Gate A: cold start", { name: "Gate A" }).name, "Gate A");
 * throws(() => appendixSection("Gate A", "Gate A", {}), /Cannot make appendix section/);
 * ```
 */
export function appendixSection(
  id: string,
  title: string,
  content: {
    readonly tables?: readonly Table[];
    readonly figures?: readonly Figure[];
    readonly name?: string;
    readonly text?: string;
  },
): AppendixSection {
  if (!/^[a-z0-9_]+$/.test(id)) {
    throw new RangeError(
      `Cannot make appendix section "${id}": the id names files, use a-z, 0-9 and _`,
    );
  }
  return {
    id,
    title,
    name: content.name ?? title,
    ...(content.text !== undefined ? { text: content.text } : {}),
    tables: content.tables ?? [],
    figures: content.figures ?? [],
  };
}

/** Options of {@linkcode appendixTex} and {@linkcode appendixFiles}. */
export interface AppendixOptions {
  /**
   * The appendix's label prefix: labels are `tab:<prefix>-<section>:...`.
   * Give each appendix of one paper its own.
   * @default {"appendix"}
   */
  readonly labelPrefix?: string;
}

/** The scope of a section's labels and captions. */
function sectionScope(section: AppendixSection, options: AppendixOptions): RunScope {
  const prefix = (options.labelPrefix ?? "appendix").replace(/[^A-Za-z0-9.-]+/g, "-");
  return { label: `${prefix}-${section.id.replaceAll("_", "-")}`, name: section.name };
}

/** File names of a section's tables and figures (without extension for figures). */
function sectionNames(section: AppendixSection) {
  return {
    tables: section.tables.map((_, i) => `tables/${section.id}_${i + 1}.tex`),
    figures: section.figures.map((f) => `figures/${section.id}_${f.name}`),
  };
}

/** The label LaTeX sees (toLatex and figureTex replace the same characters). */
function texLabel(label: string): string {
  return label.replace(/[^A-Za-z0-9:.-]/g, "-");
}

/** `Table~\ref{a}` or `Tables~\ref{a}, \ref{b} and \ref{c}`. */
export function refList(word: string, labels: readonly string[]): string {
  const refs = labels.map((l) => `\\ref{${l}}`);
  const list = refs.length === 1
    ? refs[0]!
    : `${refs.slice(0, -1).join(", ")} and ${refs[refs.length - 1]}`;
  return `${word}${refs.length === 1 ? "" : "s"}~${list}`;
}

/**
 * The `appendix.tex` that includes every table and figure in order: one
 * `\section` per section with a sentence under it (naming its tables and
 * figures by reference), `\suppressfloats[t]` so no float prints above
 * its heading, an `\input` per table and figure float, and a
 * `\clearpage` before the next section so a section's floats never drift
 * past the next heading. Every file is read from appendix.tex's own
 * directory (LaTeX's `\CurrentFilePath`, LaTeX 2020-10 or later), so a
 * paper may `\input{path/to/appendix}` from any directory with no set-up.
 * Needs `booktabs` and `graphicx` in the preamble.
 *
 * @param sections The sections in appendix order.
 * @param options The label prefix.
 * @returns LaTeX text.
 *
 * @example
 * ```ts
 * import { appendixTex, appendixSection } from "./appendix.ts";
 * import { ok } from "node:assert/strict";
 * const tex = appendixTex([appendixSection("gate_a", "Gate A", {
 *   tables: [{ caption: "T", columns: [{ label: "a" }], rows: [["1"]], label: "tab:t" }],
 *   figures: [{ name: "forest", title: "Coefficients", svg: "<svg/>" }],
 * })]);
 * ok(tex.includes("\\section{Gate A}\n\\suppressfloats[t]\nTable~\\ref{tab:appendix-gate-a:t} and Figure~\\ref{fig:appendix-gate-a:gate-a-forest}"));
 * ok(tex.includes("\\input{\\gatelabappendix tables/gate_a_1.tex}\n\\input{\\gatelabappendix figures/gate_a_forest.tex}"));
 * ```
 */
export function appendixTex(
  sections: readonly AppendixSection[],
  options: AppendixOptions = {},
): string {
  const lines = [
    "% Appendix written by gatelab (lib/paper/appendix.ts). Preamble: \\usepackage{booktabs,graphicx}.",
    "% \\input it from any directory: its files are read from its own directory (\\CurrentFilePath,",
    "% LaTeX 2020-10 or later; with an older LaTeX, put \\def\\gatelabappendixdir{path/to/appendix/}",
    "% before the \\input).",
    "\\ifx\\gatelabappendixdir\\undefined",
    "\\edef\\gatelabappendix{\\ifx\\CurrentFilePath\\undefined\\else\\ifx\\CurrentFilePath\\empty\\else\\CurrentFilePath/\\fi\\fi}",
    "\\else\\let\\gatelabappendix\\gatelabappendixdir\\fi",
  ];
  sections.forEach((section, s) => {
    const scope = sectionScope(section, options);
    const names = sectionNames(section);
    const tableLabels = section.tables.map((t, i) =>
      texLabel(scopedLabel(t.label ?? `tab:${section.id}-${i + 1}`, scope))
    );
    const figureLabels = section.figures.map((f) =>
      texLabel(scopedLabel(`fig:${section.id}_${f.name}`, scope))
    );
    const parts = [
      ...(tableLabels.length > 0 ? [refList("Table", tableLabels)] : []),
      ...(figureLabels.length > 0 ? [refList("Figure", figureLabels)] : []),
    ];
    const sentence = section.text !== undefined
      ? escapeLatex(section.text)
      : parts.length > 0
      ? `${parts.join(" and ")} ${
        tableLabels.length + figureLabels.length === 1 ? "gives" : "give"
      } the results of ${escapeLatex(section.name)}.`
      : `${escapeLatex(section.name)} has no tables or figures.`;
    lines.push(
      "",
      ...(s > 0 ? ["\\clearpage"] : []),
      `\\section{${escapeLatex(section.title)}}`,
      "\\suppressfloats[t]",
      sentence,
      "",
    );
    for (const file of names.tables) lines.push(`\\input{\\gatelabappendix ${file}}`);
    for (const file of names.figures) lines.push(`\\input{\\gatelabappendix ${file}.tex}`);
  });
  return lines.join("\n") + "\n";
}

/**
 * Every file of the appendix: the LaTeX tables, the figures (SVG; PNG and
 * PDF unless `png`/`pdf` is false or `rsvg-convert` is unavailable, in which
 * case each figure's float shows a note naming the tool), the figure floats
 * and `appendix.tex`. Write them with `writeFilesAtomic(dir, files)`.
 *
 * @param sections The sections in appendix order.
 * @param options `png`, `pdf`: also convert figures (default true);
 *   `labelPrefix` (see {@linkcode AppendixOptions}); `onMissingConverter`:
 *   called with one line when rsvg-convert cannot run.
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
 * })], { png: false, pdf: false });
 * deepEqual(Object.keys(files), ["tables/study_1.tex", "figures/study_arms.svg", "figures/study_arms.tex", "appendix.tex"]);
 * ```
 */
export async function appendixFiles(
  sections: readonly AppendixSection[],
  options: AppendixOptions & {
    readonly png?: boolean;
    readonly pdf?: boolean;
    readonly onMissingConverter?: (line: string) => void;
  } = {},
): Promise<Record<string, string | Uint8Array>> {
  const files: Record<string, string | Uint8Array> = {};
  const seen = new Set<string>();
  let missing: string | null = null;
  for (const section of sections) {
    if (seen.has(section.id)) {
      throw new RangeError(`Cannot write appendix: two sections have the id "${section.id}"`);
    }
    seen.add(section.id);
    const scope = sectionScope(section, options);
    const names = sectionNames(section);
    const tables = scopeTables(
      section.tables.map((t, i) =>
        t.label === undefined ? { ...t, label: `tab:${section.id}-${i + 1}` } : t
      ),
      scope,
    );
    tables.forEach((table, i) => (files[names.tables[i]!] = toLatex(table)));
    const renamed = section.figures.map((f) => ({ ...f, name: `${section.id}_${f.name}` }));
    const figures = await figureFiles(renamed, {
      ...(options.png !== undefined ? { png: options.png } : {}),
      ...(options.pdf !== undefined ? { pdf: options.pdf } : {}),
      scope,
      onMissingConverter: (line) => (missing = line),
    });
    for (const [name, contents] of Object.entries(figures)) files[`figures/${name}`] = contents;
  }
  if (missing !== null) options.onMissingConverter?.(missing);
  files["appendix.tex"] = appendixTex(sections, options);
  return files;
}
