/**
 * comparison.json assembled from its parts (no computation here).
 *
 * @module
 */

import type { RunRef } from "../core/types.ts";
import { QUANTILE_RULE } from "../math/quantile.ts";
import { generatorMeta } from "../core/meta.ts";
import type { LoadedRun } from "../load/read_run.ts";
import type { ComparedQuantity, ComparisonOutput } from "./comparison_types.ts";

/** The computed parts of comparison.json. */
export interface ComparisonParts {
  /** G, the number of tasks. */
  readonly tasks: number;
  /** Planned episodes paired. */
  readonly pairs: number;
  readonly draws: number;
  readonly seed: number;
  readonly checkedFields: readonly string[];
  readonly selectionFile: string | null;
  readonly metrics: Readonly<Record<string, ComparedQuantity>>;
  readonly behaviour: Readonly<Record<string, ComparedQuantity | null>>;
  /** Recorded as `generator.command`. */
  readonly command: string;
}

const ref = (r: LoadedRun): RunRef => ({
  run_id: r.manifest.run_id,
  run_dir: r.dir,
  sha256: r.sha256,
});

/**
 * comparison.json in its documented field order, with the bootstrap's
 * and the quantities' conventions.
 *
 * @param bare The bare run.
 * @param equipped The equipped run.
 * @param parts See {@linkcode ComparisonParts}.
 * @returns The document.
 */
export function comparisonDocument(
  bare: LoadedRun,
  equipped: LoadedRun,
  parts: ComparisonParts,
): ComparisonOutput {
  return {
    format: "gatelab.comparison/v1",
    bare: ref(bare),
    equipped: ref(equipped),
    split: bare.manifest.split,
    n_tasks: parts.tasks,
    n_pairs: parts.pairs,
    selected_skills: equipped.manifest.skill.selected_skills,
    max_skills: equipped.manifest.skill.max_skills,
    checked_fields: parts.checkedFields,
    selection_file: parts.selectionFile,
    bootstrap: {
      draws: parts.draws,
      seed: parts.seed,
      resample: "tasks",
      interval: "percentile",
      level: 0.95,
      quantile_rule: QUANTILE_RULE,
      draw_order:
        "per draw, G calls prng.nextInt(G) pick tasks (bare manifest order) with replacement; the same tasks for both arms; xoshiro128** seeded by createPrng(seed)",
    },
    conventions: {
      difference: "equipped - bare, task-aligned (paired by split, task_id, sample_id)",
      metrics: "mean over planned episodes of the completed attempt's value",
      failure_rate: "failed attempts / all attempts of the planned episodes",
      steps: "mean steps of the completed attempt per episode",
      tokens:
        "mean prompt + completion tokens per episode, summed over all its attempts (failed included)",
    },
    metrics: parts.metrics,
    behaviour: parts.behaviour,
    generator: generatorMeta(parts.command),
  };
}
