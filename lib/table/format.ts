/**
 * How every number and name prints, in one place. Markdown, LaTeX, the HTML
 * report, figures and the notebooks all format through this module, so a
 * quantity has the same decimals, the same column word and the same
 * interval notation wherever it appears:
 *
 * - coefficients, their standard errors, means and differences of rewards:
 *   {@linkcode DECIMALS}`.estimate` (3) decimals;
 * - p-values: 3 decimals, and `<0.001` below {@linkcode P_FLOOR};
 * - rates and shares (resolved rate, selection frequency, failure rate): 3;
 * - test statistics and correlations (F, Spearman, Kendall): 2;
 * - counts (tasks, pairs, draws, ranks): whole numbers;
 * - an interval is `[lo, hi]`, after its estimate when both are shown
 *   (`0.108 [0.043, 0.173]`), and its type (level and method) is named in
 *   the column header or the note, never in the cell.
 *
 * Missing values (null, NaN) print as an em dash. Negative numbers carry an
 * ASCII hyphen-minus here; the LaTeX renderer sets every numeric cell in
 * math mode, which prints a true minus.
 *
 * @module
 */

/** Decimals per kind of quantity. */
export const DECIMALS = {
  /** Coefficients, standard errors, means and differences of rewards. */
  estimate: 3,
  /** p-values (above {@linkcode P_FLOOR}). */
  p: 3,
  /** Rates and shares in [0, 1]. */
  rate: 3,
  /** Test statistics and rank correlations. */
  statistic: 2,
  /** Percentages. */
  percent: 1,
  /** GPU-hours and other costs with a unit. */
  cost: 2,
} as const;

/** p-values below this print as `<0.001`. */
export const P_FLOOR = 0.001;

/** The one word for a paired-delta regression coefficient (beta) in every output. */
export const COEFFICIENT = "coefficient";

/**
 * Fixed-point formatting with `digits` decimals; `null`/NaN render as an
 * em dash, and negative zero as zero.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatNumber(0.123456, 3), "0.123");
 * deepEqual(formatNumber(-0.0001, 3), "0.000");
 * deepEqual(formatNumber(null, 3), "—");
 * ```
 */
export function formatNumber(value: number | null | undefined, digits: number): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/**
 * A coefficient, standard error, mean or difference of rewards.
 *
 * @example
 * ```ts
 * import { formatEstimate } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatEstimate(-0.08071), "-0.081");
 * ```
 */
export function formatEstimate(value: number | null | undefined): string {
  return formatNumber(value, DECIMALS.estimate);
}

/**
 * A p-value: 3 decimals, `<0.001` below {@linkcode P_FLOOR}.
 *
 * @example
 * ```ts
 * import { formatP } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([formatP(0.00012), formatP(0.0137), formatP(null)], ["<0.001", "0.014", "—"]);
 * ```
 */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return "—";
  return p < P_FLOOR ? `<${P_FLOOR}` : formatNumber(p, DECIMALS.p);
}

/**
 * A p-value in a sentence: `p = 0.014`, and `p < 0.001` below
 * {@linkcode P_FLOOR} (never `p = <0.001`).
 *
 * @example
 * ```ts
 * import { pInProse } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([pInProse(0.00012), pInProse(0.0137), pInProse(null)], ["p < 0.001", "p = 0.014", "p = —"]);
 * ```
 */
export function pInProse(p: number | null | undefined): string {
  const text = formatP(p);
  return text.startsWith("<") ? `p < ${text.slice(1)}` : `p = ${text}`;
}

/**
 * A rate or share in [0, 1].
 *
 * @example
 * ```ts
 * import { formatRate } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatRate(0.5), "0.500");
 * ```
 */
export function formatRate(value: number | null | undefined): string {
  return formatNumber(value, DECIMALS.rate);
}

/**
 * A test statistic or rank correlation.
 *
 * @example
 * ```ts
 * import { formatStatistic } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatStatistic(0.8765), "0.88");
 * ```
 */
export function formatStatistic(value: number | null | undefined): string {
  return formatNumber(value, DECIMALS.statistic);
}

/**
 * A count: a whole number, never `6.000`.
 *
 * @example
 * ```ts
 * import { formatCount } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([formatCount(6), formatCount(12345), formatCount(null)], ["6", "12345", "—"]);
 * ```
 */
export function formatCount(value: number | null | undefined): string {
  return formatNumber(value, 0);
}

/**
 * A share in [0, 1] as a percentage with one decimal.
 *
 * @example
 * ```ts
 * import { formatPercent } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatPercent(0.4567), "45.7%");
 * ```
 */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || Number.isNaN(share)) return "—";
  return `${formatNumber(100 * share, DECIMALS.percent)}%`;
}

/**
 * An interval as `[lo, hi]`, estimate decimals unless `digits` is given.
 *
 * @example
 * ```ts
 * import { formatInterval } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatInterval([-0.0123, 0.2]), "[-0.012, 0.200]");
 * deepEqual(formatInterval(null), "—");
 * ```
 */
export function formatInterval(
  interval: readonly [number, number] | readonly number[] | null | undefined,
  digits: number = DECIMALS.estimate,
): string {
  if (!interval) return "—";
  return `[${formatNumber(interval[0], digits)}, ${formatNumber(interval[1], digits)}]`;
}

/**
 * An estimate followed by its interval, the one notation for both in a
 * single column: `0.108 [0.043, 0.173]`; the estimate alone when there is
 * no interval.
 *
 * @example
 * ```ts
 * import { formatWithInterval } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(formatWithInterval(0.1076, [0.0423, 0.1746]), "0.108 [0.042, 0.175]");
 * deepEqual(formatWithInterval(0.1076, null), "0.108");
 * ```
 */
export function formatWithInterval(
  estimate: number | null | undefined,
  interval: readonly [number, number] | readonly number[] | null | undefined,
  digits: number = DECIMALS.estimate,
): string {
  const point = formatNumber(estimate, digits);
  return interval ? `${point} ${formatInterval(interval, digits)}` : point;
}

/**
 * The header of a column that holds an estimate and its interval, naming
 * the interval's level and type.
 *
 * @example
 * ```ts
 * import { intervalHeader } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(intervalHeader("Coefficient", "task bootstrap, percentile"), "Coefficient [95% CI, task bootstrap, percentile]");
 * ```
 */
export function intervalHeader(quantity: string, type: string, level = 95): string {
  return `${quantity} [${level}% CI, ${type}]`;
}

const STATUS_LABELS: Readonly<Record<string, string>> = {
  selected: "selected",
  non_positive: "non-positive",
  budget_excluded: "over budget",
  not_estimable: "not estimable",
  rewrite_loser: "rewrite loser",
  complete: "complete",
  incomplete: "incomplete",
};

/**
 * The one spelling of a status in every output (tables, figures, report).
 * Unknown statuses print with underscores as spaces.
 *
 * @example
 * ```ts
 * import { statusLabel } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([statusLabel("non_positive"), statusLabel("budget_excluded")], ["non-positive", "over budget"]);
 * ```
 */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll("_", " ");
}

/** The parts of a design column that name it. */
export interface NamedColumn {
  /** The version. */
  readonly version_id: string;
  /** Slot of the version. */
  readonly slot_id: string;
  /** Chunk of the version; the slot id names it when absent. */
  readonly chunk_id?: string | undefined;
}

/**
 * Readable names of design columns: a slot with one version is named by its
 * chunk (`query-formulation`, not `query-formulation.v1`); versions of a
 * REWRITE family keep their version ids, which tell them apart.
 *
 * @param columns The design columns (all of them, so families are seen whole).
 * @returns version_id to display name.
 *
 * @example
 * ```ts
 * import { columnNames } from "./format.ts";
 * import { deepEqual } from "node:assert/strict";
 * const names = columnNames([
 *   { version_id: "a.v1", slot_id: "a", chunk_id: "a" },
 *   { version_id: "b.v1", slot_id: "b", chunk_id: "b" }, { version_id: "b.v2", slot_id: "b", chunk_id: "b" },
 * ]);
 * deepEqual([...names.values()], ["a", "b.v1", "b.v2"]);
 * ```
 */
export function columnNames(columns: readonly NamedColumn[]): Map<string, string> {
  const perSlot = new Map<string, number>();
  for (const c of columns) perSlot.set(c.slot_id, (perSlot.get(c.slot_id) ?? 0) + 1);
  return new Map(columns.map((c) => [
    c.version_id,
    perSlot.get(c.slot_id) === 1 ? (c.chunk_id ?? c.slot_id) : c.version_id,
  ]));
}
