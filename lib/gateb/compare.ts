/**
 * Gate B: the equipped agent against the bare model on held-out tasks,
 * task-aligned, with a paired task bootstrap.
 *
 * @module
 */

import { type BootstrapOptions, resolveBootstrapOptions } from "../core/bootstrap_options.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { GateBPairs } from "./checks.ts";
import { taskIndex } from "./task_index.ts";
import { BEHAVIOUR_QUANTITIES, type RatioQuantity, taskSums } from "./task_sums.ts";
import { pairedTaskBootstrap } from "./paired_bootstrap.ts";
import { comparedQuantity } from "./compared_quantity.ts";
import { comparisonDocument } from "./document.ts";
import type { ComparedQuantity, ComparisonOutput } from "./comparison_types.ts";

export type { ComparedQuantity, ComparisonOutput } from "./comparison_types.ts";

/** Options of {@linkcode compareRuns}: the paired bootstrap's (`draws` 0 skips it) and the record's. */
export interface CompareOptions extends BootstrapOptions {
  /** Command recorded in the generator block. @default {"compare"} */
  readonly command?: string;
  /** Fields checked equal (recorded). @default {[]} */
  readonly checkedFields?: readonly string[];
  /** Gate A selection.json the equipped skill was checked against. */
  readonly selectionFile?: string;
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
 * @throws {RangeError} When `draws` is not a non-negative integer.
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
  const { draws, seed, onProgress } = resolveBootstrapOptions(options, { minDraws: 0 });
  const index = taskIndex(pairs.episodes);
  const metricNames = ["reward", ...bare.manifest.provenance.reward.components];
  const live = taskSums(bare, equipped, pairs, index, metricNames)
    .filter((q): q is [string, RatioQuantity] => q[1] !== null);
  const drawsOf = pairedTaskBootstrap(live.map(([, q]) => q), index.size, {
    draws,
    seed,
    ...(onProgress ? { onProgress } : {}),
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
