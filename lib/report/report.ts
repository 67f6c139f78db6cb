/**
 * The self-contained HTML report of an analysis directory: tables and
 * inline SVG figures in one file, no script, no network (a Content Security
 * Policy forbids any load).
 *
 * @module
 */
import { runScope } from "../table/run_scope.ts";
import type { Figure } from "../table/figure.ts";
import { generatorMeta } from "../core/meta.ts";
import type { AnalysisOutputs } from "./read_analysis_dir.ts";
import { escapeHtml } from "./escape_html.ts";
import { toHtmlTable } from "./html_table.ts";
import { DECIMALS, formatCount, P_FLOOR } from "../table/format.ts";
import type { ReportSection, ReportSubheading, SectionKind } from "../table/section.ts";
import { BUNDLES, SECTION_ORDER } from "./bundles.ts";

export { type ReportSection, type ReportSubheading, SECTION_ORDER, type SectionKind };

/**
 * The report's sections for one output directory, in paper order: gate
 * analysis (or pooled rounds, when several gates were pooled) with its
 * coefficients and selection, sequential re-analysis, history across
 * checkpoints, held-out checks, power plan, Gate B comparison, ladder
 * gate, study, reward recipes, audit. Sections
 * without data are left out; every section of an exploratory analysis is
 * headed as exploratory.
 *
 * @param outputs What {@linkcode readAnalysisDir} found.
 * @returns The sections with their tables and figures.
 *
 * @example
 * ```ts
 * import { reportSections } from "./report.ts";
 * import { deepEqual } from "node:assert/strict";
 * const sections = reportSections({ dir: "x", contributions: null, selection: null, heldout: null,
 *   comparison: null, power: null, inputs: {},
 *   study: { format: "gatelab.study/v1",
 *     bootstrap: { draws: 10, seed: 1, resample: "tasks", resample_note: "", interval: "percentile",
 *       quantile_rule: "sorted[floor(q*(B-1))]", draw_order: "", prng: "xoshiro128**" },
 *     estimator: {}, comparisons: [], attempts: { attempts: 1, used: 1, violations: 0 }, issues: [],
 *     costs: { definitions: {}, arms: {}, total: { attempts: 1, failed_attempts: 0, verifier_trials: 1, gpu_hours: 0,
 *       gpu_hours_reported: 0, tokens: 0, tokens_reported: 0, service_seconds: null } },
 *     arms: { M: { planned: 1, observed: 1, successes: 1, estimate: 1, bounds: [1, 1], complete: true, label: "complete",
 *       train_seeds: [1], task_count: 1, slots: {}, attempts: { attempts: 1, used: 1, violations: 0, by_kind: {}, reasons: {} } } },
 *     generator: { tool: "gatelab", version: "0", command: "gate study s --out o" }, inputs: [] } });
 * deepEqual(sections.map((s) => s.heading), ["Study"]);
 * ```
 */
export function reportSections(outputs: AnalysisOutputs): ReportSection[] {
  const { contributions } = outputs;
  // An exploratory analysis (waived pairing codes) must never read as a strict one.
  const waived = contributions?.exploratory ? (contributions.waived_codes ?? []).join(", ") : null;
  return BUNDLES.flatMap(({ bundle, slot }) => {
    const doc = slot?.get(outputs);
    const section = doc === null || doc === undefined ? null : bundle.section?.(doc, outputs.dir);
    if (!section) return [];
    return waived !== null && slot!.exploratory
      ? [{ ...section, heading: `Exploratory (waived: ${waived}): ${section.heading}` }]
      : [section];
  });
}

const STYLE = `
html { -webkit-text-size-adjust: 100%; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1b1b1b; padding: 0 1em; }
p, li, caption, .provenance { overflow-wrap: anywhere; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; } h3 { margin-top: 1.5em; }
nav.toc ol { padding-left: 1.5em; } nav.toc a { text-decoration: none; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: 1em 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; white-space: normal; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #e4e4e4; }
tbody td { white-space: nowrap; overflow-wrap: normal; }
/* Text cells wrap at spaces (a sentence never widens its table past the page); ids, numbers and intervals stay whole. */
tbody td.l { white-space: normal; overflow-wrap: break-word; }
thead th { border-bottom: 2px solid #888; vertical-align: bottom; }
tfoot td { font-size: 0.85em; color: #555; border: none; white-space: normal; }
.r { text-align: right; } .l { text-align: left; } .c { text-align: center; }
.figure { margin: 1em 0; max-width: 100%; overflow-x: auto; }
/* Figures keep their drawn size (text at 9 px or more), scrolling inside their box, not the page. */
.figure svg { display: block; max-width: none; height: auto; }
.provenance { font-size: 0.85em; color: #444; background: #f7f7f7; padding: 0.5em 0.8em; margin: 1.5em 0 0; }
.provenance table { font-size: 1em; }
.provenance td { white-space: normal; vertical-align: top; border: none; padding: 0.1em 0.6em 0.1em 0; }
code, .hash { font-family: ui-monospace, monospace; font-size: 0.9em; }
.hash { display: inline-block; max-width: 19ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
@media (max-width: 600px) {
  body { padding: 0 0.6em; margin: 1em auto; }
  .provenance table, .provenance tbody, .provenance tr, .provenance td { display: block; }
  .provenance tr { margin-bottom: 0.4em; }
  .provenance td { padding: 0; overflow-wrap: anywhere; }
}
@page { size: A4; }
@media print {
  body { margin: 0; max-width: none; }
  .table-wrap, .figure { overflow: visible; }
  tfoot { display: table-row-group; }
  h2, h3, caption { break-after: avoid; }
  .figure, tr, .provenance { break-inside: avoid; }
  nav.toc a { color: inherit; }
}
`;

/** Options of {@linkcode renderReport}. */
export interface RenderReportOptions {
  /**
   * Page title.
   * @default {"gatelab report"}
   */
  readonly title?: string;
  /**
   * Command line recorded in the report's generator line.
   * @default {"report"}
   */
  readonly command?: string;
}

/** The provenance block of a section: source directory, files with sha256, generator, seed, draws. */
function provenanceHtml(section: ReportSection, outputs: AnalysisOutputs): string {
  const rows = section.files.map((file) => {
    const p = outputs.provenance?.[file];
    const extra = [
      p?.seed !== null && p?.seed !== undefined ? `seed ${p.seed}` : null,
      p?.draws !== null && p?.draws !== undefined ? `draws ${formatCount(p.draws)}` : null,
    ].filter((x) => x !== null).join(", ");
    const hash = outputs.inputs[file] ?? "—";
    // A short prefix on screen; the full value on hover (title) and in a copy (the text is all there).
    return `<tr><td><code>${escapeHtml(file)}</code></td><td><span class="hash" title="sha256 ${
      escapeHtml(hash)
    }">sha256 ${escapeHtml(hash)}</span></td><td>${escapeHtml(p?.generator ?? "—")}${
      extra ? `; ${escapeHtml(extra)}` : ""
    }</td></tr>`;
  });
  return `<div class="provenance"><strong>Provenance.</strong> From <code>${
    escapeHtml(section.dir)
  }</code>:<table><tbody>${rows.join("")}</tbody></table></div>`;
}

/**
 * A figure of one of several runs, its title naming the run as `runScope`
 * names a directory (`out/gate-a`: `Gate A`), so that the captions of
 * `forest` and `forest-2` in a paper say which run each shows. A directory
 * whose name has no letter or digit keeps the title.
 */
function ofRun(figure: Figure, dir: string): Figure {
  let name: string;
  try {
    name = runScope(dir).name;
  } catch {
    return figure;
  }
  return { ...figure, title: `${figure.title.replace(/[.;:]$/, "")}, ${name}` };
}

/** Gives every figure a name no earlier figure has (`forest`, `forest-2`, ...). */
function uniqueFigure(figure: Figure, used: Set<string>): Figure {
  let name = figure.name;
  for (let i = 2; used.has(name); i++) name = `${figure.name}-${i}`;
  used.add(name);
  if (name === figure.name) return figure;
  return {
    ...figure,
    name,
    svg: figure.svg.replace(`data-figure="${figure.name}"`, `data-figure="${name}"`),
  };
}

/**
 * Renders the report of one or more output directories as one HTML
 * document: a table of contents, then every section in paper order (gate
 * analyses, pooled rounds, sequential re-analyses, history, held-out
 * checks, power plan, Gate B, ladder gates, study, reward recipes,
 * audits), each with its tables, inline SVG figures and provenance
 * (source directory, sha256 of each input, generator, seed, draws). Inline
 * CSS only, no script and no external reference; a Content Security Policy
 * blocks any load. Wide tables scroll inside their own box and cells do
 * not wrap, so the page itself never scrolls sideways. Deterministic: the
 * same outputs give the same bytes.
 *
 * @param outputs What {@linkcode readAnalysisDir} found, for one directory or several.
 * @param options Title and command.
 * @returns The HTML text and the figures it shows (names unique; with several
 *   directories, each title ends with its run's name, e.g. `, Gate A`).
 *
 * @example
 * ```ts
 * import { renderReport } from "./report.ts";
 * import { ok } from "node:assert/strict";
 * const { html, figures } = renderReport({ dir: "out", contributions: null, selection: null, heldout: null,
 *   comparison: null, power: null,
 *   inputs: { "study.json": "ab" }, study: { format: "gatelab.study/v1",
 *     bootstrap: { draws: 10, seed: 1, resample: "tasks", resample_note: "", interval: "percentile",
 *       quantile_rule: "sorted[floor(q*(B-1))]", draw_order: "", prng: "xoshiro128**" },
 *     estimator: {}, comparisons: [], attempts: { attempts: 2, used: 2, violations: 0 }, issues: [],
 *     costs: { definitions: {}, arms: {}, total: { attempts: 2, failed_attempts: 0, verifier_trials: 2, gpu_hours: 0,
 *       gpu_hours_reported: 0, tokens: 0, tokens_reported: 0, service_seconds: null } },
 *     arms: { M: { planned: 2, observed: 2, successes: 1, estimate: 0.5, bounds: [0.5, 0.5], complete: true, label: "complete",
 *       train_seeds: [1], task_count: 2, slots: {}, attempts: { attempts: 2, used: 2, violations: 0, by_kind: {}, reasons: {} } } },
 *     generator: { tool: "gatelab", version: "0", command: "gate study s --out o" }, inputs: [] } });
 * ok(html.startsWith("<!DOCTYPE html>") && html.includes("<svg") && figures.length === 1);
 * ```
 */
export function renderReport(
  outputs: AnalysisOutputs | readonly AnalysisOutputs[],
  options: RenderReportOptions = {},
): { html: string; figures: Figure[]; sections: ReportSection[] } {
  const sources: readonly AnalysisOutputs[] = Array.isArray(outputs)
    ? outputs
    : [outputs as AnalysisOutputs];
  const title = options.title ?? "gatelab report";
  const generator = generatorMeta(options.command ?? "report");
  const found = sources.flatMap((source) =>
    reportSections(source).map((section) => ({ section, source }))
  );
  // Paper order; sections of one kind keep the order of the directories given.
  const ordered = found
    .map((x, i) => ({ ...x, i }))
    .sort((a, b) =>
      SECTION_ORDER.indexOf(a.section.kind) - SECTION_ORDER.indexOf(b.section.kind) || a.i - b.i
    );
  const figures: Figure[] = [];
  const used = new Set<string>();
  // Figures of several runs name their run in the title (and so in the LaTeX caption).
  const severalRuns = new Set(sources.map((s) => s.dir)).size > 1;
  const body: string[] = [`<h1>${escapeHtml(title)}</h1>`];
  body.push(
    `<p>Made by ${escapeHtml(generator.tool)} ${escapeHtml(generator.version)} (<code>${
      escapeHtml(generator.command)
    }</code>). Numbers: coefficients, standard errors and rewards with ${DECIMALS.estimate} decimals, ` +
      `p-values below ${P_FLOOR} as &lt;${P_FLOOR}, intervals as [low, high] after their ` +
      `estimate with their type in the column header.</p>`,
  );
  const id = (n: number, section: ReportSection) => `section-${n + 1}-${section.kind}`;
  body.push(
    `<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>${
      ordered.map(({ section }, n) =>
        `<li><a href="#${id(n, section)}">${escapeHtml(section.heading)}</a></li>`
      ).join("")
    }</ol></nav>`,
  );
  ordered.forEach(({ section, source }, n) => {
    body.push(
      `<section id="${id(n, section)}" data-kind="${section.kind}">\n<h2>${
        escapeHtml(section.heading)
      }</h2>`,
    );
    for (const item of section.items) {
      if ("subheading" in item) {
        body.push(`<h3>${escapeHtml(item.subheading)}</h3>`);
      } else if ("svg" in item) {
        const figure = uniqueFigure(severalRuns ? ofRun(item, source.dir) : item, used);
        figures.push(figure);
        body.push(
          `<div class="figure" id="figure-${escapeHtml(figure.name)}">${figure.svg}</div>`,
        );
      } else {
        body.push(`<div class="table-wrap">${toHtmlTable(item)}</div>`);
      }
    }
    body.push(provenanceHtml(section, source), "</section>");
  });
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
  return { html, figures, sections: ordered.map((x) => x.section) };
}
