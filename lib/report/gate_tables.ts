/**
 * Tables of a gate analysis and of a Gate B comparison, as {@linkcode Table}
 * models rendered by `toMarkdown` / `toLatex`.
 *
 * @module
 */

import { formatInterval, formatNumber, type Table } from "./table.ts";

/** The parts of contributions.json the coefficient tables read. */
export interface CoefficientTableInput {
  readonly columns: readonly { version_id: string; slot_id: string; role: string }[];
  readonly conventions?: { readonly cov_type?: string };
  readonly n_pairs: number;
  readonly n_tasks?: number;
  readonly baseline: { readonly run_id: string; readonly sha256: string };
  readonly metrics: Readonly<
    Record<string, {
      readonly df_resid?: number;
      readonly resid_se?: number | null;
      readonly r2_uncentered?: number | null;
      readonly masked_mean: number | null;
      readonly bare_mean: number | null;
      readonly delta_mean: number | null;
      readonly coefficients: Readonly<
        Record<string, {
          readonly estimate: number | null;
          readonly se_hc3?: number | null;
          readonly se_robust?: number | null;
          readonly p?: number | null;
          readonly se_cluster?: number | null;
          readonly p_cluster?: number | null;
          readonly se_bootstrap?: number | null;
          readonly ci?: readonly [number, number] | readonly number[] | null;
        }>
      >;
    }>
  >;
}

/** A p-value with 4 decimals, or `<0.0001`. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || Number.isNaN(p)) return "—";
  return p < 0.0001 ? "<0.0001" : formatNumber(p, 4);
}

/**
 * One coefficient table per metric: estimate, HC3 (and the chosen HC type
 * when it differs), normal p, CR1 with its p, and the bootstrap SE and
 * percentile interval when present. Notes carry n, df, residual SE,
 * uncentred R-squared and the means.
 *
 * @param contributions contributions.json (or the analysis object).
 * @returns Tables, `reward` first, in the document's metric order.
 *
 * @example
 * ```ts
 * import { coefficientTables } from "./gate_tables.ts";
 * import { toMarkdown } from "./table.ts";
 * import { ok } from "node:assert/strict";
 * const t = coefficientTables({
 *   columns: [{ version_id: "a", slot_id: "a", role: "add" }], n_pairs: 3,
 *   baseline: { run_id: "bare", sha256: "ab" },
 *   metrics: { reward: { masked_mean: 0.5, bare_mean: 0.3, delta_mean: 0.2,
 *     coefficients: { a: { estimate: 0.3, se_hc3: 0.1, p: 0.0027, se_cluster: 0.09, p_cluster: 0.0009 } } } },
 * });
 * ok(toMarkdown(t[0]!).includes("| a | a | add | 0.3000 | 0.1000 | 0.0027 | 0.0900 | 0.0009 |"));
 * ```
 */
export function coefficientTables(contributions: CoefficientTableInput): Table[] {
  const cov = contributions.conventions?.cov_type ?? "hc3";
  return Object.entries(contributions.metrics).map(([metric, m]) => {
    const coefs = Object.values(m.coefficients);
    const hasBoot = coefs.some((c) => c.se_bootstrap !== undefined);
    const showRobust = cov !== "hc3";
    const columns = [
      { label: "version" },
      { label: "slot" },
      { label: "role" },
      { label: "estimate", align: "right" as const },
      { label: "SE HC3", align: "right" as const },
      ...(showRobust ? [{ label: `SE ${cov.toUpperCase()}`, align: "right" as const }] : []),
      { label: `p (${cov.toUpperCase()})`, align: "right" as const },
      { label: "SE CR1", align: "right" as const },
      { label: "p (CR1)", align: "right" as const },
      ...(hasBoot
        ? [{ label: "SE boot", align: "right" as const }, {
          label: "95% CI (boot)",
          align: "right" as const,
        }]
        : []),
    ];
    const rows = contributions.columns.map((c) => {
      const x = m.coefficients[c.version_id];
      return [
        c.version_id,
        c.slot_id,
        c.role,
        formatNumber(x?.estimate, 4),
        formatNumber(x?.se_hc3, 4),
        ...(showRobust ? [formatNumber(x?.se_robust, 4)] : []),
        formatP(x?.p),
        formatNumber(x?.se_cluster, 4),
        formatP(x?.p_cluster),
        ...(hasBoot ? [formatNumber(x?.se_bootstrap, 4), formatInterval(x?.ci ?? null, 4)] : []),
      ];
    });
    const notes = [
      `R_i - B_i = C_i' beta + e_i, no intercept; n = ${contributions.n_pairs} pairs` +
      (contributions.n_tasks !== undefined ? `, ${contributions.n_tasks} task clusters` : "") +
      (m.df_resid !== undefined ? `, df_resid = ${m.df_resid}` : "") +
      (m.resid_se !== undefined ? `, residual SE = ${formatNumber(m.resid_se, 4)}` : "") +
      (m.r2_uncentered !== undefined
        ? `, uncentred R^2 = ${formatNumber(m.r2_uncentered, 4)}`
        : ""),
      `means: masked ${formatNumber(m.masked_mean, 4)}, bare ${formatNumber(m.bare_mean, 4)}, ` +
      `delta ${formatNumber(m.delta_mean, 4)}; p-values two-sided normal; CR1 clustered by task`,
      `baseline ${contributions.baseline.run_id} sha256 ${
        contributions.baseline.sha256.slice(0, 12)
      }`,
    ];
    return {
      caption: `Paired-delta coefficients: ${metric}`,
      label: `tab:coefficients-${metric.replaceAll("_", "-")}`,
      columns,
      rows,
      notes,
    };
  });
}

/** The parts of selection.json the decision table reads. */
export interface SelectionTableInput {
  readonly metric: string;
  readonly budget_k: number;
  readonly exploratory?: boolean;
  readonly selected: readonly string[];
  readonly decisions: readonly {
    readonly slot_id: string;
    readonly version_id: string;
    readonly role: string;
    readonly alpha: number | null;
    readonly rank: number | null;
    readonly status: string;
    readonly retired: boolean;
  }[];
}

/**
 * The decision table: survivors by rank, then rewrite losers (in column
 * order), with alpha, status and retired.
 *
 * @param selection selection.json.
 * @returns The table.
 *
 * @example
 * ```ts
 * import { selectionTable } from "./gate_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const t = selectionTable({ metric: "reward", budget_k: 1, selected: ["b"], decisions: [
 *   { slot_id: "a", version_id: "a", role: "current", alpha: -0.1, rank: 2, status: "non_positive", retired: true },
 *   { slot_id: "b", version_id: "b", role: "add", alpha: 0.2, rank: 1, status: "selected", retired: false },
 * ] });
 * deepEqual(t.rows.map((r) => r[1]), ["b", "a"]);
 * ```
 */
export function selectionTable(selection: SelectionTableInput): Table {
  const sorted = [...selection.decisions].sort((a, b) =>
    (a.rank ?? Infinity) - (b.rank ?? Infinity)
  );
  return {
    caption: `Selection by ${selection.metric}: positive top-${selection.budget_k}` +
      (selection.exploratory ? " (exploratory budget)" : ""),
    label: "tab:selection",
    columns: [
      { label: "rank", align: "right" },
      { label: "version" },
      { label: "slot" },
      { label: "role" },
      { label: "alpha", align: "right" },
      { label: "status" },
      { label: "retired" },
    ],
    rows: sorted.map((d) => [
      d.rank === null ? "—" : String(d.rank),
      d.version_id,
      d.slot_id,
      d.role,
      formatNumber(d.alpha, 4),
      d.status.replaceAll("_", " "),
      d.retired ? "yes" : "",
    ]),
    notes: [
      `selected (${selection.selected.length}): ${selection.selected.join(", ") || "none"}`,
      "REWRITE families pick their winner first (a tie keeps old); losers have no rank",
    ],
  };
}

/** One compared quantity as read by {@linkcode comparisonTables}. */
interface ComparedRow {
  readonly bare: number | null;
  readonly equipped: number | null;
  readonly difference: number | null;
  readonly ci: readonly [number, number] | readonly number[] | null;
}

/** The parts of comparison.json the Gate B tables read. */
export interface ComparisonTableInput {
  readonly bare: { readonly run_id: string };
  readonly equipped: { readonly run_id: string };
  readonly split: string;
  readonly n_tasks: number;
  readonly n_pairs: number;
  readonly bootstrap: { readonly draws: number; readonly seed: number };
  readonly metrics: Readonly<Record<string, ComparedRow>>;
  readonly behaviour: Readonly<Record<string, ComparedRow | null>>;
}

/**
 * Gate B tables: reward and components per arm with the task-aligned
 * difference and its paired bootstrap interval; then failure rate, steps
 * and tokens.
 *
 * @param comparison comparison.json.
 * @returns `[metrics table, behaviour table]`.
 *
 * @example
 * ```ts
 * import { comparisonTables } from "./gate_tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const q = { bare: 0.5, equipped: 0.6, difference: 0.1, ci: [0.05, 0.15] };
 * const [m] = comparisonTables({ bare: { run_id: "b" }, equipped: { run_id: "e" }, split: "test", n_tasks: 3, n_pairs: 3,
 *   bootstrap: { draws: 10, seed: 1 }, metrics: { reward: q }, behaviour: { failure_rate: null } });
 * deepEqual(m!.rows[0], ["reward", "0.5000", "0.6000", "0.1000", "[0.0500, 0.1500]"]);
 * ```
 */
export function comparisonTables(comparison: ComparisonTableInput): Table[] {
  const columns = [
    { label: "quantity" },
    { label: "bare", align: "right" as const },
    { label: "equipped", align: "right" as const },
    { label: "difference", align: "right" as const },
    { label: "95% CI (paired task bootstrap)", align: "right" as const },
  ];
  const row = (name: string, q: ComparedRow | null, digits: number): string[] =>
    q === null ? [name, "—", "—", "—", "—"] : [
      name,
      formatNumber(q.bare, digits),
      formatNumber(q.equipped, digits),
      formatNumber(q.difference, digits),
      formatInterval(q.ci, digits),
    ];
  const note =
    `${comparison.equipped.run_id} - ${comparison.bare.run_id} on ${comparison.split}: ` +
    `${comparison.n_pairs} paired episodes over ${comparison.n_tasks} tasks; ` +
    `${comparison.bootstrap.draws} task-bootstrap draws, seed ${comparison.bootstrap.seed}, percentile intervals`;
  const digitsOf: Record<string, number> = {
    failure_rate: 4,
    steps: 2,
    tokens: 0,
    tokens_prompt: 0,
    tokens_completion: 0,
  };
  return [
    {
      caption: "Gate B: equipped vs bare, task-aligned",
      label: "tab:gate-b-metrics",
      columns,
      rows: Object.entries(comparison.metrics).map(([m, q]) => row(m, q, 4)),
      notes: [note],
    },
    {
      caption: "Gate B: failures and cost",
      label: "tab:gate-b-behaviour",
      columns,
      rows: Object.entries(comparison.behaviour).map(([m, q]) =>
        row(m.replaceAll("_", " "), q, digitsOf[m] ?? 4)
      ),
      notes: [
        "failure rate = failed attempts / attempts; steps of the completed attempt; tokens per episode over all its attempts",
      ],
    },
  ];
}
