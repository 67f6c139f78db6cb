/**
 * Tables of a Gate B comparison, as {@linkcode Table} models rendered by
 * `toMarkdown` / `toLatex` (the gate analysis's are lib/analyze/tables.ts).
 *
 * @module
 */

import { formatCount, formatNumber, formatWithInterval, intervalHeader } from "./format.ts";
import type { Table } from "./table.ts";

export { formatP } from "./format.ts";

/** One compared quantity as read by {@linkcode comparisonTables}. */
export interface ComparedRow {
  /** Mean over the bare run's tasks. */
  readonly bare: number | null;
  /** Mean over the equipped run's tasks. */
  readonly equipped: number | null;
  /** equipped - bare. */
  readonly difference: number | null;
  /** Paired task-bootstrap interval of the difference; null without bootstrap. */
  readonly ci: readonly [number, number] | readonly number[] | null;
}

/** The parts of comparison.json the Gate B tables read. */
export interface ComparisonTableInput {
  /** The bare run. */
  readonly bare: { readonly run_id: string };
  /** The equipped run. */
  readonly equipped: { readonly run_id: string };
  /** Split both runs were evaluated on. */
  readonly split: string;
  /** Tasks in both runs. */
  readonly n_tasks: number;
  /** Task-aligned pairs. */
  readonly n_pairs: number;
  /** Draws and seed of the paired task bootstrap. */
  readonly bootstrap: { readonly draws: number; readonly seed: number };
  /** Reward and its components: bare, equipped, difference and interval. */
  readonly metrics: Readonly<Record<string, ComparedRow>>;
  /** Failure rate, steps and tokens; null where a field is absent. */
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
 * deepEqual(m!.rows[0], ["reward", "0.500", "0.600", "0.100 [0.050, 0.150]"]);
 * ```
 */
export function comparisonTables(comparison: ComparisonTableInput): Table[] {
  const columns = [
    { label: "quantity" },
    { label: "bare", align: "right" as const },
    { label: "equipped", align: "right" as const },
    {
      label: intervalHeader("difference", "paired task bootstrap, percentile"),
      align: "right" as const,
    },
  ];
  const row = (name: string, q: ComparedRow | null, digits: number): string[] =>
    q === null ? [name, "—", "—", "—"] : [
      name,
      formatNumber(q.bare, digits),
      formatNumber(q.equipped, digits),
      formatWithInterval(q.difference, q.ci, digits),
    ];
  const note =
    `${comparison.equipped.run_id} - ${comparison.bare.run_id} on ${comparison.split}: ` +
    `${comparison.n_pairs} paired episodes over ${comparison.n_tasks} tasks; ` +
    `${
      formatCount(comparison.bootstrap.draws)
    } task-bootstrap draws, seed ${comparison.bootstrap.seed}.`;
  const digitsOf: Record<string, number> = {
    failure_rate: 3,
    steps: 2,
    tokens: 0,
    tokens_prompt: 0,
    tokens_completion: 0,
  };
  return [
    {
      caption: "Equipped vs bare, task-aligned",
      label: "tab:gate-b-metrics",
      columns,
      rows: Object.entries(comparison.metrics).map(([m, q]) => row(m, q, 3)),
      notes: [note],
    },
    {
      caption: "Failures and cost, equipped vs bare",
      label: "tab:gate-b-behaviour",
      columns,
      rows: Object.entries(comparison.behaviour).map(([m, q]) =>
        row(m.replaceAll("_", " "), q, digitsOf[m] ?? 3)
      ),
      notes: [
        "failure rate = failed attempts / attempts; steps of the completed attempt; tokens per episode over all its attempts",
      ],
    },
  ];
}
