/**
 * The demo's steps as `gate` command lines, read from the demo's study
 * file, data/demo/gatelab.yaml, as `gate build` resolves them from the
 * project root into reports/demo (`deno task demo` is that build). For
 * code that runs the demo's commands itself, in-process.
 *
 * @module
 */
import { join } from "node:path";
import { parseStudyFile } from "../build/study_file.ts";
import { resolveStudy } from "../build/resolve.ts";
import { PROJECT_ROOT } from "./kernelspec.ts";

/** The demo's study file, relative to the project root. */
export const DEMO_STUDY_FILE = "data/demo/gatelab.yaml";

/**
 * The demo's steps: a title, the `gate` command line it runs (paths
 * relative to the project root, outputs under reports/demo/) and, for the
 * steps that show a check finding planted problems (`expect: refused`),
 * the exit code expected (default 0).
 *
 * @example
 * ```ts
 * import { DEMO_STEPS } from "./demo.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(DEMO_STEPS[1], [
 *   "Gate A: refit, bootstrap and select (cold start)",
 *   ["analyze", "data/demo/ckpt-a/gate-a", "--out", "reports/demo/gate-a"],
 * ]);
 * ```
 */
export const DEMO_STEPS: readonly (readonly [string, readonly string[], number?])[] = demoSteps();

function demoSteps(): [string, string[], number?][] {
  const text = Deno.readTextFileSync(join(PROJECT_ROOT, DEMO_STUDY_FILE));
  const parsed = parseStudyFile(text, DEMO_STUDY_FILE);
  if (!parsed.ok) throw new Error(`${DEMO_STUDY_FILE}: ${parsed.issues[0]!.message}`);
  const study = resolveStudy(parsed.study, { cwd: PROJECT_ROOT, out: "reports/demo" });
  if (!("nodes" in study)) throw new Error(`${DEMO_STUDY_FILE}: ${study.issues[0]!.message}`);
  return study.nodes.map((n) => {
    const title = n.title ?? `${n.command} ${n.id}`;
    return n.refused ? [title, [...n.argv], 2] : [title, [...n.argv]];
  });
}
