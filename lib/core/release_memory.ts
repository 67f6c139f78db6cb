/** Rows from which {@linkcode releaseMemory} collects (below, a collection costs more than it frees). */
export const RELEASE_ROWS = 100_000;

/**
 * Runs a full garbage collection for an analysis of at least
 * {@linkcode RELEASE_ROWS} rows when the engine offers one (a process
 * started with `--v8-flags=--expose-gc`, as the `gate` task is), and
 * otherwise does nothing. Called between the phases of a large analysis:
 * the collector is driven by its own heap, so a finished phase's objects
 * (every parsed trace line once validation is done) were still held when
 * the bootstrap allocated its shared per-task sums and each thread's
 * WebAssembly memory, which it does not count. At 1,000,000 rows that put
 * the peak near 5.8 GB instead of about 3.1.
 *
 * @example
 * ```ts
 * import { releaseMemory } from "./release_memory.ts";
 * releaseMemory(1_000_000); // a no-op here: deno test does not expose gc
 * ```
 *
 * @param rows Rows of the analysis.
 */
export function releaseMemory(rows: number): void {
  if (rows >= RELEASE_ROWS) (globalThis as { gc?: () => void }).gc?.();
}
