/**
 * The options every bootstrap of gatelab takes (the task bootstrap of a
 * gate, Gate B's paired bootstrap, the recipe comparison, the study's seeds
 * x tasks bootstrap), resolved once at the library's door: what a caller
 * leaves out gets its default from `DEFAULTS` here and nowhere below, and
 * the draw count is checked here once.
 *
 * @module
 */
import { DEFAULTS } from "./defaults.ts";
import type { ProgressCallback } from "./progress.ts";

/** The options of a bootstrap, as a caller gives them. */
export interface BootstrapOptions {
  /** Number of draws B. @default {DEFAULTS.draws} */
  readonly draws?: number;
  /** Seed of the one draw stream (`createPrng(seed)`). @default {DEFAULTS.seed} */
  readonly seed?: number;
  /** Called with (done, total) as draws complete. */
  readonly onProgress?: ProgressCallback;
}

/** {@linkcode BootstrapOptions} resolved: every field present and checked. */
export interface ResolvedBootstrapOptions {
  readonly draws: number;
  readonly seed: number;
  /** The progress callback; null: none. */
  readonly onProgress: ProgressCallback | null;
}

/**
 * Fills in the defaults of {@linkcode BootstrapOptions} and checks the draw
 * count: a safe integer of at least `minDraws` (0 where no draw means
 * "skip the bootstrap").
 *
 * @param options As the caller gave them.
 * @param limits `minDraws`, the fewest draws allowed (default 1).
 * @returns The resolved options.
 * @throws {RangeError} When `draws` is not an integer >= `minDraws`.
 *
 * @example
 * ```ts
 * import { resolveBootstrapOptions } from "./bootstrap_options.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(resolveBootstrapOptions({}), { draws: 10000, seed: 20260927, onProgress: null });
 * deepEqual(resolveBootstrapOptions({ draws: 0, seed: 3 }, { minDraws: 0 }).draws, 0);
 * throws(() => resolveBootstrapOptions({ draws: 0 }), {
 *   message: "Cannot bootstrap: draws must be a positive integer, got 0",
 * });
 * ```
 */
export function resolveBootstrapOptions(
  options: BootstrapOptions,
  limits: { readonly minDraws?: 0 | 1 } = {},
): ResolvedBootstrapOptions {
  const draws = options.draws ?? DEFAULTS.draws;
  const minDraws = limits.minDraws ?? 1;
  if (!(Number.isSafeInteger(draws) && draws >= minDraws)) {
    const what = minDraws === 0 ? "a non-negative integer" : "a positive integer";
    throw new RangeError(`Cannot bootstrap: draws must be ${what}, got ${draws}`);
  }
  return { draws, seed: options.seed ?? DEFAULTS.seed, onProgress: options.onProgress ?? null };
}
