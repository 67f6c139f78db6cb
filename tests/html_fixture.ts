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

export const CONTRIBUTIONS = {
  format: "gatelab.contributions/v1",
  estimator: {
    name: "paired_delta_ols_no_intercept",
    formula: "R_i - B_i = C_i' beta + e_i",
    intercept: 0.0,
  },
  baseline: { run_id: "bare-val", run_dir: "../bare-val", sha256: "a".repeat(64) },
  masked: { run_id: "gate-a", run_dir: ".", sha256: "b".repeat(64) },
  n_pairs: 6,
  columns: [
    { version_id: versions[0], slot_id: "s1", chunk_id: "query-formulation", role: "add" },
    { version_id: versions[1], slot_id: "s2", chunk_id: "variant-price-check", role: "add" },
    { version_id: versions[2], slot_id: "s3", chunk_id: "cart", role: "old" },
    { version_id: versions[3], slot_id: "s3", chunk_id: "cart", role: "new" },
  ],
  metrics: {
    reward: {
      masked_mean: 0.55,
      bare_mean: 0.4,
      delta_mean: 0.15,
      coefficients: {
        [versions[0]!]: { estimate: 0.12, se_hc3: 0.04, se_bootstrap: 0.05, ci: [0.03, 0.21] },
        [versions[1]!]: { estimate: -0.02, se_hc3: 0.05, se_bootstrap: 0.05, ci: [-0.11, 0.08] },
        [versions[2]!]: { estimate: 0.03, se_hc3: 0.06 },
        [versions[3]!]: { estimate: 0.07, se_hc3: 0.06 },
      },
    },
    r_strict: {
      masked_mean: 0.55,
      bare_mean: 0.4,
      delta_mean: 0.15,
      coefficients: {
        [versions[0]!]: { estimate: 0.12, se_hc3: 0.04 },
        [versions[1]!]: { estimate: -0.02, se_hc3: 0.05 },
        [versions[2]!]: { estimate: 0.03, se_hc3: 0.06 },
        [versions[3]!]: { estimate: 0.07, se_hc3: 0.06 },
      },
    },
  },
  bootstrap: {
    method: "task_bootstrap",
    draws: 1000,
    seed: 1,
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
};

export const STUDY = {
  format: "gatelab.study/v1",
  bootstrap: { draws: 10000, seed: 20260927, resample: "seeds+tasks" },
  arms: {
    M: {
      planned: 480,
      observed: 480,
      successes: 240,
      estimate: 0.5,
      bounds: [0.5, 0.5],
      complete: true,
    },
    B: {
      planned: 480,
      observed: 480,
      successes: 192,
      estimate: 0.4,
      bounds: [0.4, 0.4],
      complete: true,
    },
    O: {
      planned: 480,
      observed: 476,
      successes: 200,
      estimate: null,
      bounds: [0.4167, 0.425],
      complete: false,
    },
  },
  comparisons: [
    { a: "M", b: "B", complete: true, estimate: 0.1, bounds: [0.1, 0.1], ci: [0.05, 0.15] },
    { a: "M", b: "O", complete: false, estimate: null, bounds: [0.075, 0.0833], ci: null },
  ],
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
  plan: {
    format: "gatelab.heldout-plan/v1",
    scheme: "split_half",
    folds: 2,
    repeats: 2,
    seed: 1,
    metric: "reward",
  },
  budget_k: 2,
  degenerate_splits: 0,
  realised_to_predicted: 0.8,
  summary: {
    spearman: stat(0.5),
    kendall_tau_b: stat(0.3),
    gain_predicted: stat(0.2),
    gain_realised: stat(0.16),
  },
  splits: [0, 1, 2, 3].map((i) => ({
    repeat: i >> 1,
    fold: i % 2,
    ok: true,
    gain_predicted: 0.2 + i / 100,
    gain_realised: 0.16 - i / 100,
  })),
  against: {
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
