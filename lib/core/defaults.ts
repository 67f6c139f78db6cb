/**
 * The one place for gatelab's defaults: the command line, the library
 * functions' options and the notebooks read them from here, so changing a
 * default is one edit (tests/defaults_test.ts looks for stray copies).
 *
 * @module
 */

/**
 * Defaults shared by the CLI, the library and the notebooks (frozen).
 *
 * @example
 * ```ts
 * import { DEFAULTS } from "./defaults.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([DEFAULTS.seed, DEFAULTS.draws, DEFAULTS.alpha], [20260927, 10000, 0.05]);
 * deepEqual(Object.isFrozen(DEFAULTS), true);
 * ```
 */
export const DEFAULTS = Object.freeze(
  {
    /**
     * Seed of every seeded stream: the task bootstraps (gate analysis, Gate B
     * comparison, recipe comparison, study, history) and the power
     * simulation. One `createPrng(seed)` stream (xoshiro128**,
     * lib/math/prng.ts) per use.
     * @default {20260927}
     */
    seed: 20260927,
    /**
     * Bootstrap draws B (tasks resampled with replacement). `gate analyze` and
     * `gate compare` take 0 to skip the bootstrap; `gate history` skips it
     * unless asked (its own default is 0).
     * @default {10000}
     */
    draws: 10_000,
    /**
     * Error level alpha: Holm-adjusted interaction screen, two-sided level of
     * the power plan's minimum detectable effect, anytime-valid confidence
     * sequences.
     * @default {0.05}
     */
    alpha: 0.05,
    /**
     * Target power of the minimum detectable effect.
     * @default {0.8}
     */
    power: 0.8,
    /**
     * Metric the selection ranks by (`reward` or a reward component).
     * @default {"reward"}
     */
    metric: "reward",
    /**
     * Heteroskedasticity-consistent covariance behind se_robust, t and p.
     * @default {"hc3"}
     */
    covType: "hc3",
    /**
     * Rule of the bootstrap interval of contributions.json: percentile
     * (lower empirical quantile) or bca.
     * @default {"percentile"}
     */
    interval: "percentile",
    /**
     * Simulated gates of the selection-power simulation.
     * @default {2000}
     */
    powerSims: 2000,
    /**
     * Largest default skill budget of the power plan: K = min(powerBudgetCap,
     * M) when neither the caller nor a past selection gives one.
     * @default {10}
     */
    powerBudgetCap: 10,
    /**
     * Seconds a SQL query may run (`gate sql --timeout`, `openDuckDb`)
     * before it is stopped.
     * @default {60}
     */
    sqlTimeoutSeconds: 60,
    /**
     * Rows `gate import table` reads at most over all its files, with 512
     * bytes of input per row (`--max-rows`; docs/import.md, "Limits").
     * @default {1000000}
     */
    importMaxRows: 1_000_000,
  } as const,
);

/** The type of {@linkcode DEFAULTS}. */
export type Defaults = typeof DEFAULTS;

/**
 * Largest number of draw estimates `gate analyze --save-draws` writes
 * (draws x metrics x versions): a limit, not a default.
 */
export const MAX_SAVED_DRAWS = 1e8;

/**
 * Rows of the tidy `tasks` table above which `gate analyze` writes only
 * tasks.parquet (tasks.csv with `--tasks-csv`): at 100,000 paired rows
 * tasks.csv is about 30 MB with seven metrics, ten times the Parquet file.
 */
export const TASKS_CSV_MAX_ROWS = 100_000;
