/**
 * The history document (`history.json`, docs/FORMAT.md Extensions): steps,
 * lineage issues, chunk lifecycles with exposure, and the internalization
 * screen. Pure: the CLI reads the steps and writes the files.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { generatorMeta } from "../core/meta.ts";
import { lineageIssues } from "./lineage.ts";
import { chunkLifecycles } from "./lifecycle.ts";
import { INTERNALIZATION_CONVENTIONS, internalizationScreen } from "./internalization.ts";
import type { HistoryJson } from "../contract/outputs/history.ts";
import type { HistoryStep } from "./step.ts";

/**
 * history.json (docs/FORMAT.md, Extensions; docs/history.md): the type its
 * zod schema, `HistorySchema`, gives, so the writer, the tables, the
 * figures and the report read one declaration.
 */
export type HistoryDocument = HistoryJson;

/** Options of {@linkcode buildHistory}. */
export interface BuildHistoryOptions {
  /** Record lineage issues as warnings instead of errors. @default {false} */
  readonly allowLineageGaps?: boolean;
  /** Command line for `generator`. @default {"history"} */
  readonly command?: string;
}

/**
 * Builds history.json from the steps: lineage checks, lifecycles,
 * exposure and the internalization screen.
 *
 * @param steps The steps in training order (one metric).
 * @param options Whether lineage gaps are allowed; the command line.
 * @returns The document and the lineage issues (warnings when allowed).
 * @throws {RangeError} When there is no step or the steps rank different metrics.
 *
 * @example Two steps, clean lineage
 * ```ts
 * import { buildHistory } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const v = (version_id: string, role: "add" | "current", status: "selected" | "non_positive", retired = false) => ({
 *   version_id, slot_id: version_id, chunk_id: version_id, role, text_sha256: null, estimate: 0.1,
 *   se: 0.05, ci_lower: 0, ci_upper: 0.2, interval: "hc3_normal" as const, status, rank: 1, retired,
 * });
 * const step = (n: number, versions: ReturnType<typeof v>[]) => ({
 *   step: n, gate_ids: [`g${n}`], gate_dirs: [], plan_files: [], checkpoint_id: `c${n}`, stage: "online" as const,
 *   metric: "reward", budget_k: 2, baseline_sha256: "", bootstrap: null, source: { kind: "analysis" as const, dirs: [] },
 *   selected: versions.filter((x) => x.status === "selected").map((x) => x.version_id), versions,
 * });
 * const { document, issues } = buildHistory([
 *   step(1, [v("a", "add", "selected")]),
 *   step(2, [v("a", "current", "non_positive", true)]),
 * ]);
 * deepEqual([issues.length, document.chunks.a!.map((e) => e?.transition)], [0, ["added", "retired"]]);
 * ```
 */
export function buildHistory(
  steps: readonly HistoryStep[],
  options: BuildHistoryOptions = {},
): { document: HistoryDocument; issues: Issue[] } {
  if (steps.length === 0) throw new RangeError("Cannot build history: no step");
  const metric = steps[0]!.metric;
  const other = steps.find((s) => s.metric !== metric);
  if (other) {
    throw new RangeError(
      `Cannot build history: step ${other.step} ranks by ${other.metric}, step 1 by ${metric}`,
    );
  }
  const allow = options.allowLineageGaps ?? false;
  const issues = lineageIssues(steps).map((i): Issue => allow ? { ...i, severity: "warning" } : i);
  const { chunks, exposure } = chunkLifecycles(steps);
  return {
    document: {
      format: "gatelab.history/v1",
      metric,
      conventions: {
        interval:
          "bootstrap percentile interval (and se_bootstrap) when the step's analysis ran the task bootstrap; otherwise estimate -/+ 1.959964 se with the CR1 task-clustered se for pooled rounds and the HC3 se for a single gate",
        lineage:
          "the versions a gate starts from (roles current and old) must be exactly the previous step's selection (version ids, and text_sha256 where both plans give one); a candidate (add, new) must not reuse a version id rejected at an earlier step",
        status:
          "selected | rewrite_loser | non_positive | budget_excluded as selection.json; retired for a current or old version that was not selected",
        internalization: INTERNALIZATION_CONVENTIONS,
      },
      steps: steps.map((s) => ({
        step: s.step,
        gate_ids: s.gate_ids,
        checkpoint_id: s.checkpoint_id,
        stage: s.stage,
        budget_k: s.budget_k,
        baseline_sha256: s.baseline_sha256,
        source: s.source,
        bootstrap: s.bootstrap,
        selected: s.selected,
      })),
      lineage: { ok: issues.length === 0, gaps_allowed: allow, issues },
      chunks,
      exposure,
      internalization: internalizationScreen(chunks),
      generator: generatorMeta(options.command ?? "history"),
    },
    issues,
  };
}
