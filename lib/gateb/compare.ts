/**
 * Gate B: the equipped agent against the bare model on held-out tasks,
 * task-aligned, with a paired task bootstrap.
 *
 * @module
 */

import type { RunRef } from "../core/types.ts";
import type { ProgressCallback } from "../core/progress.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { GateBPairs } from "./checks.ts";
import { taskIndex } from "./task_index.ts";
import { BEHAVIOUR_QUANTITIES, type RatioQuantity, taskSums } from "./task_sums.ts";
import { pairedTaskBootstrap } from "./paired_bootstrap.ts";
import { comparedQuantity } from "./compared_quantity.ts";
import { comparisonDocument } from "./comparison_document.ts";
import { DEFAULTS } from "../core/defaults.ts";

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

/** Options of {@linkcode compareRuns}. */
export interface CompareOptions {
  /** Bootstrap draws. @default {DEFAULTS.draws} */
  readonly draws?: number;
  /** Bootstrap seed. @default {DEFAULTS.seed} */
  readonly seed?: number;
  /** Command recorded in the generator block. @default {"compare"} */
  readonly command?: string;
  /** Fields checked equal (recorded). @default {[]} */
  readonly checkedFields?: readonly string[];
  /** Gate A selection.json the equipped skill was checked against. */
  readonly selectionFile?: string;
  /** Called with (done, total) as draws complete. */
  readonly onProgress?: ProgressCallback;
}

/**
 * Compares an admissible bare/equipped pair (see `gateBIssues`).
 *
 * Every quantity is a ratio of sums over tasks, so one resampling scheme
 * serves all: metric means per episode (sum of values / episodes), failure
 * rate (failed attempts / attempts, all attempts of the planned episodes),
 * steps per episode (of the completed attempt), tokens per episode (summed
 * over every attempt of the episode, failed ones included: the cost paid).
 * The paired bootstrap resamples tasks (with all their samples) with
 * replacement, using the same tasks for both arms; draw b takes G tasks by
 * `prng.nextInt(G)` in order, tasks indexed in the bare manifest's order.
 *
 * @param bare The bare run.
 * @param equipped The equipped run.
 * @param pairs Paired completed attempts from `gateBIssues`.
 * @param options See {@linkcode CompareOptions}.
 * @returns The comparison.json document.
 *
 * @example The demo's Gate B pair, 200 draws
 * ```ts
 * import { compareRuns } from "./compare.ts";
 * import { gateBIssues } from "./checks.ts";
 * import { readRun } from "../load/read_run.ts";
 * import { deepEqual } from "node:assert/strict";
 * const bare = await readRun("data/demo/gate-b/bare-test");
 * const equipped = await readRun("data/demo/gate-b/equipped-test");
 * if (!bare.ok || !equipped.ok) throw new Error("cannot read the demo's Gate B runs");
 * const { pairs } = gateBIssues(bare.value, equipped.value);
 * const c = compareRuns(bare.value, equipped.value, pairs!, { draws: 200, seed: 1 });
 * const r = c.metrics["reward"]!;
 * deepEqual([c.n_tasks, c.n_pairs], [300, 300]);
 * deepEqual(
 *   [r.bare, r.equipped, r.difference, r.ci].map((x) => JSON.stringify(x, (_k, v) => typeof v === "number" ? +v.toFixed(4) : v)),
 *   ["0.54", "0.9854", "0.4455", "[0.4126,0.4869]"],
 * );
 * ```
 */
export function compareRuns(
  bare: LoadedRun,
  equipped: LoadedRun,
  pairs: GateBPairs,
  options: CompareOptions = {},
): ComparisonOutput {
  const draws = options.draws ?? DEFAULTS.draws;
  const seed = options.seed ?? DEFAULTS.seed;
  const index = taskIndex(pairs.episodes);
  const metricNames = ["reward", ...bare.manifest.provenance.reward.components];
  const live = taskSums(bare, equipped, pairs, index, metricNames)
    .filter((q): q is [string, RatioQuantity] => q[1] !== null);
  const drawsOf = pairedTaskBootstrap(live.map(([, q]) => q), index.size, {
    draws,
    seed,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const results = new Map(
    live.map(([name, sums], j): [string, ComparedQuantity] => [
      name,
      comparedQuantity(sums, drawsOf[j]!),
    ]),
  );
  const metrics: Record<string, ComparedQuantity> = {};
  for (const m of metricNames) {
    const r = results.get(`metric:${m}`);
    if (r) metrics[m] = r;
  }
  const behaviour: Record<string, ComparedQuantity | null> = {};
  for (const name of BEHAVIOUR_QUANTITIES) behaviour[name] = results.get(name) ?? null;
  return comparisonDocument(bare, equipped, {
    tasks: index.size,
    pairs: pairs.episodes.length,
    draws,
    seed,
    checkedFields: options.checkedFields ?? [],
    selectionFile: options.selectionFile ?? null,
    metrics,
    behaviour,
    command: options.command ?? "compare",
  });
}
