/**
 * The self-contained HTML report of an analysis directory: tables and
 * inline SVG figures in one file, no script, no network (a Content Security
 * Policy forbids any load).
 *
 * @module
 */
import type { Table } from "../report/table.ts";
import type { Figure } from "../figures/_render.ts";
import { analysisFigures, bootstrapStability } from "../figures/analysis_figures.ts";
import { studyPlot } from "../figures/study_arms.ts";
import { rankAgreementPlot } from "../figures/heldout.ts";
import { acrossGateRankPoints, heldoutGainPoints, studyRows } from "../figures/adapters.ts";
import type { AcrossGateCheck, HeldoutResult } from "../infer/heldout.ts";
import type { SelectionStability } from "../infer/bootstrap.ts";
import {
  acrossGateTable,
  heldoutSummaryTable,
  powerTables,
  stabilityTable,
} from "../report/infer_tables.ts";
import type { PowerPlan } from "../infer/power.ts";
import { generatorMeta } from "../core/meta.ts";
import type { AnalysisOutputs } from "./read_analysis_dir.ts";
import { escapeHtml } from "./escape_html.ts";
import { toHtmlTable } from "./html_table.ts";
import { comparisonTables, selectionTable } from "../report/gate_tables.ts";
import {
  coefficientsTable,
  metricMeansTable,
  overviewTable,
  studyArmsFileTable,
  studyComparisonsFileTable,
} from "./report_tables.ts";
import { internalizationTable, lifecycleTable } from "../history/tables.ts";
import { lifecycleFigure, trajectoryFigure } from "../history/figures.ts";

/** One section of the report: a heading, then tables and figures in order. */
export interface ReportSection {
  readonly heading: string;
  readonly items: readonly (Table | Figure)[];
}

/**
 * The report's sections, in order: analysis overview, coefficients,
 * selection (with bootstrap stability when present), held-out checks,
 * Gate B comparison, power plan, study, history across checkpoints.
 * Sections without data are left out; every section of an exploratory
 * analysis is headed as exploratory.
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
 *   study: { format: "gatelab.study/v1", bootstrap: { draws: 10, seed: 1, resample: "tasks" },
 *     arms: { M: { planned: 1, observed: 1, successes: 1, estimate: 1, bounds: [1, 1], complete: true } },
 *     comparisons: [] } });
 * deepEqual(sections.map((s) => s.heading), ["Study"]);
 * ```
 */
export function reportSections(outputs: AnalysisOutputs): ReportSection[] {
  const sections: ReportSection[] = [];
  const { contributions, selection, study } = outputs;
  // The same figures the notebooks show, placed next to their tables.
  const figures = new Map(
    (contributions ? analysisFigures({ contributions, selection }) : []).map((f) => [f.name, f]),
  );
  const figure = (name: string): Figure[] => (figures.has(name) ? [figures.get(name)!] : []);
  if (contributions) {
    const metric = selection?.metric ??
      (contributions.metrics["reward"] ? "reward" : Object.keys(contributions.metrics)[0]);
    sections.push({
      heading: "Gate analysis",
      items: [
        overviewTable(contributions),
        metricMeansTable(contributions),
        ...figure("delta_by_count"),
      ],
    });
    sections.push({
      heading: "Coefficients",
      items: [
        ...figure("forest"),
        ...(metric === undefined ? [] : [coefficientsTable(contributions, metric, selection)]),
      ],
    });
  }
  if (selection) {
    const items: (Table | Figure)[] = [selectionTable(selection), ...figure("selection_stability")];
    const stability = contributions ? bootstrapStability(contributions) : null;
    // The schema checked every field the shared table reads.
    if (stability && stability.metric === selection.metric) {
      items.push(stabilityTable(stability as unknown as SelectionStability));
    }
    sections.push({ heading: "Selection", items });
  }
  if (outputs.heldout) {
    const heldout = outputs.heldout;
    // The schema checked every field the shared tables read.
    const items: (Table | Figure)[] = [heldoutSummaryTable(heldout as unknown as HeldoutResult)];
    const gains = heldoutGainPoints(heldout);
    if (gains.length > 0) {
      items.push(rankAgreementPlot(gains, {
        name: "heldout_gain",
        showLabels: false,
        title:
          `Held-out splits: predicted vs realised gain of the selected set (${heldout.plan.metric})`,
        axisLabels: ["predicted gain (fit part)", "realised gain (held-out part)"],
      }));
    }
    if (heldout.against) {
      const against = heldout.against;
      items.push(acrossGateTable(against as unknown as AcrossGateCheck));
      if (against.per_version.length > 0) {
        items.push(rankAgreementPlot(acrossGateRankPoints(against), {
          name: "heldout_rank_agreement",
          title: `Rank agreement with the later gate on ${against.shared.length} shared versions`,
          axisLabels: ["rank on the selecting gate", "rank on the later gate"],
          subtitle: `Spearman ${against.spearman_shared?.toFixed(3) ?? "—"}`,
        }));
      }
    }
    sections.push({ heading: "Held-out checks", items });
  }
  if (outputs.comparison) {
    sections.push({
      heading: "Gate B: equipped vs bare",
      items: comparisonTables(outputs.comparison),
    });
  }
  if (outputs.power) {
    // The schema checked every field the shared tables read.
    sections.push({
      heading: "Power plan",
      items: powerTables(outputs.power as unknown as PowerPlan),
    });
  }
  if (study) {
    const { arms, comparisons } = studyRows(study);
    const items: (Table | Figure)[] = [studyArmsFileTable(study)];
    if (arms.length > 0) {
      items.push(
        studyPlot(arms, {
          name: "study_arms",
          title: "Study arms: estimates and unresolved bounds",
        }),
      );
    }
    items.push(studyComparisonsFileTable(study));
    if (comparisons.length > 0) {
      items.push(studyPlot(comparisons, {
        name: "study_comparisons",
        title: "Study comparisons: estimates, 95% intervals and unresolved bounds",
        xLabel: "difference in resolved rate",
      }));
    }
    sections.push({ heading: "Study", items });
  }
  if (outputs.history) {
    const h = outputs.history;
    sections.push({
      heading: "History across checkpoints",
      items: [lifecycleTable(h), lifecycleFigure(h), internalizationTable(h), trajectoryFigure(h)],
    });
  }
  if (contributions?.exploratory) {
    // An exploratory analysis (waived pairing codes) must never read as a strict one.
    const waived = (contributions.waived_codes ?? []).join(", ");
    return sections.map((s) =>
      s.heading === "Study" || s.heading === "History across checkpoints"
        ? s
        : { ...s, heading: `Exploratory (waived: ${waived}): ${s.heading}` }
    );
  }
  return sections;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1b1b1b; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 1em 0; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #e4e4e4; }
thead th { border-bottom: 2px solid #888; }
tfoot td { font-size: 0.85em; color: #555; border: none; }
.r { text-align: right; } .l { text-align: left; } .c { text-align: center; }
.figure { margin: 1em 0; overflow-x: auto; }
code, .hash { font-family: ui-monospace, monospace; font-size: 0.9em; }
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

/**
 * Renders the report as one HTML document: inline CSS, tables, inline SVG
 * figures, and the sha256 of every input file. No script and no
 * external reference; a Content Security Policy blocks any load.
 * Deterministic: the same outputs give the same bytes.
 *
 * @param outputs What {@linkcode readAnalysisDir} found.
 * @param options Title and command.
 * @returns The HTML text and the figures it shows.
 *
 * @example
 * ```ts
 * import { renderReport } from "./report.ts";
 * import { ok } from "node:assert/strict";
 * const { html, figures } = renderReport({ dir: "out", contributions: null, selection: null, heldout: null,
 *   comparison: null, power: null,
 *   inputs: { "study.json": "ab" }, study: { format: "gatelab.study/v1",
 *   bootstrap: { draws: 10, seed: 1, resample: "tasks" }, comparisons: [],
 *   arms: { M: { planned: 2, observed: 2, successes: 1, estimate: 0.5, bounds: [0.5, 0.5], complete: true } } } });
 * ok(html.startsWith("<!DOCTYPE html>") && html.includes("<svg") && figures.length === 1);
 * ```
 */
export function renderReport(
  outputs: AnalysisOutputs,
  options: RenderReportOptions = {},
): { html: string; figures: Figure[] } {
  const title = options.title ?? "gatelab report";
  const generator = generatorMeta(options.command ?? "report");
  const sections = reportSections(outputs);
  const figures: Figure[] = [];
  const body: string[] = [`<h1>${escapeHtml(title)}</h1>`];
  body.push(
    `<p>Made by ${escapeHtml(generator.tool)} ${escapeHtml(generator.version)} (<code>${
      escapeHtml(generator.command)
    }</code>) from <code>${escapeHtml(outputs.dir)}</code>.</p>`,
  );
  for (const section of sections) {
    body.push(`<section>\n<h2>${escapeHtml(section.heading)}</h2>`);
    for (const item of section.items) {
      if ("svg" in item) {
        figures.push(item);
        body.push(`<div class="figure" id="figure-${escapeHtml(item.name)}">${item.svg}</div>`);
      } else {
        body.push(toHtmlTable(item));
      }
    }
    body.push("</section>");
  }
  body.push(
    toHtmlTable({
      caption: "Inputs",
      columns: [{ label: "file" }, { label: "sha256" }],
      rows: Object.entries(outputs.inputs).map(([name, hash]) => [name, hash]),
    }),
  );
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
  return { html, figures };
}
