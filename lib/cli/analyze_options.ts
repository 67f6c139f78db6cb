/**
 * `gate analyze`'s options, resolved once (defaults, conventions, the
 * checks against the dataset), and the lines it prints.
 *
 * @module
 */
import { join } from "node:path";
import { UsageError } from "./args.ts";
import type { ANALYZE } from "./commands.ts";
import type { Values } from "./option_decl.ts";
import type { CovType, IntervalType } from "../core/conventions.ts";
import { ESTIMATOR } from "../contract/outputs/common.ts";
import type { IssueCode } from "../core/issue.ts";
import type { PairedDataset } from "../core/types.ts";
import type { RunScope } from "../table/run_scope.ts";
import { labelScope } from "./label_prefix.ts";
import { WAIVABLE_CODES } from "../explore/waivable.ts";
import { MAX_SAVED_DRAWS } from "../core/defaults.ts";
import type { Analysis } from "../analyze/analyze.ts";

/** `gate analyze`'s options with every default applied and checked. */
export interface AnalyzeCliOptions {
  readonly out: string;
  readonly scope: RunScope;
  readonly draws: number;
  readonly seed: number;
  readonly interval: IntervalType;
  readonly budgetK: number | undefined;
  readonly cov: CovType;
  readonly metric: string;
  /** The pairing codes `--exploratory` waives (empty: none). */
  readonly waive: readonly IssueCode[];
  /** `--estimator legacy_intercept`. */
  readonly legacy: boolean;
  /** `--pool-checkpoints`: gates of different bare runs pooled, each with its own. */
  readonly poolCheckpoints: boolean;
  readonly saveDraws: boolean;
  /** `--tasks-csv`: tasks.csv at every size. */
  readonly tasksCsv: boolean;
  /** The proposal ledger's path (default `<out>/ledger.jsonl`). */
  readonly ledgerPath: string;
}

/**
 * Resolves the options the table does not read itself (the label scope,
 * the waived codes, the estimator, the ledger's path), in the order the
 * help lists them.
 *
 * @param values The parsed option values (read by the command table).
 * @returns The options.
 * @throws {UsageError} On a bad value.
 *
 * @example
 * ```ts
 * import { analyzeOptions } from "./analyze_options.ts";
 * import { parseCommand } from "./args.ts";
 * import { ANALYZE } from "./commands.ts";
 * import { deepEqual } from "node:assert/strict";
 * const cli = parseCommand(["g", "--out", "out", "--cov", "HC1", "--exploratory", "seed_mismatch"], ANALYZE)!;
 * const o = analyzeOptions(cli.values);
 * deepEqual([o.cov, o.interval, o.metric, o.waive, o.ledgerPath], ["hc1", "percentile", "reward", ["seed_mismatch"], "out/ledger.jsonl"]);
 * ```
 */
export function analyzeOptions(values: Values<typeof ANALYZE>): AnalyzeCliOptions {
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const waive = exploratoryCodes(values.exploratory);
  const estimator = values.estimator ?? ESTIMATOR.name;
  if (estimator !== ESTIMATOR.name && estimator !== "legacy_intercept") {
    throw new UsageError(
      `--estimator must be legacy_intercept (the paired-delta fit always runs), got "${estimator}"`,
    );
  }
  return {
    out,
    scope,
    draws: values.bootstrap,
    seed: values.seed,
    interval: values.interval,
    budgetK: values["budget-k"],
    cov: values.cov,
    metric: values.metric,
    waive,
    legacy: estimator === "legacy_intercept",
    poolCheckpoints: values["pool-checkpoints"],
    saveDraws: values["save-draws"],
    tasksCsv: values["tasks-csv"],
    ledgerPath: values.ledger ?? join(out, "ledger.jsonl"),
  };
}

/**
 * Checks the options against the validated dataset: `--save-draws` needs a
 * bootstrap and stays under {@linkcode MAX_SAVED_DRAWS}; `--metric` is one of
 * the gate's.
 *
 * @param options The resolved options.
 * @param dataset The validated dataset.
 * @throws {UsageError} When an option does not fit the dataset.
 *
 * @example
 * ```ts
 * import { analyzeOptions, checkDatasetOptions } from "./analyze_options.ts";
 * import { parseCommand } from "./args.ts";
 * import { ANALYZE } from "./commands.ts";
 * import { throws } from "node:assert/strict";
 * const o = analyzeOptions(parseCommand(["g", "--out", "out", "--metric", "cost"], ANALYZE)!.values);
 * throws(() => checkDatasetOptions(o, { metrics: ["reward"], k: 2 }), /--metric cost is not a metric/);
 * ```
 */
export function checkDatasetOptions(
  options: Pick<AnalyzeCliOptions, "saveDraws" | "draws" | "metric">,
  dataset: Pick<PairedDataset, "metrics" | "k">,
): void {
  const { draws, metric } = options;
  if (options.saveDraws) {
    if (draws <= 0) {
      throw new UsageError("--save-draws needs a bootstrap (--bootstrap B with B > 0)");
    }
    const estimates = draws * dataset.metrics.length * dataset.k;
    if (estimates > MAX_SAVED_DRAWS) {
      throw new UsageError(
        `--save-draws would write ${
          estimates.toLocaleString("en-US")
        } draw estimates (${draws} draws x ${dataset.metrics.length} metrics x ${dataset.k} versions), above the limit of ${
          MAX_SAVED_DRAWS.toLocaleString("en-US")
        }; lower --bootstrap`,
      );
    }
  }
  if (!dataset.metrics.includes(metric)) {
    throw new UsageError(
      `--metric ${metric} is not a metric of this gate (${dataset.metrics.join(", ")})`,
    );
  }
}

/**
 * The lines printed unless `--quiet`: the selection metric's means, the
 * interaction screen and one line per version in rank order.
 *
 * @param analysis The analysis.
 * @param metric The selection metric.
 * @returns The lines.
 */
export function analysisDetails(
  analysis: Pick<Analysis, "contributions" | "diagnostics" | "selection">,
  metric: string,
): string[] {
  const { contributions, diagnostics, selection } = analysis;
  const lines: string[] = [];
  const m = contributions.metrics[metric]!;
  lines.push(
    `${metric}: masked ${m.masked_mean.toFixed(4)}, bare ${m.bare_mean.toFixed(4)}, delta ${
      m.delta_mean.toFixed(4)
    }`,
  );
  if (diagnostics !== null) {
    const screen = diagnostics.interactions;
    const joint = screen.joint;
    lines.push(
      `  interactions (${screen.covariance} Wald F, Holm over ${
        screen.pairs.filter((p) => p.testable).length
      } pairs): flagged ${screen.flagged.join(", ") || "none"}${
        joint ? `; joint F(${joint.df1}, ${joint.df2}) p ${joint.p_value.toFixed(4)}` : ""
      }`,
    );
  }
  for (const d of [...selection.decisions].sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))) {
    lines.push(
      `  ${String(d.rank ?? "-").padStart(3)}  ${d.version_id.padEnd(28)} ${
        d.alpha.toFixed(4).padStart(8)
      }  ${d.status}${d.retired ? " (retired)" : ""}`,
    );
  }
  return [...lines, ...checkpointLines(contributions, metric)];
}

/**
 * With pooled checkpoints: each version's pooled estimate beside each
 * checkpoint's, with the Wald chi-square of equal effects, then the joint
 * test; no line otherwise.
 *
 * @param contributions contributions.json.
 * @param metric The metric shown.
 * @returns The lines.
 */
export function checkpointLines(
  contributions: Pick<Analysis["contributions"], "checkpoints" | "metrics">,
  metric: string,
): string[] {
  const block = contributions.checkpoints;
  const m = block?.metrics[metric];
  if (block === undefined || m === undefined) return [];
  const ids = block.checkpoints.map((c) => c.checkpoint_id);
  const lines = [
    `checkpoints pooled (${ids.map((id, i) => `${i + 1} = ${id}`).join(", ")}): ${metric} ` +
    `estimates per checkpoint, Wald chi-square of equal effects (CR1 by task)`,
  ];
  if (m.unavailable !== undefined) return [...lines, `  not available: ${m.unavailable}`];
  const num = (x: number | null) => (x === null ? "-" : x.toFixed(4));
  const test = (w: { statistic: number; df: number; p: number } | null) =>
    w === null ? "not estimable" : `chi2(${w.df}) ${w.statistic.toFixed(3)} p ${w.p.toFixed(4)}`;
  for (const [version, c] of Object.entries(m.coefficients)) {
    const pooled = contributions.metrics[metric]?.coefficients[version]?.estimate ?? null;
    lines.push(
      `  ${version.padEnd(28)} pooled ${num(pooled).padStart(8)}  ${
        c.estimate.map((e, i) => `${i + 1}: ${num(e).padStart(8)}`).join("  ")
      }  ${test(c.wald)}`,
    );
  }
  lines.push(`  joint (all versions): ${test(m.joint)}`);
  return lines;
}

/**
 * The `ok: ...` line of a confirmatory analysis.
 *
 * @param analysis The analysis.
 * @param dataset The dataset (gates, pairs, columns).
 * @param out The output directory.
 * @returns The line.
 */
export function analysisSummary(
  analysis: Pick<Analysis, "selection">,
  dataset: Pick<PairedDataset, "gates" | "n" | "k">,
  out: string,
): string {
  const { selection } = analysis;
  return `ok: ${dataset.gates.length} gate(s), ${dataset.n} pairs, ${dataset.k} columns; selected ${selection.selected.length}/${selection.budget_k}` +
    `${selection.exploratory ? " (exploratory budget)" : ""}: ${
      selection.selected.join(", ") || "none"
    }; wrote ${out}/`;
}

/**
 * The `ok (exploratory ...)` line of an analysis that waived pairing codes.
 *
 * @param waived The waived issues.
 * @param waive The waived codes.
 * @param dataset The dataset (pairs, columns).
 * @param out The output directory.
 * @returns The line.
 */
export function exploratorySummary(
  waived: readonly unknown[],
  waive: readonly string[],
  dataset: Pick<PairedDataset, "n" | "k">,
  out: string,
): string {
  return `ok (exploratory, waived ${waived.length} issue(s): ${
    waive.join(", ")
  }): ${dataset.n} pairs, ${dataset.k} columns; no selection, no ledger entry; wrote ${out}/`;
}

/** Parses `--exploratory a,b`: only the waivable pairing codes. */
function exploratoryCodes(value: string | undefined): IssueCode[] {
  if (value === undefined) return [];
  const codes = value.split(",").map((c) => c.trim()).filter((c) => c !== "");
  const bad = codes.filter((c) => !(WAIVABLE_CODES as readonly string[]).includes(c));
  if (codes.length === 0 || bad.length > 0) {
    throw new UsageError(
      `--exploratory waives only ${
        WAIVABLE_CODES.join(", ")
      } (differences of conditions), got "${value}"; coverage, duplicates, injections, rewards and identifiability are never waived`,
    );
  }
  return [...new Set(codes)] as IssueCode[];
}
