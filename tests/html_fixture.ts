/**
 * A small analysis output directory (contributions.json, selection.json,
 * study.json per docs/FORMAT.md sections 5 and 6) for the report tests.
 * The numbers are made up: the tests check rendering, not estimation.
 * {@linkcode addGateBAndPower} adds a real comparison.json and power.json
 * made by the commands themselves.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toJsonText, writeFilesAtomic } from "../lib/core/atomic_write.ts";
import { run as compare } from "../lib/cli/compare.ts";
import { run as planPower } from "../lib/cli/plan_power.ts";
import { quiet } from "./fixtures.ts";

const versions = ["query-formulation", "variant-price-check", "old-cart", "new-cart"];

const GENERATOR = { tool: "gatelab", version: "0.1.0", command: "gate analyze gate-a --out out" };
const RUN = { run_id: "gate-a", run_dir: ".", sha256: "b".repeat(64) };

/** A coefficient with every field contributions.json holds; the statistics not set are null. */
const coef = (estimate: number, se_hc3: number, extra: Record<string, unknown> = {}) => ({
  estimate,
  se_hc3,
  se_robust: null,
  t: null,
  p: null,
  se_cluster: null,
  t_cluster: null,
  p_cluster: null,
  amce: null,
  amce_gap: null,
  ...extra,
});

/** A metric's fit numbers (made up) around its means and coefficients. */
const fit = (rest: Record<string, unknown>) => ({
  n: 6,
  k: 4,
  df_resid: 2,
  resid_se: 0.1,
  ssr: 0.02,
  r2_uncentered: 0.5,
  ...rest,
});

export const CONTRIBUTIONS = {
  format: "gatelab.contributions/v1",
  estimator: {
    name: "paired_delta_ols_no_intercept",
    formula: "R_i - B_i = C_i' beta + e_i",
    intercept: 0.0,
  },
  baseline: { run_id: "bare-val", run_dir: "../bare-val", sha256: "a".repeat(64) },
  masked: RUN,
  conventions: { cov_type: "HC3" },
  gates: [{
    gate_id: "gate-a",
    gate_dir: ".",
    stage: "cold_start",
    budget_k: 2,
    mask_seed: 1,
    p_present: 0.5,
    masked: RUN,
  }],
  n_pairs: 6,
  n_tasks: 6,
  columns: [
    { version_id: versions[0], slot_id: "s1", chunk_id: "query-formulation", role: "add" },
    { version_id: versions[1], slot_id: "s2", chunk_id: "variant-price-check", role: "add" },
    { version_id: versions[2], slot_id: "s3", chunk_id: "cart", role: "old" },
    { version_id: versions[3], slot_id: "s3", chunk_id: "cart", role: "new" },
  ],
  metrics: {
    reward: fit({
      masked_mean: 0.55,
      bare_mean: 0.4,
      delta_mean: 0.15,
      coefficients: {
        [versions[0]!]: coef(0.12, 0.04, { se_bootstrap: 0.05, ci: [0.03, 0.21] }),
        [versions[1]!]: coef(-0.02, 0.05, { se_bootstrap: 0.05, ci: [-0.11, 0.08] }),
        [versions[2]!]: coef(0.03, 0.06),
        [versions[3]!]: coef(0.07, 0.06),
      },
    }),
    r_strict: fit({
      masked_mean: 0.55,
      bare_mean: 0.4,
      delta_mean: 0.15,
      coefficients: {
        [versions[0]!]: coef(0.12, 0.04),
        [versions[1]!]: coef(-0.02, 0.05),
        [versions[2]!]: coef(0.03, 0.06),
        [versions[3]!]: coef(0.07, 0.06),
      },
    }),
  },
  warnings: [],
  bootstrap: {
    method: "task_bootstrap",
    resample_unit: "task (split, task_id)",
    draws: 1000,
    seed: 1,
    draw_order: "one stream",
    stream_layout: "one block",
    interval: "percentile",
    interval_levels: [0.025, 0.975],
    quantile_rule: "sorted[floor(q*(B-1))]",
    se_ddof: 1,
    bca_method: null,
    degenerate: {
      policy: "excluded",
      singular_draws: 0,
      draws_with_absent_column: 0,
      absent_per_version: {},
    },
    metrics: {},
    stability: {
      metric: "reward",
      budget_k: 2,
      rule: "family winner, then strictly positive top-K",
      draws_used: 1000,
      draws_excluded: 0,
      point_selection: [versions[0], versions[3]],
      set_equal_frequency: 0.5,
      mean_jaccard: 0.75,
      rank_quantiles: "lower empirical quantile",
      versions: versions.map((version_id, i) => ({
        version_id,
        selected_frequency: [0.91, 0.12, 0.3, 0.55][i],
        rewrite_loser_frequency: i >= 2 ? 0.5 : 0,
        rank_median: i + 1,
        rank_p05: 1,
        rank_p95: 4,
        p_rank_within_k: [0.91, 0.12, 0.3, 0.55][i],
        selected_point: i === 0 || i === 3,
        rank_point: i === 2 ? null : i + 1,
      })),
    },
  },
  tasks: [0, 1, 2, 3, 4, 5].map((i) => ({
    split: "val",
    task_id: `t${i}`,
    sample_id: 0,
    columns: {
      [versions[0]!]: i % 2,
      [versions[1]!]: (i >> 1) % 2,
      [versions[2]!]: i % 3 === 0 ? 1 : 0,
      [versions[3]!]: i % 3 === 1 ? 1 : 0,
    },
    values: {
      reward: { masked: 0.5 + i / 20, bare: 0.4, delta: 0.1 + i / 20 },
      r_strict: { masked: 0.5 + i / 20, bare: 0.4, delta: 0.1 + i / 20 },
    },
  })),
  generator: GENERATOR,
};

export const SELECTION = {
  format: "gatelab.selection/v1",
  metric: "reward",
  budget_k: 2,
  selected: [versions[0], versions[3]],
  decisions: [
    {
      slot_id: "s1",
      version_id: versions[0],
      role: "add",
      alpha: 0.12,
      rank: 1,
      status: "selected",
      retired: false,
    },
    {
      slot_id: "s3",
      version_id: versions[3],
      role: "new",
      alpha: 0.07,
      rank: 2,
      status: "selected",
      retired: false,
    },
    {
      slot_id: "s2",
      version_id: versions[1],
      role: "add",
      alpha: -0.02,
      rank: 3,
      status: "non_positive",
      retired: false,
    },
    {
      slot_id: "s3",
      version_id: versions[2],
      role: "old",
      alpha: 0.03,
      rank: null,
      status: "rewrite_loser",
      retired: true,
    },
  ],
  tie_tolerance: 1e-12,
  exploratory: false,
  gate_budget_k: 2,
  stage: "cold_start",
  gate_ids: ["gate-a"],
  baseline_sha256: "a".repeat(64),
  estimator: "paired_delta_ols_no_intercept",
  conventions: {},
  generator: GENERATOR,
};

/** An arm of study.json: the numbers the tests set, the tallies empty. */
const arm = (rest: Record<string, unknown>) => ({
  ...rest,
  label: rest["complete"] ? "complete" : "incomplete",
  train_seeds: [1, 2],
  task_count: 240,
  slots: {},
  attempts: { attempts: 0, used: 0, violations: 0, by_kind: {}, reasons: {} },
});

/** One arm's costs in study.json, no service times. */
function cost(attempts: number, gpu_hours: number) {
  return {
    attempts,
    failed_attempts: attempts - 480,
    verifier_trials: 480,
    gpu_hours,
    gpu_hours_reported: attempts,
    tokens: 1000 * attempts,
    tokens_reported: attempts,
    service_seconds: null,
  };
}

export const STUDY = {
  format: "gatelab.study/v1",
  bootstrap: {
    draws: 10000,
    seed: 20260927,
    resample: "seeds+tasks",
    resample_note: "",
    interval: "percentile, q = 0.025 and 0.975",
    quantile_rule: "sorted[floor(q*(B-1))]",
    draw_order: "",
    prng: "xoshiro128**",
  },
  estimator: {},
  arms: {
    M: arm({
      planned: 480,
      observed: 480,
      successes: 240,
      estimate: 0.5,
      bounds: [0.5, 0.5],
      complete: true,
    }),
    B: arm({
      planned: 480,
      observed: 480,
      successes: 192,
      estimate: 0.4,
      bounds: [0.4, 0.4],
      complete: true,
    }),
    O: arm({
      planned: 480,
      observed: 476,
      successes: 200,
      estimate: null,
      bounds: [0.4167, 0.425],
      complete: false,
    }),
  },
  comparisons: [
    { a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0.05, 0.15] },
    { a: "M", b: "O", complete: false, estimate: null, bounds: [0.075, 0.0833], ci: null },
  ].map((c) => ({
    ...c,
    label: c.complete ? "complete" : "incomplete",
    resample: "seeds+tasks",
    per_seed: null,
  })),
  costs: {
    definitions: {},
    arms: { M: cost(480, 240.5), B: cost(480, 236.25), O: cost(484, 241) },
    total: cost(1444, 717.75),
  },
  attempts: { attempts: 0, used: 0, violations: 0 },
  issues: [],
  generator: { ...GENERATOR, command: "gate study study --out out" },
  inputs: [],
};

const stat = (mean: number) => ({
  n: 4,
  mean,
  sd: 0.1,
  p05: mean - 0.1,
  median: mean,
  p95: mean + 0.1,
});

export const HELDOUT = {
  format: "gatelab.heldout/v1",
  generator: { ...GENERATOR, command: "gate heldout gate-a --plan p.json --out out" },
  estimator: {
    name: "paired_delta_ols_no_intercept",
    formula: "R_i - B_i = C_i' beta + e_i",
    intercept: 0.0,
  },
  baseline: { run_id: "bare-val", run_dir: "../bare-val", sha256: "a".repeat(64) },
  gates: [{ gate_id: "gate-a", gate_dir: ".", masked: RUN }],
  plan_file: { path: "p.json", sha256: "c".repeat(64) },
  inputs: [],
  n_rows: 6,
  n_tasks: 6,
  plan: {
    format: "gatelab.heldout-plan/v1",
    scheme: "split_half",
    folds: 2,
    repeats: 2,
    seed: 1,
    metric: "reward",
  },
  budget_k: 2,
  split_unit: "task (split, task_id)",
  permutation: "",
  selection_rule: "",
  definitions: {},
  degenerate_splits: 0,
  realised_to_predicted: 0.8,
  summary: {
    spearman: stat(0.5),
    kendall_tau_b: stat(0.3),
    gain_predicted: stat(0.2),
    gain_realised: stat(0.16),
  },
  summary_quantile_rule: "sorted[floor(q*(B-1))]",
  summary_sd: "sd over splits",
  splits: [0, 1, 2, 3].map((i) => ({
    repeat: i >> 1,
    fold: i % 2,
    fit_tasks: 3,
    heldout_tasks: 3,
    ok: true,
    spearman: 0.5,
    kendall_tau_b: 0.3,
    selected_fit: [versions[0]],
    selected_heldout: [versions[0]],
    topk_overlap: 1,
    topk_jaccard: 0.5,
    gain_predicted: 0.2 + i / 100,
    gain_realised: 0.16 - i / 100,
  })),
  against: {
    gates: [{ gate_id: "gate-b", gate_dir: ".", masked: RUN }],
    baseline: { run_id: "bare-val", run_dir: "../bare-val", sha256: "a".repeat(64) },
    metric: "reward",
    budget_k: 2,
    shared: [versions[0], versions[1], versions[3]],
    spearman_shared: 0.5,
    kendall_tau_b_shared: 0.33,
    selected: [versions[0], versions[3]],
    selected_not_in_later: [],
    selected_later: [versions[0]],
    topk_overlap: 1,
    gain_predicted: 0.19,
    gain_realised: 0.1,
    per_version: [
      { version_id: versions[0], earlier: 0.12, later: 0.08 },
      { version_id: versions[1], earlier: -0.02, later: 0.03 },
      { version_id: versions[3], earlier: 0.07, later: 0.02 },
    ],
    note: "checkpoint-relative",
  },
};

/** Writes the fixture into a new temporary directory and returns its path. */
export async function writeAnalysisFixture(
  parts: { contributions?: boolean; selection?: boolean; study?: boolean; heldout?: boolean } = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-html-" });
  const files: Record<string, string> = {};
  if (parts.contributions ?? true) files["contributions.json"] = toJsonText(CONTRIBUTIONS);
  if (parts.selection ?? true) files["selection.json"] = toJsonText(SELECTION);
  if (parts.study ?? true) files["study.json"] = toJsonText(STUDY);
  if (parts.heldout ?? true) files["heldout.json"] = toJsonText(HELDOUT);
  await writeFilesAtomic(dir, files);
  return dir;
}

/** The demo's Gate B runs (data/demo/gate-b), small enough for a quick `gate compare`. */
const GATE_B = fileURLToPath(new URL("../data/demo/gate-b/", import.meta.url));

/**
 * Adds a real comparison.json (`gate compare` on the demo's Gate B runs,
 * 200 bootstrap draws, seed 3) and power.json (`gate plan-power`, N 60,
 * M 4, p 0.5, s 0.3, K 2, 50 simulations, seed 2) to `dir`; the commands'
 * other files stay in a scratch directory.
 */
export async function addGateBAndPower(dir: string): Promise<void> {
  // Each command's --out is one unit replaced whole, so each gets its own.
  const scratch = await Deno.makeTempDir({ prefix: "gatelab-html-gateb-" });
  try {
    const args = ["--out", join(scratch, "compare")];
    const compared = await quiet(() =>
      compare([
        "--bare",
        join(GATE_B, "bare-test"),
        "--equipped",
        join(GATE_B, "equipped-test"),
        "--bootstrap",
        "200",
        "--seed",
        "3",
        "--quiet",
        ...args,
      ])
    );
    const planned = await quiet(() =>
      planPower([
        "--tasks",
        "60",
        "--columns",
        "4",
        "--p-present",
        "0.5",
        "--resid-sd",
        "0.3",
        "--effects",
        "0.1,0.05,0,-0.02",
        "--budget-k",
        "2",
        "--sims",
        "50",
        "--seed",
        "2",
        "--out",
        join(scratch, "power"),
      ])
    );
    if (compared !== 0 || planned !== 0) {
      throw new Error(`Cannot make the Gate B/power fixture: exit codes ${compared}, ${planned}`);
    }
    await Deno.copyFile(join(scratch, "compare", "comparison.json"), join(dir, "comparison.json"));
    await Deno.copyFile(join(scratch, "power", "power.json"), join(dir, "power.json"));
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}
