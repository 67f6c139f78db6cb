/**
 * Rows from which the phases of an analysis hand their garbage back
 * before the next phase starts (see {@linkcode releaseMemory}).
 */
export const RELEASE_ROWS = 100_000;

/**
 * Runs a full garbage collection when the engine offers one (a process
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
 * releaseMemory(); // a no-op here: deno test does not expose gc
 * ```
 */
export function releaseMemory(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
