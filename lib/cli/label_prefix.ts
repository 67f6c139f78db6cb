/**
 * `--label-prefix <name>`: the run's name in every LaTeX label and caption
 * it writes (default: the output directory's name), read the same way by
 * every command that writes tables or figures (declared in
 * lib/cli/common_options.ts).
 *
 * @module
 */
import { type RunScope, runScope } from "../table/run_scope.ts";
import { UsageError } from "./args.ts";

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
