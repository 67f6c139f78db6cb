/**
 * The study's paper, `<out>/paper/`: one `<step>.tex` per built step that
 * wrote LaTeX, which `\input`s that step's tables and figure floats (its
 * output's `*.tex` and `figures/*.tex`, as the step wrote them, so small
 * tables stay in one column and only wide ones span both) and ends with
 * `\clearpage`, the barrier that lets no float of one step wait past the
 * next (and none wait at `\end{document}`, where acmart's column balancing
 * would drop it); `appendix.tex`, one `\section` per step with a sentence
 * citing its floats; and `main.tex`, a skeleton that compiles as written
 * (pdflatex, twice) in the study's class: acmart `sigconf` (`acm`, the
 * default), IEEEtran `conference` (`ieee`) or `article`.
 *
 * Every file reads the others from its own directory (LaTeX's
 * `\CurrentFilePath`, LaTeX 2020-10 or later), so a paper of the user's
 * may `\input{path/to/out/paper/appendix}` from any directory.
 *
 * @module
 */
import { join } from "node:path";
import { escapeLatex } from "../../table/table.ts";
import { refList } from "../../paper/appendix.ts";
import type { StepFacts } from "./step_facts.ts";

/** A step as the paper shows it. */
export interface PaperStep {
  /** Its facts (id, output directory, files). */
  readonly facts: StepFacts;
  /** Its section title: the step's `title:`, else its command and id. */
  readonly title: string;
}

/** The floats a step wrote: its top-level `.tex` files, then its figures' floats, as listed. */
export function stepFloats(files: readonly string[]): string[] {
  const top = files.filter((f) => f.endsWith(".tex") && !f.includes("/"));
  const figures = files.filter((f) => /^figures\/[^/]+\.tex$/.test(f));
  return [...top, ...figures];
}

/** The macro every file of the paper reads its neighbours through (its own directory). */
const HERE = [
  "\\edef\\gatelabstudy{\\ifx\\CurrentFilePath\\undefined\\else\\ifx\\CurrentFilePath\\empty\\else\\CurrentFilePath/\\fi\\fi}",
];

/** Every label a float file defines, in order. */
function labelsOf(tex: string): string[] {
  return [...tex.matchAll(/\\label\{([^}]*)\}/g)].map((m) => m[1]!);
}

/**
 * A step's `<step>.tex`: its floats, read from `../<step>/`, then
 * `\clearpage`.
 *
 * @param step The step.
 * @param floats Its float files (relative to its output).
 * @returns LaTeX text.
 *
 * @example
 * ```ts
 * import { stepTex } from "./study_paper.ts";
 * import { ok } from "node:assert/strict";
 * const facts = { id: "gate-a", dir: "/o/gate-a", files: [], result: true, gate: null, checkpoint_id: null, round: null };
 * const tex = stepTex({ facts, title: "Gate A" }, ["coefficients.tex", "figures/forest.tex"]);
 * ok(tex.includes("\\input{\\gatelabstudy ../gate-a/coefficients.tex}\n\\input{\\gatelabstudy ../gate-a/figures/forest.tex}\n\\clearpage\n"));
 * ```
 */
export function stepTex(step: PaperStep, floats: readonly string[]): string {
  return [
    `% ${step.facts.id}.tex: the tables and figures of step ${step.facts.id} (${step.title}),`,
    "% written by gate build. Preamble: \\usepackage{booktabs,graphicx}. Its files are read from",
    "% this file's directory (\\CurrentFilePath, LaTeX 2020-10 or later); it ends with \\clearpage,",
    "% so none of its floats waits past what follows.",
    ...HERE,
    ...floats.map((f) => `\\input{\\gatelabstudy ../${step.facts.id}/${f}}`),
    "\\clearpage",
    "",
  ].join("\n");
}

/**
 * `appendix.tex`: per step a `\section` (labelled `sec:<study>:<step>`), a
 * sentence citing its tables and figures, `\suppressfloats[t]` and its
 * `<step>.tex`.
 *
 * @param study The study's name.
 * @param sections Each step with the labels of its floats.
 * @returns LaTeX text.
 */
export function appendixTex(
  study: string,
  sections: readonly { readonly step: PaperStep; readonly labels: readonly string[] }[],
): string {
  const scope = study.replace(/[^A-Za-z0-9.-]+/g, "-");
  const lines = [
    `% appendix.tex: every step of the study ${
      study.replace(/\s+/g, " ")
    }, in study order, written`,
    "% by gate build. \\input it from any directory (LaTeX 2020-10 or later). Preamble:",
    "% \\usepackage{booktabs,graphicx}.",
    ...HERE,
  ];
  for (const { step, labels } of sections) {
    const tables = labels.filter((l) => l.startsWith("tab:"));
    const figures = labels.filter((l) => l.startsWith("fig:"));
    const parts = [
      ...(tables.length > 0 ? [refList("Table", tables)] : []),
      ...(figures.length > 0 ? [refList("Figure", figures)] : []),
    ];
    const sentence = `${parts.join(" and ")} ${
      tables.length + figures.length === 1 ? "gives" : "give"
    } the results of this step.`;
    lines.push(
      "",
      `\\section{${escapeLatex(step.title)}}\\label{sec:${scope}:${step.facts.id}}`,
      "\\suppressfloats[t]",
      parts.length > 0 ? sentence : "This step has no tables or figures.",
      "",
      `\\input{\\gatelabstudy ${step.facts.id}.tex}`,
    );
  }
  return lines.join("\n") + "\n";
}

/** The paper classes a study may ask for. */
export type PaperClass = "acm" | "ieee" | "article";

/** The preamble of `main.tex` in each class. */
const PREAMBLES: Readonly<Record<PaperClass, readonly string[]>> = {
  acm: [
    "\\documentclass[sigconf]{acmart}",
    "\\usepackage{booktabs,graphicx}",
    "\\settopmatter{printacmref=false}",
    "\\setcopyright{none}",
    "\\renewcommand\\footnotetextcopyrightpermission[1]{}",
  ],
  ieee: ["\\documentclass[conference]{IEEEtran}", "\\usepackage{booktabs,graphicx}"],
  article: [
    "\\documentclass[10pt,twocolumn]{article}",
    "\\usepackage{booktabs,graphicx}",
  ],
};

/**
 * `main.tex`: a skeleton in the study's class that compiles as written,
 * with a results section citing the appendix and the appendix after a
 * `\clearpage`.
 *
 * @param study The study's name.
 * @param paperClass `acm`, `ieee` or `article`.
 * @returns LaTeX text.
 *
 * @example
 * ```ts
 * import { mainTex } from "./study_paper.ts";
 * import { ok } from "node:assert/strict";
 * ok(mainTex("s", "ieee").startsWith("% main.tex"));
 * ok(mainTex("s", "ieee").includes("\\documentclass[conference]{IEEEtran}"));
 * ```
 */
export function mainTex(study: string, paperClass: PaperClass): string {
  const title = escapeLatex(study);
  const author = paperClass === "acm"
    ? ["\\author{A. Author}", "\\affiliation{\\institution{Institution}\\country{Country}}"]
    : paperClass === "ieee"
    ? ["\\author{\\IEEEauthorblockN{A. Author}\\IEEEauthorblockA{Institution}}"]
    : ["\\author{A. Author}"];
  return [
    "% main.tex: a skeleton written by gate build. Compile it from this directory, twice, with its",
    "% by-products elsewhere (gate build replaces this folder whole and refuses one holding files it",
    "% did not write): mkdir -p /tmp/paper && pdflatex -output-directory /tmp/paper main.tex",
    "% In a paper of your own, \\input{<this directory>/appendix} works from any directory.",
    ...PREAMBLES[paperClass],
    `\\title{${title}}`,
    ...author,
    "\\begin{document}",
    "\\maketitle",
    "\\section{Results}",
    "The appendix gives every step of the study, each with its tables and figures.",
    "\\clearpage",
    "\\appendix",
    "\\input{appendix}",
    "\\end{document}",
    "",
  ].join("\n");
}

/**
 * The files of `<out>/paper/`.
 *
 * @param study The study's name.
 * @param steps The built steps, in study order.
 * @param paperClass The class of `main.tex`.
 * @returns File name to contents.
 */
export async function studyPaperFiles(
  study: string,
  steps: readonly PaperStep[],
  paperClass: PaperClass,
): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const sections: { step: PaperStep; labels: string[] }[] = [];
  for (const step of steps) {
    const floats = stepFloats(step.facts.files);
    if (floats.length === 0) continue;
    const labels: string[] = [];
    for (const f of floats) {
      labels.push(...labelsOf(await Deno.readTextFile(join(step.facts.dir, f))));
    }
    files[`${step.facts.id}.tex`] = stepTex(step, floats);
    sections.push({ step, labels });
  }
  files["appendix.tex"] = appendixTex(study, sections);
  files["main.tex"] = mainTex(study, paperClass);
  return files;
}
