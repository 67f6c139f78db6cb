/**
 * Figures of a study: per arm (or comparison) the point estimate, its
 * percentile interval, and the bounds that unresolved slots leave open;
 * the view adapters from study.json and from the in-memory analysis; and
 * {@linkcode studyFigures}, the figures the report shows.
 *
 * @module
 */
import * as Plot from "npm:@observablehq/plot@0.6.17";
import { type Figure, renderPlot } from "../figures/render.ts";
import type { StudyDocument } from "./document.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Arm = StudyDocument["arms"][string];
/** @ignore */
type Comparison = StudyDocument["comparisons"][number];

/** One arm or comparison of a study (docs/FORMAT.md section 6). */
export interface StudyRow {
  /** Arm or comparison name. */
  readonly label: string;
  /** `null` when some slot is unresolved. */
  readonly estimate: number | null;
  /** Percentile interval, or `null` (incomplete, or none computed). */
  readonly ci: readonly [number, number] | null;
  /** Worst and best case over unresolved slots. */
  readonly bounds: readonly [number, number];
}

/** Options of {@linkcode studyPlot}. */
export interface StudyPlotOptions {
  /**
   * Figure title.
   * @default {"Study estimates with intervals and unresolved bounds"}
   */
  readonly title?: string;
  /**
   * File stem of the figure.
   * @default {"study"}
   */
  readonly name?: string;
  /**
   * Axis label.
   * @default {"resolved rate"}
   */
  readonly xLabel?: string;
  /**
   * Draw a rule at zero (for differences, where the sign matters).
   * @default {false}
   */
  readonly zeroLine?: boolean;
}

/**
 * Draws per row a wide pale bar over the bounds, a dark rule over the
 * interval and a dot at the estimate; a row without an estimate is marked
 * "unresolved" at the right of its bounds; a legend line under the title
 * explains the marks.
 *
 * @param rows Arms or comparisons, drawn top to bottom in input order.
 * @param options Title, name and axis label.
 * @returns The figure (standalone SVG).
 * @throws {RangeError} When `rows` is empty.
 *
 * @example
 * ```ts
 * import { studyPlot } from "./figures.ts";
 * import { ok } from "node:assert/strict";
 * const fig = studyPlot([
 *   { label: "M", estimate: 0.4, ci: [0.3, 0.5], bounds: [0.4, 0.4] },
 *   { label: "B", estimate: null, ci: null, bounds: [0.2, 0.35] },
 * ]);
 * ok(fig.svg.includes(">unresolved</text>"));
 * ```
 */
export function studyPlot(rows: readonly StudyRow[], options: StudyPlotOptions = {}): Figure {
  if (rows.length === 0) throw new RangeError("Cannot draw study estimates: no rows");
  const labels = rows.map((r) => r.label);
  const marginLeft = Math.min(240, 16 + 6 * Math.max(...labels.map((l) => l.length)));
  const data = rows.map((r) => ({
    label: r.label,
    estimate: r.estimate,
    lo: r.ci?.[0] ?? null,
    hi: r.ci?.[1] ?? null,
    blo: r.bounds[0],
    bhi: r.bounds[1],
  }));
  return renderPlot(
    options.name ?? "study",
    options.title ?? "Study estimates with intervals and unresolved bounds",
    {
      width: marginLeft + 460,
      height: 50 + 26 * labels.length,
      marginLeft,
      marginRight: 80,
      x: { label: options.xLabel ?? "resolved rate", grid: true, nice: true },
      y: { domain: labels, label: null },
      marks: [
        ...(options.zeroLine ? [Plot.ruleX([0], { stroke: "#888", strokeWidth: 1.5 })] : []),
        Plot.ruleY(data, { y: "label", x1: "blo", x2: "bhi", stroke: "#c6d4f0", strokeWidth: 10 }),
        Plot.tickX(data, { y: "label", x: "blo", stroke: "#8aa2d8" }),
        Plot.tickX(data, { y: "label", x: "bhi", stroke: "#8aa2d8" }),
        Plot.ruleY(data.filter((d) => d.lo !== null && d.hi !== null), {
          y: "label",
          x1: "lo",
          x2: "hi",
          stroke: "#1f2a44",
          strokeWidth: 2,
        }),
        Plot.dot(data.filter((d) => d.estimate !== null), {
          y: "label",
          x: "estimate",
          fill: "#1f2a44",
          r: 3.5,
        }),
        Plot.text(data.filter((d) => d.estimate === null), {
          y: "label",
          x: "bhi",
          text: () => "unresolved",
          textAnchor: "start",
          dx: 8,
          fill: "#a33",
        }),
      ],
    },
    [
      "Dot: estimate; dark bar: 95% bootstrap percentile interval; pale band between ticks: " +
      "bounds if every unresolved slot failed or succeeded" +
      (options.zeroLine ? "; grey line: zero" : "") +
      ". Unresolved: no estimate while a slot is unresolved.",
    ],
  );
}

/** What {@linkcode studyRows} reads of study.json. */
export interface StudyRowsInput {
  /** Each arm's estimate and bounds. */
  readonly arms: Readonly<Record<string, Pick<Arm, "estimate" | "bounds">>>;
  /** Each comparison's estimate, interval and bounds. */
  readonly comparisons: readonly Pick<Comparison, "a" | "b" | "estimate" | "ci" | "bounds">[];
}

/**
 * Rows from study.json: one per arm (bounds, estimate, no interval)
 * and one per comparison `a − b` (bounds, estimate, percentile interval).
 *
 * @param study Parsed study.json.
 * @returns Rows for {@linkcode studyPlot}.
 *
 * @example
 * ```ts
 * import { studyRows } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { comparisons } = studyRows({ arms: {},
 *   comparisons: [{ a: "M", b: "B", estimate: null, bounds: [-0.1, 0.2], ci: null }] });
 * deepEqual(comparisons, [{ label: "M − B", estimate: null, ci: null, bounds: [-0.1, 0.2] }]);
 * ```
 */
export function studyRows(
  study: StudyRowsInput,
): { arms: StudyRow[]; comparisons: StudyRow[] } {
  const arms = Object.entries(study.arms).map(([arm, a]) => ({
    label: arm,
    estimate: a.estimate,
    ci: null,
    bounds: a.bounds,
  }));
  const comparisons = study.comparisons.map((c) => ({
    label: `${c.a} − ${c.b}`,
    estimate: c.estimate,
    ci: c.ci,
    bounds: c.bounds,
  }));
  return { arms, comparisons };
}

/** The parts of lib/study's `StudyAnalysis` that {@linkcode studyRowsFromAnalysis} reads. */
export interface StudyAnalysisRowsInput {
  /** Each arm's estimate and bounds. */
  readonly arms: readonly {
    readonly arm: string;
    readonly estimate: number | null;
    readonly bounds: readonly [number, number];
  }[];
  /** Each comparison's estimate, interval and bounds. */
  readonly comparisons: readonly {
    readonly a: string;
    readonly b: string;
    readonly estimate: number | null;
    readonly ci: readonly [number, number] | null;
    readonly bounds: readonly [number, number];
  }[];
}

/**
 * Study rows straight from lib/study's in-memory analysis (arms in plan
 * order), the same rows {@linkcode studyRows} makes from study.json.
 *
 * @param analysis The result of `analyzeStudy`.
 * @returns Rows for {@linkcode studyPlot}.
 *
 * @example
 * ```ts
 * import { studyRowsFromAnalysis } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { arms } = studyRowsFromAnalysis({ arms: [{ arm: "M", estimate: 0.5, bounds: [0.5, 0.5] }], comparisons: [] });
 * deepEqual(arms, [{ label: "M", estimate: 0.5, ci: null, bounds: [0.5, 0.5] }]);
 * ```
 */
export function studyRowsFromAnalysis(
  analysis: StudyAnalysisRowsInput,
): { arms: StudyRow[]; comparisons: StudyRow[] } {
  return {
    arms: analysis.arms.map((a) => ({
      label: a.arm,
      estimate: a.estimate,
      ci: null,
      bounds: a.bounds,
    })),
    comparisons: analysis.comparisons.map((c) => ({
      label: `${c.a} − ${c.b}`,
      estimate: c.estimate,
      ci: c.ci,
      bounds: c.bounds,
    })),
  };
}

/** The analysis lists its arms; study.json keys them by name. */
function isAnalysis(doc: StudyRowsInput | StudyAnalysisRowsInput): doc is StudyAnalysisRowsInput {
  return Array.isArray(doc.arms);
}

/**
 * The figures of study.json the report shows: `study_arms` (estimates and
 * bounds per arm) and `study_comparisons` (differences with their 95%
 * intervals and bounds, a rule at zero); a figure without rows is left out.
 * A notebook passes the analysis itself (`analyzeStudy`): the same rows,
 * so the same figures.
 *
 * @param doc study.json, or the result of `analyzeStudy`.
 * @returns The figures, arms first.
 *
 * @example
 * ```ts
 * import { studyFigures } from "./figures.ts";
 * import { deepEqual } from "node:assert/strict";
 * const figures = studyFigures({ arms: { M: { estimate: 0.5, bounds: [0.5, 0.5] } },
 *   comparisons: [] });
 * deepEqual(figures.map((f) => f.name), ["study_arms"]);
 * const fromAnalysis = studyFigures({ arms: [{ arm: "M", estimate: 0.5, bounds: [0.5, 0.5] }],
 *   comparisons: [] });
 * deepEqual(fromAnalysis.map((f) => f.svg), figures.map((f) => f.svg));
 * ```
 */
export function studyFigures(doc: StudyRowsInput | StudyAnalysisRowsInput): Figure[] {
  const { arms, comparisons } = isAnalysis(doc) ? studyRowsFromAnalysis(doc) : studyRows(doc);
  const figures: Figure[] = [];
  if (arms.length > 0) {
    figures.push(studyPlot(arms, {
      name: "study_arms",
      title: "Study arms: estimates and bounds for unresolved slots",
    }));
  }
  if (comparisons.length > 0) {
    figures.push(studyPlot(comparisons, {
      name: "study_comparisons",
      title: "Study comparisons: estimates, 95% intervals and bounds",
      xLabel: "difference in resolved rate",
      zeroLine: true,
    }));
  }
  return figures;
}
