import { isAbsolute, join, normalize } from "node:path";

/**
 * The bare run directory of a gate: `bare_run_dir` relative to the gate
 * directory (an absolute path is taken as is), normalised.
 *
 * @param gateDir The gate directory.
 * @param bareRunDir gate.json's `bare_run_dir`.
 * @returns The bare run directory.
 *
 * @example
 * ```ts
 * import { resolveBareDir } from "./bare_dir.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(resolveBareDir("data/ckpt-a/gate-a", "../bare-val"), "data/ckpt-a/bare-val");
 * deepEqual(resolveBareDir("data/g", "/runs/bare"), "/runs/bare");
 * ```
 */
export function resolveBareDir(gateDir: string, bareRunDir: string): string {
  return normalize(isAbsolute(bareRunDir) ? bareRunDir : join(gateDir, bareRunDir));
}
