/**
 * The shapes of comparison.json (Gate B): one compared quantity and the
 * whole document. Their own file so that the builders of the document
 * (compared_quantity.ts, comparison_document.ts) and compare.ts, which
 * calls them, import the types without a cycle.
 *
 * @module
 */

import type { RunRef } from "../core/types.ts";

/** One compared quantity. Undefined numbers are null. */
export interface ComparedQuantity {
  /** Mean of the quantity over the bare run's tasks. */
  readonly bare: number | null;
  /** Mean over the equipped run's tasks. */
  readonly equipped: number | null;
  /** equipped - bare. */
  readonly difference: number | null;
  /** Paired task-bootstrap percentile interval of the difference; null without bootstrap. */
  readonly ci: readonly [number, number] | null;
  /** Percentile interval of the bare mean; null without bootstrap. */
  readonly bare_ci: readonly [number, number] | null;
  /** Percentile interval of the equipped mean; null without bootstrap. */
  readonly equipped_ci: readonly [number, number] | null;
}

/** comparison.json. */
export interface ComparisonOutput {
  /** File format tag. */
  readonly format: "gatelab.comparison/v1";
  /** The bare run. */
  readonly bare: RunRef;
  /** The equipped run. */
  readonly equipped: RunRef;
  /** Split both runs were evaluated on. */
  readonly split: string;
  /** Tasks in both runs. */
  readonly n_tasks: number;
  /** Task-aligned pairs. */
  readonly n_pairs: number;
  /** Skills the equipped run injected. */
  readonly selected_skills: readonly string[];
  /** Most skills injected into one episode, when recorded. */
  readonly max_skills: number | null;
  /** Manifest fields checked equal between the runs. */
  readonly checked_fields: readonly string[];
  /** Gate A selection.json the equipped skill was checked against (--selection), or null. */
  readonly selection_file: string | null;
  /** The paired task bootstrap: draws, seed, interval and quantile rule. */
  readonly bootstrap: {
    readonly draws: number;
    readonly seed: number;
    readonly resample: "tasks";
    readonly interval: "percentile";
    readonly level: 0.95;
    readonly quantile_rule: string;
    readonly draw_order: string;
  };
  /** How each quantity is defined, in words. */
  readonly conventions: Readonly<Record<string, string>>;
  /** reward and every reward component (r_success among them). */
  readonly metrics: Readonly<Record<string, ComparedQuantity>>;
  /** failure_rate, steps, tokens (and its prompt / completion parts); null where a field is absent. */
  readonly behaviour: Readonly<Record<string, ComparedQuantity | null>>;
  /** Tool, version and command that wrote the file. */
  readonly generator: { tool: string; version: string; command: string };
}
