/**
 * Misfit diagnostics (lib/infer/diagnostics/diagnostics.ts) against statsmodels 0.15:
 * `python3 scripts/reference/infer_diagnostics.py` fits the same 120-row
 * fixture with OLS(cov_type="HC3") (and cov_type="cluster" for CR1) and runs wald_test / f_test and
 * multipletests(method="holm"); it writes tests/data/reference/infer_diagnostics.json
 * (through scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok } from "node:assert/strict";
import type { PairedDataset } from "../lib/core/types.ts";
import {
  amceTable,
  interactionScreen,
  residualsByCount,
} from "../lib/infer/diagnostics/diagnostics.ts";
import { referenceJson } from "./reference_data.ts";
import { bootstrapFixture } from "./infer_fixture.ts";

interface PairReference {
  readonly a: string;
  readonly b: string;
  readonly gamma: number;
  readonly se: number;
  readonly f: number;
  readonly p: number;
  readonly df2: number;
  readonly holm: number;
}
interface JointReference {
  readonly f: number;
  readonly p: number;
  readonly df1: number;
  readonly df2: number;
}

const REF = await referenceJson<{
  x: number[][];
  y: number[];
  pairs: PairReference[];
  joint: JointReference;
  beta: number[];
  amce: number[];
  resid: { count: number; n: number; mean: number; sd: number | null }[];
  clustered: { se: number; f: number; p: number; df2: number }[];
  joint_cr1: JointReference;
}>("infer_diagnostics");

/** 0/1 design, 120 rows x 4 columns (a, b, c, d), row-major. */
const X = REF.x.flat().join("");
const Y = REF.y;
const PAIRS = REF.pairs;
const JOINT = REF.joint;
const BETA = REF.beta;
const AMCE = REF.amce;
const RESID = REF.resid;
const CLUSTERED = REF.clustered;
const JOINT_CR1 = REF.joint_cr1;

function dataset(): PairedDataset {
  const n = Y.length;
  const y = Float64Array.from(Y);
  return {
    baseline: { run_id: "bare", run_dir: "bare", sha256: "" },
    gates: [],
    columns: ["a", "b", "c", "d"].map((id) => ({
      version_id: id,
      slot_id: id,
      chunk_id: id,
      role: "add" as const,
    })),
    metrics: ["reward"],
    n,
    k: 4,
    design: Uint8Array.from(X, (ch) => Number(ch)),
    masked: { reward: y },
    bare: { reward: new Float64Array(n) },
    delta: { reward: y },
    episodes: [],
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from({ length: n }, (_, i) => i),
    clusterCount: n,
  };
}

const close = (a: number | null | undefined, b: number, tol = 1e-10) =>
  ok(
    a !== null && a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)),
    `${a} vs ${b}`,
  );

Deno.test("diagnostics: per-pair HC3 Wald F, p-values and Holm match statsmodels", () => {
  const screen = interactionScreen(dataset());
  deepEqual(screen.pairs.length, 6);
  screen.pairs.forEach((got, i) => {
    const ref = PAIRS[i]!;
    deepEqual([got.a, got.b], [ref.a, ref.b]);
    close(got.gamma, ref.gamma);
    close(got.se, ref.se);
    close(got.f, ref.f);
    close(got.p_value, ref.p, 1e-10);
    close(got.p_holm, ref.holm, 1e-10);
  });
  // The planted interaction is the one flagged.
  deepEqual(screen.flagged, ["a x b"]);
});

Deno.test("diagnostics: joint HC3 F test of all products matches statsmodels f_test", () => {
  const joint = interactionScreen(dataset()).joint!;
  close(joint.f, JOINT.f);
  close(joint.p_value, JOINT.p, 1e-10);
  deepEqual([joint.df1, joint.df2], [JOINT.df1, JOINT.df2]);
});

Deno.test("diagnostics: AMCE beside beta and residuals by count match numpy", () => {
  const rows = amceTable(dataset());
  rows.forEach((r, j) => {
    close(r.beta, BETA[j]!);
    close(r.amce, AMCE[j]!);
    close(r.gap, BETA[j]! - AMCE[j]!);
  });
  const byCount = residualsByCount(dataset());
  deepEqual(byCount.map((r) => [r.count, r.n]), RESID.map((r) => [r.count, r.n]));
  byCount.forEach((r, i) => {
    close(r.mean, RESID[i]!.mean);
    close(r.sd, RESID[i]!.sd!);
  });
});

Deno.test("diagnostics: versions of one slot are never paired; a never co-occurring pair is not testable", () => {
  const d = dataset();
  const columns = [...d.columns];
  columns[3] = { version_id: "d", slot_id: "c", chunk_id: "d", role: "add" }; // c and d share a slot
  const design = Uint8Array.from(d.design);
  for (let i = 0; i < d.n; i++) if (design[i * 4 + 2] && design[i * 4 + 3]) design[i * 4 + 3] = 0;
  const screen = interactionScreen({ ...d, columns, design });
  ok(!screen.pairs.some((p) => p.a === "c" && p.b === "d"));
  deepEqual(screen.pairs.length, 5);
});

Deno.test("diagnostics: pooled rows use CR1 clustered by task with df2 = tasks - 1, as statsmodels cov_type=cluster", () => {
  const d = dataset();
  const pooled = {
    ...d,
    cluster: Int32Array.from({ length: d.n }, (_, i) => Math.floor(i / 2)),
    clusterCount: d.n / 2,
  };
  const screen = interactionScreen(pooled);
  deepEqual([screen.covariance, screen.df2_rule], ["CR1", "clusters - 1"]);
  screen.pairs.forEach((got, i) => {
    close(got.se, CLUSTERED[i]!.se);
    close(got.f, CLUSTERED[i]!.f);
    close(got.p_value, CLUSTERED[i]!.p, 1e-10);
  });
  const joint = screen.joint!;
  close(joint.f, JOINT_CR1.f);
  close(joint.p_value, JOINT_CR1.p, 1e-10);
  deepEqual([joint.df1, joint.df2], [JOINT_CR1.df1, JOINT_CR1.df2]);
  deepEqual(interactionScreen(pooled, { covariance: "hc3" }).covariance, "HC3");
});

Deno.test("diagnostics: leverage-1 rows leave testable pairs testable, with statsmodels' numbers", async () => {
  // tests/data/reference/infer_leverage_one.json: python3 scripts/reference/infer_leverage_one.py. Row 0
  // is the only row with `lone` (leverage 1 in every model); c and d co-occur in one row only (the
  // c x d product gives that row leverage 1, so its HC3 is 0/0). statsmodels on the data without
  // row 0 and `lone` (which leaves every other number unchanged) gives the five testable pairs and
  // the joint test; gatelab must match it on the full data, to 1e-10.
  const ref = JSON.parse(
    await Deno.readTextFile(new URL("./data/reference/infer_leverage_one.json", import.meta.url)),
  );
  const n = ref.y.length, k = 5;
  const y = Float64Array.from(ref.y as number[]);
  const d: PairedDataset = {
    ...dataset(),
    columns: (ref.columns as string[]).map((id) => ({
      version_id: id,
      slot_id: id,
      chunk_id: id,
      role: "add" as const,
    })),
    n,
    k,
    design: Uint8Array.from((ref.x as number[][]).flat()),
    masked: { reward: y },
    bare: { reward: new Float64Array(n) },
    delta: { reward: y },
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from({ length: n }, (_, i) => i),
    clusterCount: n,
  };
  const screen = interactionScreen(d, { covariance: "hc3" });
  const byName = new Map(screen.pairs.map((p) => [`${p.a} x ${p.b}`, p]));
  deepEqual(
    screen.pairs.filter((p) => p.testable).map((p) => `${p.a} x ${p.b}`),
    ["a x b", "a x c", "a x d", "b x c", "b x d"],
  );
  deepEqual(byName.get("c x d")!.n_both, 1);
  deepEqual([byName.get("c x d")!.testable, byName.get("c x d")!.se], [false, null]);
  for (const r of ref.pairs) {
    const got = byName.get(`${r.a} x ${r.b}`)!;
    close(got.gamma, r.gamma, 1e-10);
    close(got.se, r.se, 1e-10);
    close(got.f, r.f, 1e-10);
    close(got.p_value, r.p, 1e-10);
    close(got.p_holm, r.holm, 1e-10);
  }
  const joint = screen.joint!;
  close(joint.f, ref.joint.f, 1e-10);
  close(joint.p_value, ref.joint.p, 1e-10);
  deepEqual([joint.pairs, joint.df1, joint.df2], [5, ref.joint.df1, ref.joint.df2]);
});

Deno.test("diagnostics: with pooled rows the AMCE standard error is CR1 by task, as statsmodels", async () => {
  // tests/data/reference/amce_cluster.json: python3 scripts/reference/amce_cluster.py (statsmodels
  // OLS on [present, slot absent], cov_type="cluster" by task, t_test([1, -1]).sd), on the pooled
  // fixture of tests/infer_fixture.ts (30 rows, 24 tasks).
  const ref = JSON.parse(
    await Deno.readTextFile(new URL("./data/reference/amce_cluster.json", import.meta.url)),
  );
  const rows = amceTable(bootstrapFixture());
  deepEqual(
    rows.map((r) => r.version_id),
    ref.amce.map((r: { version_id: string }) => r.version_id),
  );
  rows.forEach((got, j) => {
    const r = ref.amce[j];
    deepEqual([got.n_present, got.n_slot_absent], [r.n_present, r.n_slot_absent]);
    close(got.amce, r.amce, 1e-12);
    close(got.amce_se, r.amce_se, 1e-10);
  });
});
