/**
 * `--label-prefix <name>`: the run's name in every LaTeX label and caption
 * it writes (default: the output directory's name), read the same way by
 * every command that writes tables or figures.
 *
 * @module
 */
import { type RunScope, runScope } from "../table/run_scope.ts";
import { UsageError } from "./args.ts";

/** The option's declaration, for a command's `options`. */
export const LABEL_PREFIX_OPTION = { "label-prefix": { type: "string" } } as const;

/** The option's line in a command's help. */
export const LABEL_PREFIX_HELP =
  "  --label-prefix <name>  the run's name in LaTeX labels and captions\n" +
  "                     (default: the --out directory's name)";

/**
 * The run's scope from `--out` and `--label-prefix`.
 *
 * @throws {UsageError} When the prefix has no letter or digit.
 *
 * @example
 * ```ts
 * import { labelScope } from "./label_prefix.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 * deepEqual(labelScope("reports/gate-a", undefined), { label: "gate-a", name: "Gate A" });
 * throws(() => labelScope("o", "--"), /--label-prefix/);
 * ```
 */
export function labelScope(out: string, prefix: string | undefined): RunScope {
  try {
    return runScope(out, prefix);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new UsageError(`--label-prefix: ${error.message}`);
    }
    throw error;
  }
}
