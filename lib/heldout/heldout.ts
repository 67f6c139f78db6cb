/**
 * Held-out ranking checks: split tasks (never rows), fit the paired-delta
 * OLS on one part, measure on the other; and check a selection against a
 * later gate that shares versions.
 *
 * Definitions (docs/inference.md):
 * - `spearman`, `kendall_tau_b`: rank agreement of the fit part's and the
 *   held-out part's coefficients over all columns.
 * - `topk_overlap`: |S_fit ∩ S_held|, the selected sets of the two parts
 *   under the gate's rule with budget K; `topk_jaccard` = |∩| / |∪| (1 if both empty).
 * - `gain_predicted` = sum of the fit part's coefficients over S_fit: the
 *   gain of the selected set over bare that the fit part promises.
 * - `gain_realised` = sum of the held-out part's coefficients over S_fit:
 *   the additive estimate, from held-out tasks only, of the mean delta
 *   (R - B) that S_fit would produce on them. The gap measures
 *   selection-induced optimism (winner's curse).
 *
 * @module
 */
import { plainMessage } from "../contract/plain_issue.ts";
import { type Issue } from "../core/issue.ts";
import {
  type AcrossGateJson,
  type HeldoutJson,
  HeldoutPlanSchema,
} from "../contract/outputs/heldout.ts";
import { createPrng } from "../math/prng.ts";
import { lowerQuantileSorted, QUANTILE_RULE } from "../math/quantile.ts";
import type { Result } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import { compileSelection } from "../select/select.ts";
import { type PointFit, pointFit } from "../fit/point.ts";
import { SELECTION_RULE } from "../select/selection_rule.ts";
import { kendallTauB, spearman } from "./rank_agreement.ts";
import { mean as ssMean, sampleStandardDeviation } from "npm:simple-statistics@7.12.1";
import { DEFAULTS } from "../core/defaults.ts";

/** A held-out plan (`gatelab.heldout-plan/v1`). */
export interface HeldoutPlan {
  /** Plan format tag. */
  readonly format: "gatelab.heldout-plan/v1";
  /** `kfold`: each fold held out once; `split_half`: a random half fits, the other half is held out. */
  readonly scheme: "kfold" | "split_half";
  /** Folds for kfold (>= 2); split_half uses 2. */
  readonly folds: number;
  /** Independent repetitions with fresh task permutations. */
  readonly repeats: number;
  /** Seed of the task permutations. */
  readonly seed: number;
  /** Metric whose coefficients are ranked. @default {DEFAULTS.metric} */
  readonly metric: string;
  /** Budget K of the selection; default: the first gate's budget_k. */
  readonly budget_k?: number;
}

/**
 * Parses and checks a held-out plan with lib/contract's
 * `HeldoutPlanSchema`; every problem is a `plan_invalid` issue with the
 * field path.
 *
 * @param value Parsed JSON.
 * @param file File name for issues.
 * @returns The plan with defaults filled, or the issues.
 *
 * @example
 * ```ts
 * import { parseHeldoutPlan } from "./heldout.ts";
 * import { deepEqual } from "node:assert/strict";
 * const ok = parseHeldoutPlan({ format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 2, seed: 1 });
 * deepEqual(ok.ok && ok.value.metric, "reward");
 * const bad = parseHeldoutPlan({ format: "gatelab.heldout-plan/v1", scheme: "loo", folds: 1, repeats: 0, seed: 1.5 });
 * deepEqual(bad.issues.map((i) => i.path), ["scheme", "folds", "repeats", "seed"]);
 * ```
 */
export function parseHeldoutPlan(value: unknown, file = "plan.json"): Result<HeldoutPlan> {
  const parsed = HeldoutPlanSchema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((zi): Issue => ({
        code: "plan_invalid",
        file,
        path: zi.path.map(String).join("."),
        message: plainMessage(zi, value),
      })),
    };
  }
  const v = parsed.data;
  return {
    ok: true,
    issues: [],
    value: {
      format: "gatelab.heldout-plan/v1",
      scheme: v.scheme,
      folds: v.folds ?? 2,
      repeats: v.repeats,
      seed: v.seed,
      metric: v.metric ?? DEFAULTS.metric,
      ...(v.budget_k === undefined ? {} : { budget_k: v.budget_k }),
    },
  };
}

/**
 * heldout.json as `gate heldout` writes it: the zod-inferred output type of
 * lib/contract's `HeldoutSchema` (fields documented there and in
 * docs/FORMAT.md, Extensions).
 *
 * @ignore
 */
export type HeldoutDocument = HeldoutJson;

/** Numbers of one split (heldout.json `splits[]`; fields in docs/FORMAT.md). */
export type HeldoutSplit = HeldoutJson["splits"][number];

/** Summary of one statistic over the usable splits: n, mean, sd (ddof 1), 5%, median, 95%. */
export type StatSummary = HeldoutJson["summary"][string];

/** The statistics a held-out check summarises, in heldout.json order. */
export type HeldoutStatistic =
  | "spearman"
  | "kendall_tau_b"
  | "topk_overlap"
  | "topk_jaccard"
  | "gain_predicted"
  | "gain_realised";

/**
 * Result of {@linkcode heldoutCheck}: heldout.json's fields of the check
 * (the document without its generator, inputs and `against`), with the
 * plan as run and one summary per {@linkcode HeldoutStatistic}.
 */
export type HeldoutResult =
  & Omit<
    HeldoutDocument,
    | "format"
    | "generator"
    | "estimator"
    | "baseline"
    | "gates"
    | "plan_file"
    | "inputs"
    | "n_rows"
    | "n_tasks"
    | "against"
    | "plan"
    | "summary"
  >
  & {
    /** The plan that was run. */
    readonly plan: HeldoutPlan;
    /** Summary of each statistic over the usable splits. */
    readonly summary: Readonly<Record<HeldoutStatistic, StatSummary>>;
  };

/** Definitions recorded in heldout.json. */
/** What a held-out summary's `sd` is, recorded in heldout.json. */
export const HELDOUT_SD_NOTE =
  "sd: standard deviation of the statistic across the usable splits (ddof 1); a spread, not a " +
  "standard error: the splits share tasks (every task is held out once per repeat and fits the " +
  "others), so they are not independent and the uncertainty of the mean is not sd / sqrt(n)";

/** Definitions of the held-out statistics, recorded in heldout.json. */
export const HELDOUT_DEFINITIONS: Readonly<Record<string, string>> = {
  spearman:
    "Spearman rho (average ranks) between fit-part and held-out-part coefficients, all columns",
  kendall_tau_b: "Kendall tau-b between the same two coefficient vectors",
  topk_overlap:
    "|S_fit ∩ S_held|, selected sets of the two parts under the gate's rule with budget K",
  topk_jaccard: "|S_fit ∩ S_held| / |S_fit ∪ S_held| (1 when both are empty)",
  gain_predicted: "sum of fit-part coefficients over S_fit",
  gain_realised:
    "sum of held-out-part coefficients over S_fit: additive estimate, from held-out tasks only, " +
    "of the mean paired delta R - B that S_fit would produce",
};

/**
 * Runs the held-out plan on a dataset. Tasks (clusters) are permuted per
 * repeat by a Fisher-Yates shuffle (i = G-1 .. 1 swaps with nextInt(i+1)) of
 * one `createPrng(seed)` stream, repeats consecutive. kfold: the task at
 * permuted position t is in fold t mod folds; each fold is held out once.
 * split_half: the first floor(G/2) permuted tasks fit, the rest are held out.
 *
 * @param dataset Validated paired dataset.
 * @param plan A parsed plan.
 * @returns Per-split numbers and summaries.
 * @throws {RangeError} If the plan's metric is not in the dataset or K is negative.
 * @example Five folds of the demo's Gate A, one repeat
 * ```ts
 * import { datasetOrThrow, heldoutCheck, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const result = heldoutCheck(gateA, {
 *   format: "gatelab.heldout-plan/v1", scheme: "kfold", folds: 5, repeats: 1, seed: 1, metric: "reward",
 * });
 * deepEqual([result.splits.length, result.budget_k, result.summary.topk_overlap.mean], [5, 10, 8]);
 * deepEqual(result.summary.spearman.mean?.toFixed(4), "0.2985");
 * ```
 */
export function heldoutCheck(dataset: PairedDataset, plan: HeldoutPlan): HeldoutResult {
  if (!dataset.metrics.includes(plan.metric)) {
    throw new RangeError(
      `Cannot run held-out plan: metric "${plan.metric}" is not among ${
        dataset.metrics.join(", ")
      }`,
    );
  }
  const budgetK = plan.budget_k ?? dataset.gates[0]?.budget_k ?? 0;
  const { k, clusterCount: g } = dataset;
  const ids = dataset.columns.map((c) => c.version_id);
  const prng = createPrng(plan.seed);
  const perm = new Int32Array(g);
  const fitCounts = new Int32Array(g), heldCounts = new Int32Array(g);
  const ranks = new Int32Array(k), order = new Int32Array(k);
  const splits: HeldoutSplit[] = [];
  const parts = plan.scheme === "kfold" ? plan.folds : 1;
  for (let r = 0; r < plan.repeats; r++) {
    for (let i = 0; i < g; i++) perm[i] = i;
    for (let i = g - 1; i >= 1; i--) {
      const j = prng.nextInt(i + 1);
      const t = perm[i]!;
      perm[i] = perm[j]!;
      perm[j] = t;
    }
    for (let f = 0; f < parts; f++) {
      for (let t = 0; t < g; t++) {
        const held = plan.scheme === "kfold" ? t % plan.folds === f : t >= Math.floor(g / 2);
        fitCounts[perm[t]!] = held ? 0 : 1;
        heldCounts[perm[t]!] = held ? 1 : 0;
      }
      const nFit = fitCounts.reduce((a, b) => a + b, 0);
      const fitPart = fitRows(dataset, plan.metric, fitCounts);
      const heldPart = fitRows(dataset, plan.metric, heldCounts);
      if (!fitPart || !heldPart) {
        splits.push({
          repeat: r,
          fold: f,
          fit_tasks: nFit,
          heldout_tasks: g - nFit,
          ok: false,
          spearman: null,
          kendall_tau_b: null,
          selected_fit: [],
          selected_heldout: [],
          topk_overlap: null,
          topk_jaccard: null,
          gain_predicted: null,
          gain_realised: null,
        });
        continue;
      }
      const bFit = fitPart.coefficients, bHeld = heldPart.coefficients;
      const selFit = compileSelection(dataset.columns, { tolerance: fitPart.tolerances[0]! })
        .rank(bFit, budgetK, ranks, order).selected;
      const fitSet = Array.from(order.subarray(0, selFit));
      const selHeld = compileSelection(dataset.columns, { tolerance: heldPart.tolerances[0]! })
        .rank(bHeld, budgetK, ranks, order).selected;
      const heldSet = new Set(order.subarray(0, selHeld));
      let inter = 0, predicted = 0, realised = 0;
      for (const j of fitSet) {
        if (heldSet.has(j)) inter++;
        predicted += bFit[j]!;
        realised += bHeld[j]!;
      }
      const union = fitSet.length + heldSet.size - inter;
      splits.push({
        repeat: r,
        fold: f,
        fit_tasks: nFit,
        heldout_tasks: g - nFit,
        ok: true,
        spearman: spearman(bFit, bHeld),
        kendall_tau_b: kendallTauB(bFit, bHeld),
        selected_fit: fitSet.map((j) => ids[j]!),
        selected_heldout: [...heldSet].map((j) => ids[j]!),
        topk_overlap: inter,
        topk_jaccard: union === 0 ? 1 : inter / union,
        gain_predicted: predicted,
        gain_realised: realised,
      });
    }
  }
  const usable = splits.filter((s) => s.ok);
  const stat = (key: keyof typeof HELDOUT_DEFINITIONS) =>
    summarise(usable.map((s) => s[key as "spearman"]).filter((v): v is number => v !== null));
  const summary = {
    spearman: stat("spearman"),
    kendall_tau_b: stat("kendall_tau_b"),
    topk_overlap: stat("topk_overlap"),
    topk_jaccard: stat("topk_jaccard"),
    gain_predicted: stat("gain_predicted"),
    gain_realised: stat("gain_realised"),
  };
  const mp = summary.gain_predicted.mean, mr = summary.gain_realised.mean;
  return {
    plan,
    budget_k: budgetK,
    split_unit: "task (split, task_id); all rows of a task (every pooled round) stay in one part",
    permutation:
      "Fisher-Yates over tasks in first-seen order, i = G-1..1 swaps with nextInt(i+1), " +
      "one createPrng(seed) stream, repeats consecutive",
    selection_rule: SELECTION_RULE,
    definitions: HELDOUT_DEFINITIONS,
    splits,
    degenerate_splits: splits.length - usable.length,
    summary,
    realised_to_predicted: mp !== null && mr !== null && mp !== 0 ? mr / mp : null,
    summary_quantile_rule: QUANTILE_RULE,
    summary_sd: HELDOUT_SD_NOTE,
  };
}

/**
 * n, mean, sd (ddof 1), and the 5%, 50%, 95% quantiles (gatelab rule) of values.
 *
 * @example
 * ```ts
 * import { summarise } from "./heldout.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual(summarise([3, 1, 2]), { n: 3, mean: 2, sd: 1, p05: 1, median: 2, p95: 2 });
 * ```
 */
export function summarise(values: readonly number[]): StatSummary {
  const n = values.length;
  if (n === 0) return { n, mean: null, sd: null, p05: null, median: null, p95: null };
  const sorted = Float64Array.from(values).sort();
  const xs = [...values];
  return {
    n,
    mean: ssMean(xs),
    sd: n > 1 ? sampleStandardDeviation(xs) : null, // ddof 1

    p05: lowerQuantileSorted(sorted, 0.05),
    median: lowerQuantileSorted(sorted, 0.5),
    p95: lowerQuantileSorted(sorted, 0.95),
  };
}

/**
 * Result of {@linkcode againstLaterGate}: heldout.json's `against` block
 * without the later gates and their bare run (zod-inferred from
 * lib/contract's `AcrossGateSchema`; fields in docs/FORMAT.md).
 */
export type AcrossGateCheck = Omit<AcrossGateJson, "gates" | "baseline">;

/**
 * Out-of-sample check across gates: the selection of `earlier` against the
 * coefficients of a later gate (possibly another checkpoint) that shares
 * versions. Versions are matched by version_id. Coefficients are
 * checkpoint-relative, so a later gate on another checkpoint measures
 * transfer, not only noise.
 *
 * @param earlier Dataset of the selecting gate.
 * @param later Dataset of the later gate(s).
 * @param options metric (default "reward"), budget K (default the earlier gate's).
 * @returns Rank agreement on shared versions and predicted vs realised gain.
 * @throws {RangeError} If the metric is missing in either dataset or a design is singular.
 * @example The demo's Gate A against the first online round of checkpoint B
 * ```ts
 * import { againstLaterGate, datasetOrThrow, validateGates } from "../mod.ts";
 * import { deepEqual } from "node:assert/strict";
 * const gateA = datasetOrThrow(await validateGates(["data/demo/ckpt-a/gate-a"]), "Gate A");
 * const round1 = datasetOrThrow(await validateGates(["data/demo/ckpt-b/gate-online-r1"]), "round 1");
 * const check = againstLaterGate(gateA, round1);
 * deepEqual([check.shared.length, check.topk_overlap], [6, 3]);
 * deepEqual(check.spearman_shared?.toFixed(4), "0.4857");
 * ```
 */
export function againstLaterGate(
  earlier: PairedDataset,
  later: PairedDataset,
  options: { readonly metric?: string; readonly budgetK?: number } = {},
): AcrossGateCheck {
  const metric = options.metric ?? DEFAULTS.metric;
  const budgetK = options.budgetK ?? earlier.gates[0]?.budget_k ?? 0;
  const fit = (d: PairedDataset) => {
    if (!d.metrics.includes(metric)) {
      throw new RangeError(`Cannot compare gates: metric "${metric}" is missing`);
    }
    const out = fitRows(d, metric, new Int32Array(d.clusterCount).fill(1));
    if (!out) {
      throw new RangeError(
        "Cannot compare gates: a design is rank deficient (or missing a column)",
      );
    }
    return out;
  };
  const select = (d: PairedDataset, beta: Float64Array, tau: number, k: number) => {
    const ranks = new Int32Array(d.k), order = new Int32Array(d.k);
    const n = compileSelection(d.columns, { tolerance: tau }).rank(beta, k, ranks, order).selected;
    return Array.from(order.subarray(0, n), (j) => d.columns[j]!.version_id);
  };
  const fE = fit(earlier), fL = fit(later);
  const bE = fE.coefficients, bL = fL.coefficients;
  const laterIndex = new Map(later.columns.map((c, j) => [c.version_id, j]));
  const sharedPairs = earlier.columns.flatMap((c, j) => {
    const l = laterIndex.get(c.version_id);
    return l === undefined ? [] : [[j, l] as const];
  });
  const eShared = sharedPairs.map(([j]) => bE[j]!), lShared = sharedPairs.map(([, l]) => bL[l]!);
  const selected = select(earlier, bE, fE.tolerances[0]!, budgetK);
  const selectedLater = select(later, bL, fL.tolerances[0]!, later.gates[0]?.budget_k ?? budgetK);
  const laterSet = new Set(selectedLater);
  let predicted = 0, realised = 0;
  const earlierIndex = new Map(earlier.columns.map((c, j) => [c.version_id, j]));
  for (const id of selected) {
    const l = laterIndex.get(id);
    if (l === undefined) continue;
    predicted += bE[earlierIndex.get(id)!]!;
    realised += bL[l]!;
  }
  return {
    metric,
    budget_k: budgetK,
    shared: sharedPairs.map(([j]) => earlier.columns[j]!.version_id),
    spearman_shared: sharedPairs.length >= 2 ? spearman(eShared, lShared) : null,
    kendall_tau_b_shared: sharedPairs.length >= 2 ? kendallTauB(eShared, lShared) : null,
    selected,
    selected_not_in_later: selected.filter((id) => !laterIndex.has(id)),
    selected_later: selectedLater,
    topk_overlap: selected.filter((id) => laterSet.has(id)).length,
    gain_predicted: predicted,
    gain_realised: realised,
    per_version: sharedPairs.map(([j, l]) => ({
      version_id: earlier.columns[j]!.version_id,
      earlier: bE[j]!,
      later: bL[l]!,
    })),
    note: "versions matched by version_id; coefficients are relative to each gate's own bare run " +
      "(checkpoint-relative), so a later checkpoint measures transfer as well as noise",
  };
}

/**
 * The core fit (lib/fit QR) of one metric on the rows of the tasks with
 * `take[cluster] = 1`; null when that part cannot identify every coefficient.
 */
function fitRows(
  dataset: PairedDataset,
  metric: string,
  take: ArrayLike<number>,
): PointFit | null {
  const { n, k, design, cluster } = dataset;
  const y = dataset.delta[metric]!;
  let rows = 0;
  for (let i = 0; i < n; i++) if (take[cluster[i]!]) rows++;
  const x = new Uint8Array(rows * k), ys = new Float64Array(rows);
  let r = 0;
  for (let i = 0; i < n; i++) {
    if (!take[cluster[i]!]) continue;
    x.set(design.subarray(i * k, (i + 1) * k), r * k);
    ys[r++] = y[i]!;
  }
  return pointFit(x, [rows, k], [ys]);
}
