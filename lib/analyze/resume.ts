/**
 * No resume across a changed baseline: an output directory made
 * from another baseline or estimator is refused.
 *
 * @module
 */

import { join } from "node:path";
import type { Issue } from "../core/issue.ts";
import type { RunRef } from "../core/types.ts";
import { ESTIMATOR } from "./types.ts";
import { readJsonMembers } from "../load/json_head.ts";

/**
 * Compares the contributions.json already in `outDir` (if any) with the
 * baseline and estimator of a new analysis (with pooled checkpoints, also
 * the set of the gates' own bare runs, `checkpoints`). Same inputs may overwrite;
 * a different baseline sha256 or estimator gives a `baseline_changed`
 * issue. A missing file is fine; an unreadable one is an `io_error`.
 *
 * @param outDir The --out directory.
 * @param baseline The new analysis's baseline run.
 * @returns Issues (empty when the directory may be written).
 *
 * @example
 * ```ts
 * import { outputDirIssues } from "./resume.ts";
 * import { deepEqual } from "node:assert/strict";
 * const dir = await Deno.makeTempDir();
 * deepEqual(await outputDirIssues(dir, { run_id: "b", run_dir: "b", sha256: "aa" }), []);
 * await Deno.writeTextFile(`${dir}/contributions.json`, JSON.stringify({
 *   estimator: { name: "paired_delta_ols_no_intercept", formula: "R_i - B_i = C_i' beta + e_i" },
 *   baseline: { sha256: "bb" },
 * }));
 * const issues = await outputDirIssues(dir, { run_id: "b", run_dir: "b", sha256: "aa" });
 * deepEqual(issues.map((i) => i.code), ["baseline_changed"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function outputDirIssues(
  outDir: string,
  baseline: RunRef,
  checkpoints: readonly RunRef[] = [],
): Promise<Issue[]> {
  const file = join(outDir, "contributions.json");
  // Only the header is read: the whole file is as large as the data (over
  // the longest string a runtime holds from about 400,000 rows).
  let head: Map<string, unknown>;
  try {
    head = await readJsonMembers(file, ["estimator", "baseline", "gates"]);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    if (!(error instanceof SyntaxError || error instanceof TypeError)) {
      return [{ code: "io_error", file, message: `Cannot read previous output: ${String(error)}` }];
    }
    return [{
      code: "baseline_changed",
      file,
      message:
        "Cannot overwrite the output directory: its contributions.json is not readable JSON, so it cannot be shown to come from the same baseline",
    }];
  }
  const previous = {
    estimator: head.get("estimator") as { name?: unknown; formula?: unknown } | undefined,
    baseline: head.get("baseline") as { sha256?: unknown; run_id?: unknown } | undefined,
  };
  const issues: Issue[] = [];
  const oldSha = previous.baseline?.sha256;
  if (oldSha !== baseline.sha256) {
    issues.push({
      code: "baseline_changed",
      file,
      path: "baseline.sha256",
      message: `Cannot resume in this output directory: it was made from baseline ` +
        `${String(previous.baseline?.run_id ?? "?")} sha256 ${String(oldSha)}, ` +
        `but the bare run ${baseline.run_id} now hashes to ${baseline.sha256}; ` +
        `use a new --out (results from two baselines never share a directory)`,
    });
  }
  // Pooled checkpoints: every gate's own bare run is a baseline too.
  const gates = head.get("gates");
  const oldBares = Array.isArray(gates)
    ? [...new Set(gates.flatMap((g) => typeof g?.bare?.sha256 === "string" ? [g.bare.sha256] : []))]
    : [];
  const newBares = [...new Set(checkpoints.map((c) => c.sha256))];
  if (issues.length === 0 && oldBares.sort().join(",") !== newBares.sort().join(",")) {
    issues.push({
      code: "baseline_changed",
      file,
      path: "gates.bare",
      message: `Cannot resume in this output directory: it was made from the bare runs ` +
        `${oldBares.join(", ") || "of one baseline"}, not ${
          newBares.join(", ") || "of one baseline"
        }; ` +
        `use a new --out (results from two baselines never share a directory)`,
    });
  }
  if (
    previous.estimator?.name !== ESTIMATOR.name || previous.estimator?.formula !== ESTIMATOR.formula
  ) {
    issues.push({
      code: "baseline_changed",
      file,
      path: "estimator",
      message: `Cannot resume in this output directory: it was made with estimator ` +
        `${JSON.stringify(previous.estimator ?? null)}, not ${ESTIMATOR.name}; use a new --out`,
    });
  }
  return issues;
}
