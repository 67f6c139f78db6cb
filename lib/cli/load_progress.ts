/**
 * The progress a command prints while it reads and validates its inputs:
 * the bytes of each large traces.jsonl and assignments.jsonl, then the
 * checks of a large validation (in place on a terminal, else a line per
 * 10%; silent with `--quiet` or GATELAB_NO_PROGRESS=1). With
 * GATELAB_PROGRESS_ALWAYS=1, where the environment may be read (the CLI
 * tests allow it), every file and validation reports, whatever its size.
 *
 * @module
 */
import { type ProgressCallback, stderrProgress } from "../core/progress.ts";
import type { ValidateGatesOptions } from "../validate/validate_gates.ts";

/** Files from this size up report their reading's progress (about 20,000 trace lines). */
export const READ_PROGRESS_BYTES = 8 << 20;

/** Validations of this many lines and rows up report the progress of their checks. */
export const VALIDATE_PROGRESS_UNITS = 200_000;

/**
 * The `onRead` and `onValidate` options of `validateGates` for a command:
 * none when quiet.
 *
 * @param quiet Whether the command was given `--quiet`.
 * @returns The options to spread into `validateGates`' options.
 *
 * @example
 * ```ts
 * import { loadProgress } from "./load_progress.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(loadProgress(true), {});
 * deepEqual(Object.keys(loadProgress(false)), ["onRead", "onValidate"]);
 * ```
 */
export function loadProgress(
  quiet: boolean,
): Pick<ValidateGatesOptions, "onRead" | "onValidate"> {
  if (quiet) return {};
  const always = progressAlways();
  const onRead = (file: string): ProgressCallback | undefined => {
    try {
      return always || Deno.statSync(file).size >= READ_PROGRESS_BYTES
        ? stderrProgress(`reading ${file} (bytes)`)
        : undefined;
    } catch {
      return undefined;
    }
  };
  let validating: ProgressCallback | undefined;
  const onValidate: ProgressCallback = (done, total) => {
    if (!always && total < VALIDATE_PROGRESS_UNITS) return;
    (validating ??= stderrProgress("validating (lines and rows)"))(done, total);
  };
  return { onRead, onValidate };
}

/**
 * Whether GATELAB_PROGRESS_ALWAYS=1 is set and may be read (never prompts):
 * every phase then reports its progress whatever its size, so a test sees
 * the lines of a large run on a small one.
 *
 * @returns True when set to `1` and readable.
 *
 * @example
 * ```ts
 * import { progressAlways } from "./load_progress.ts";
 * import { equal } from "node:assert/strict";
 * equal(typeof progressAlways(), "boolean");
 * ```
 */
export function progressAlways(): boolean {
  const variable = "GATELAB_PROGRESS_ALWAYS";
  const state = Deno.permissions.querySync({ name: "env", variable }).state;
  return state === "granted" && Deno.env.get(variable) === "1";
}
