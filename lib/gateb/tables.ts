/**
 * Tables of a Gate B comparison (comparison.json), as {@linkcode Table}
 * models rendered by `toMarkdown` / `toLatex`: what `gate compare` writes
 * into comparison.md and comparison.tex and what the report shows.
 *
 * @module
 */
import type { View } from "../contract/outputs/common.ts";
import { formatCount, formatNumber, formatWithInterval, intervalHeader } from "../table/format.ts";
import type { Table } from "../table/table.ts";
import type { ComparedQuantity, ComparisonDocument } from "./comparison_types.ts";

/**
 * One compared quantity as read by {@linkcode comparisonTables}: the part of
 * comparison.json's quantity (its zod type) the tables show.
 */
export type ComparedRow = View<ComparedQuantity, "bare" | "equipped" | "difference" | "ci">;

/**
 * The parts of comparison.json the Gate B tables read (a view of its zod
 * type, so a notebook may pass a partial document).
 */
export type ComparisonTableInput =
  & View<ComparisonDocument, "split" | "n_tasks" | "n_pairs">
  & {
    /** The bare run. */
    readonly bare: View<ComparisonDocument["bare"], "run_id">;
    /** The equipped run. */
    readonly equipped: View<ComparisonDocument["equipped"], "run_id">;
    /** Draws and seed of the paired task bootstrap. */
    readonly bootstrap: View<ComparisonDocument["bootstrap"], "draws" | "seed">;
    /** Reward and its components: bare, equipped, difference and interval. */
    readonly metrics: Readonly<Record<string, ComparedRow>>;
    /** Failure rate, steps and tokens; null where a field is absent. */
    readonly behaviour: Readonly<Record<string, ComparedRow | null>>;
  };

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
 * import { comparisonTables } from "./tables.ts";
 * import { deepEqual } from "node:assert/strict";
 * const q = { bare: 0.5, equipped: 0.6, difference: 0.1, ci: [0.05, 0.15] as const };
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
