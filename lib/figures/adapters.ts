/**
 * Small adapters from gatelab's output files to the plain inputs of the
 * figure functions.
 *
 * @module
 */
import { columnNames } from "../report/format.ts";
import type { IntervalRow } from "./forest.ts";
import type { StudyRow } from "./study_arms.ts";
import type { RankPoint } from "./heldout.ts";
import type {
  AcrossGateJson,
  ContributionsJson,
  HeldoutJson,
  StudyJson,
  View,
} from "../contract/outputs/mod.ts";

// Parts of zod-inferred output types (documented by their schemas; @ignore keeps
// deno doc from reporting references into zod).
/** @ignore */
type Coefficient = ContributionsJson["metrics"][string]["coefficients"][string];
/** @ignore */
type Arm = StudyJson["arms"][string];
/** @ignore */
type Comparison = StudyJson["comparisons"][number];
/** @ignore */
type Split = HeldoutJson["splits"][number];

/** What {@linkcode forestRows} reads of contributions.json. */
export interface ForestInput {
  /** Design columns, in column order. */
  readonly columns: ContributionsJson["columns"];
  /** Each version's estimate, standard errors and interval, per metric. */
  readonly metrics: Readonly<
    Record<string, {
      readonly coefficients: Readonly<
        Record<string, View<Coefficient, "estimate", "se_hc3" | "se_cluster" | "ci">>
      >;
    }>
  >;
}

/** What {@linkcode studyRows} reads of study.json. */
export interface StudyRowsInput {
  readonly arms: Readonly<Record<string, Pick<Arm, "estimate" | "bounds">>>;
  readonly comparisons: readonly Pick<Comparison, "a" | "b" | "estimate" | "ci" | "bounds">[];
}

/** z of the two-sided 95% normal interval used when no bootstrap interval exists. */
const Z95 = 1.959963984540054;

/** How {@linkcode forestRows} chose each interval. */
export type IntervalSource =
  | "bootstrap_percentile"
  | "normal_se_cluster"
  | "normal_se_hc3"
  | "none";

/** Options of {@linkcode forestRows}. */
export interface ForestRowsOptions {
  /**
   * Metrics to include, in panel order.
   * @default {all metrics of the file, in file order}
   */
  readonly metrics?: readonly string[];
}

/**
 * Forest-plot rows from contributions.json: one row per (metric, version)
 * in column order. The interval is the bootstrap percentile `ci` when the
 * coefficient has one, else estimate ± 1.96 × `se_cluster` (pooled gates)
 * or × `se_hc3`; the source is returned per row.
 *
 * @param contributions Parsed contributions.json.
 * @param options Metrics to include.
 * @returns Rows (group = metric) and the interval source of each row.
 *
 * @example
 * ```ts
 * import { forestRows } from "./adapters.ts";
 * import { deepEqual } from "node:assert/strict";
 * const { rows, sources } = forestRows({
 *   columns: [{ version_id: "v1", slot_id: "s", chunk_id: "c", role: "add" }],
 *   metrics: { reward: { coefficients: { v1: { estimate: 0.5, se_hc3: 0.1 } } } },
 * });
 * deepEqual(rows[0]!.lo!.toFixed(4), "0.3040");
 * deepEqual(sources, ["normal_se_hc3"]);
 * ```
 */
export function forestRows(
  contributions: ForestInput,
  options: ForestRowsOptions = {},
): { rows: IntervalRow[]; sources: IntervalSource[] } {
  const metrics = options.metrics ?? Object.keys(contributions.metrics);
  const rows: IntervalRow[] = [];
  const sources: IntervalSource[] = [];
  // Readable names, as in the tables: a one-version slot by its chunk.
  const names = columnNames(contributions.columns);
  for (const metric of metrics) {
    const m = contributions.metrics[metric];
    if (!m) continue;
    for (const column of contributions.columns) {
      const c = m.coefficients[column.version_id];
      if (!c) continue;
      let lo: number | null = null, hi: number | null = null;
      let source: IntervalSource = "none";
      if (c.ci) {
        [lo, hi] = c.ci;
        source = "bootstrap_percentile";
      } else if (c.estimate !== null) {
        const se = c.se_cluster ?? c.se_hc3 ?? null;
        if (se !== null && Number.isFinite(se)) {
          lo = c.estimate - Z95 * se;
          hi = c.estimate + Z95 * se;
          source = c.se_cluster != null ? "normal_se_cluster" : "normal_se_hc3";
        }
      }
      rows.push({
        label: names.get(column.version_id) ?? column.version_id,
        estimate: c.estimate,
        lo,
        hi,
        group: metric,
      });
      sources.push(source);
    }
  }
  return { rows, sources };
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
 * import { studyRows } from "./adapters.ts";
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

/**
 * Predicted against realised gain of the selected set, one point per
 * usable held-out split (label `repeat.fold`), for
 * {@linkcode rankAgreementPlot} with gain axis labels.
 *
 * @param heldout Parsed heldout.json.
 * @returns Points of splits with both gains.
 *
 * @example
 * ```ts
 * import { heldoutGainPoints } from "./adapters.ts";
 * import { deepEqual } from "node:assert/strict";
 * const points = heldoutGainPoints({
 *   splits: [{ repeat: 0, fold: 1, ok: true, gain_predicted: 0.4, gain_realised: 0.2 }] });
 * deepEqual(points, [{ label: "0.1", validation: 0.4, heldOut: 0.2 }]);
 * ```
 */
export function heldoutGainPoints(
  heldout: {
    readonly splits: readonly View<
      Split,
      "repeat" | "fold" | "ok" | "gain_predicted" | "gain_realised"
    >[];
  },
): RankPoint[] {
  const out: RankPoint[] = [];
  for (const s of heldout.splits) {
    const p = s.gain_predicted, r = s.gain_realised;
    if (!s.ok || typeof p !== "number" || typeof r !== "number") continue;
    if (!Number.isFinite(p) || !Number.isFinite(r)) continue;
    out.push({ label: `${s.repeat}.${s.fold}`, validation: p, heldOut: r });
  }
  return out;
}

/** Average ranks, 1 = highest value. */
function descendingRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let t = i; t <= j; t++) ranks[order[t]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/**
 * Rank points of a selection checked against a later gate: per shared
 * version its rank (1 = highest coefficient, ties averaged) on the earlier
 * and on the later gate.
 *
 * @param against The `against` block of heldout.json.
 * @returns One point per shared version.
 *
 * @example
 * ```ts
 * import { acrossGateRankPoints } from "./adapters.ts";
 * import { deepEqual } from "node:assert/strict";
 * const points = acrossGateRankPoints({
 *   per_version: [{ version_id: "a", earlier: 0.3, later: 0.1 }, { version_id: "b", earlier: 0.1, later: 0.2 }] });
 * deepEqual(points, [{ label: "a", validation: 1, heldOut: 2 }, { label: "b", validation: 2, heldOut: 1 }]);
 * ```
 */
export function acrossGateRankPoints(against: Pick<AcrossGateJson, "per_version">): RankPoint[] {
  const earlier = descendingRanks(against.per_version.map((v) => v.earlier));
  const later = descendingRanks(against.per_version.map((v) => v.later));
  return against.per_version.map((v, i) => ({
    label: v.version_id,
    validation: earlier[i]!,
    heldOut: later[i]!,
  }));
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
 * import { studyRowsFromAnalysis } from "./adapters.ts";
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
