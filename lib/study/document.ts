import { generatorMeta } from "../core/meta.ts";
import type { z } from "npm:zod@4.6.7";
import type { StudySchema } from "../contract/outputs/mod.ts";
import { QUANTILE_RULE } from "../math/quantile.ts";
import type { StudyAnalysis } from "./analyze.ts";
import type { InputFile } from "./load.ts";
import { type Issue, IssueList } from "../core/issue.ts";

/** The draw order of the study bootstrap, recorded in study.json. */
export const STUDY_DRAW_ORDER =
  "per comparison in plan order a fresh xoshiro128** createPrng(seed); per draw K nextInt(K) " +
  "for training seeds (omitted when resample is 'tasks') then N nextInt(N) for tasks; seeds " +
  "sorted (integers ascending, then strings), tasks in code-unit order";

function capIssues(issues: readonly Issue[]): Issue[] {
  const list = new IssueList();
  list.addAll(issues);
  return list.toArray();
}

/**
 * study.json, the document `gate study` writes (zod-inferred: its schema
 * and docs/FORMAT.md section 6 document it).
 *
 * @ignore
 */
export type StudyDocument = z.output<typeof StudySchema>;

/** Options of {@linkcode studyDocument}. */
export interface StudyDocumentOptions {
  /** The command line recorded in `generator.command`. */
  readonly command: string;
  /** Hashes of the input files. */
  readonly inputs: readonly InputFile[];
  /** Non-fatal issues (retry-policy violations) to list in the output, at most 50 per code plus a summary. */
  readonly issues?: readonly Issue[];
}

/**
 * Builds the `study.json` document: exactly the fields of docs/FORMAT.md
 * section 6, plus compatible extras: per-arm `label`, `train_seeds`,
 * `task_count`, slot statuses and attempt counts (per kind and reason);
 * per-comparison `label`, `resample` and `per_seed` differences; costs;
 * attempt totals; the retry-policy violations; estimator, quantile rule,
 * draw order, generator and input hashes.
 *
 * @param analysis Result of `analyzeStudy`.
 * @param options Command, inputs and issues.
 * @returns A JSON-ready object (no timestamps).
 *
 * @example
 * ```ts
 * import { analyzeStudy } from "./analyze.ts";
 * import { studyDocument } from "./document.ts";
 * import { deepEqual } from "node:assert/strict";
 * const slot = { arm: "M", train_seed: 1, task_id: "t", rep: 0 };
 * const r = analyzeStudy({ plan: { format: "gatelab.studyplan/v1", comparisons: [], bootstrap: { draws: 10, seed: 1 } },
 *   slots: [{ value: slot, line: 1 }], attempts: [{ value: { ...slot, attempt: 0, kind: "ambiguous" }, line: 1 }] });
 * const doc = r.ok ? studyDocument(r.value, { command: "study", inputs: [] }) : null;
 * deepEqual(doc?.arms.M, { planned: 1, observed: 0, successes: 0, estimate: null, bounds: [0, 1], complete: false,
 *   label: "incomplete", train_seeds: [1], task_count: 1,
 *   slots: { report: 0, model_failure: 0, ambiguous: 1, infra_failure: 0, no_attempts: 0 },
 *   attempts: { attempts: 1, used: 1, violations: 0, by_kind: { report: 0, model_failure: 0, verifier_infra: 0, generation_infra: 0, ambiguous: 1 }, reasons: { ambiguous: { "": 1 } } } });
 * ```
 */
export function studyDocument(
  analysis: StudyAnalysis,
  options: StudyDocumentOptions,
): StudyDocument {
  const { comparisons } = analysis;
  const resample = comparisons.some((c) => c.resample === "seeds+tasks") ||
      (comparisons.length === 0 && analysis.arms.some((a) => a.seeds.length > 1))
    ? "seeds+tasks"
    : "tasks";
  const totals = { attempts: 0, used: 0, violations: 0 };
  for (const arm of analysis.arms) {
    totals.attempts += arm.tally.attempts;
    totals.used += arm.tally.used;
    totals.violations += arm.tally.violations;
  }
  return {
    format: "gatelab.study/v1",
    bootstrap: {
      draws: analysis.draws,
      seed: analysis.seed,
      resample,
      resample_note: "each comparison records its own resample; this is 'seeds+tasks' if any does",
      interval: "percentile, q = 0.025 and 0.975",
      quantile_rule: QUANTILE_RULE,
      draw_order: STUDY_DRAW_ORDER,
      prng: "xoshiro128** seeded by splitmix32 (lib/math/prng.ts)",
    },
    estimator: {
      name: "nested_mean",
      formula: "p_a = (1/K) sum_k (1/N) sum_i (1/n) sum_r y_kir; null when any slot is unresolved",
      bounds: "the nested mean with unresolved slots as 0 (lo) and as 1 (hi); [S/H, (S+H-J)/H] " +
        "when reps are balanced; comparison bounds subtract opposite ends",
      slot_rule: "first report decides; model_failure scores 0; one re-verification after " +
        "verifier_infra and one replacement generation after generation_infra; ambiguous " +
        "stays unresolved; attempts beyond these are retry_policy_violation and unused",
    },
    arms: Object.fromEntries(analysis.arms.map((arm) => [arm.arm, {
      planned: arm.planned,
      observed: arm.observed,
      successes: arm.successes,
      estimate: arm.estimate,
      bounds: [...arm.bounds],
      complete: arm.complete,
      label: arm.complete ? "complete" : "incomplete",
      train_seeds: [...arm.seeds],
      task_count: arm.tasks.length,
      slots: arm.tally.slots,
      attempts: {
        attempts: arm.tally.attempts,
        used: arm.tally.used,
        violations: arm.tally.violations,
        by_kind: arm.tally.by_kind,
        reasons: arm.tally.reasons,
      },
    }])),
    comparisons: comparisons.map((c) => ({
      a: c.a,
      b: c.b,
      complete: c.complete,
      estimate: c.estimate,
      bounds: [...c.bounds],
      ci: c.ci ? [...c.ci] : null,
      label: c.complete ? "complete" : "incomplete",
      resample: c.resample,
      per_seed: c.perSeed,
    })),
    costs: {
      definitions: {
        failed_attempts: "verifier_infra + generation_infra attempts",
        verifier_trials: "report + verifier_infra attempts",
        tokens: "tokens as given, or prompt + completion",
        service_seconds_p95: "sorted[floor(0.95*(N-1))], zero-based",
        scope: "every attempt as made, including retry-policy violations",
      },
      arms: Object.fromEntries(analysis.costs.arms.map(({ arm, ...rest }) => [arm, rest])),
      total: (({ arm: _arm, ...rest }) => rest)(analysis.costs.total),
    },
    attempts: totals,
    issues: capIssues(options.issues ?? []),
    generator: generatorMeta(options.command),
    inputs: options.inputs,
  } satisfies z.input<typeof StudySchema>;
}
