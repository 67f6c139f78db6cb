/**
 * A small analysis output directory (contributions.json, selection.json,
 * study.json per docs/FORMAT.md sections 5 and 6) for the report tests.
 * The numbers are made up: the tests check rendering, not estimation.
 */
import { toJsonText, writeFilesAtomic } from "../lib/core/atomic_write.ts";

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
  stability: {
    versions: { [versions[0]!]: { frequency: 0.91 }, [versions[3]!]: { frequency: 0.55 } },
  },
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

/** Writes the fixture into a new temporary directory and returns its path. */
export async function writeAnalysisFixture(
  parts: { contributions?: boolean; selection?: boolean; study?: boolean } = {},
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-html-" });
  const files: Record<string, string> = {};
  if (parts.contributions ?? true) files["contributions.json"] = toJsonText(CONTRIBUTIONS);
  if (parts.selection ?? true) files["selection.json"] = toJsonText(SELECTION);
  if (parts.study ?? true) files["study.json"] = toJsonText(STUDY);
  await writeFilesAtomic(dir, files);
  return dir;
}
