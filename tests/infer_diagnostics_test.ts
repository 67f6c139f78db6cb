/**
 * Misfit diagnostics (lib/infer/diagnostics.ts) against statsmodels 0.15:
 * `python3 scripts/reference/infer_diagnostics.py` fits the same 120-row
 * fixture with OLS(cov_type="HC3") (and cov_type="cluster" for CR1) and runs wald_test / f_test and
 * multipletests(method="holm"); its output is pasted below unchanged.
 */
import { deepEqual, ok } from "node:assert/strict";
import type { PairedDataset } from "../lib/core/types.ts";
import { amceTable, interactionScreen, residualsByCount } from "../lib/infer/diagnostics.ts";

/** 0/1 design, 120 rows x 4 columns (a, b, c, d), row-major. */
const X =
  "000101010001100100100001110011000010101100111110010100011101100110110011001010001011100011111101000011010010111100001100100100001100010010101010000010100101001000011111000000101001010101111001010100000001000000101011101101000000100011101010101110110100101110011110001110000000100000111100000000010011100101111010010100101000101100100101001111001110101010010000001010110001101011010100110110111000010010000111100101001110011100001011000110111001101100010100100111011100000111010000";
const Y = [
  -0.006425,
  0.112421,
  0.105638,
  0.08555,
  0.087204,
  0.123636,
  0.273159,
  0.159753,
  0.11971,
  0.163546,
  -0.163938,
  0.099505,
  0.020134,
  0.113629,
  0.358278,
  0.065763,
  0.07871,
  0.064943,
  -0.132691,
  0.096722,
  0.035026,
  0.064426,
  0.225846,
  0.165302,
  -0.079779,
  0.263223,
  -0.019706,
  0.208869,
  0.084993,
  0.191297,
  -0.0074,
  -0.027656,
  0.205972,
  0.009509,
  0.113083,
  0.060864,
  0.084382,
  0.069955,
  0.046889,
  0.053121,
  0.019305,
  0.250072,
  -0.07988,
  -0.021621,
  0.064361,
  0.090131,
  0.175755,
  0.280196,
  0.142052,
  -0.00176,
  0.106663,
  0.019006,
  -0.077952,
  0.055647,
  0.040682,
  -0.027637,
  0.111164,
  0.007498,
  0.15097,
  0.077028,
  0.005196,
  -0.031226,
  -0.047318,
  0.099357,
  0.120932,
  0.214768,
  -0.026283,
  -0.022173,
  0.073479,
  -0.064733,
  -0.00601,
  0.114975,
  -0.031436,
  0.028878,
  0.109373,
  -0.138233,
  0.140572,
  -0.049448,
  0.085023,
  0.035951,
  -0.0096,
  0.05461,
  0.011157,
  0.051884,
  -0.047065,
  0.237022,
  0.200779,
  -0.097831,
  0.200865,
  0.020331,
  -0.22145,
  -0.004036,
  0.180077,
  0.149575,
  0.284247,
  -0.112125,
  0.243702,
  0.147531,
  0.084339,
  -0.003753,
  -0.005971,
  0.099053,
  0.076077,
  0.04901,
  0.232542,
  0.164415,
  0.017945,
  0.084006,
  -0.099721,
  0.152295,
  0.164451,
  0.062187,
  -0.138502,
  -0.02178,
  0.099365,
  0.431197,
  0.270561,
  0.106818,
  0.328939,
  0.110147,
];
const PAIRS = [
  {
    "a": "a",
    "b": "b",
    "gamma": 0.15439715959884504,
    "se": 0.02756228736782395,
    "f": 31.379650350752502,
    "p": 1.4701436059458593e-07,
    "df2": 115.0,
    "holm": 8.820861635675156e-07,
  },
  {
    "a": "a",
    "b": "c",
    "gamma": -0.012002114780469426,
    "se": 0.03081427815799535,
    "f": 0.1517090728904211,
    "p": 0.6976277866406422,
    "df2": 115.0,
    "holm": 1.0,
  },
  {
    "a": "a",
    "b": "d",
    "gamma": 0.022293629045019508,
    "se": 0.030270663802159238,
    "f": 0.5423974654901664,
    "p": 0.46294055199207285,
    "df2": 115.0,
    "holm": 1.0,
  },
  {
    "a": "b",
    "b": "c",
    "gamma": 0.06247233038327784,
    "se": 0.028037465779653412,
    "f": 4.964755894572166,
    "p": 0.027813946869609158,
    "df2": 115.0,
    "holm": 0.1390697343480458,
  },
  {
    "a": "b",
    "b": "d",
    "gamma": 0.06954677824000655,
    "se": 0.03412219268428358,
    "f": 4.154130829610066,
    "p": 0.04382714166367116,
    "df2": 115.0,
    "holm": 0.17530856665468464,
  },
  {
    "a": "c",
    "b": "d",
    "gamma": -0.01799544379565309,
    "se": 0.029964406552209093,
    "f": 0.3606731071473499,
    "p": 0.5493143949363744,
    "df2": 115.0,
    "holm": 1.0,
  },
];
const JOINT = { "f": 7.390112947598737, "p": 1.1701893497689518e-06, "df1": 6.0, "df2": 110.0 };
const BETA = [0.07893260077526179, 0.09811411551466476, -0.02433856222054804, 0.034104471857344054];
const AMCE = [0.09437581757508341, 0.11419448749999998, -0.018259959758551297, 0.05100872180451126];
const RESID = [
  {
    "count": 0,
    "n": 13,
    "mean": 0.023148923076923074,
    "sd": 0.06637332891739667,
  },
  {
    "count": 1,
    "n": 36,
    "mean": -0.02999694952861255,
    "sd": 0.09766466333521899,
  },
  {
    "count": 2,
    "n": 38,
    "mean": -0.015304543481473271,
    "sd": 0.08491140804462634,
  },
  {
    "count": 3,
    "n": 30,
    "mean": 0.01939598887491869,
    "sd": 0.07419239028050345,
  },
  {
    "count": 4,
    "n": 3,
    "mean": 0.04144970740661077,
    "sd": 0.020707505941888166,
  },
];

const CLUSTERED = [
  {
    "se": 0.02819337611083241,
    "f": 29.990550861024804,
    "p": 9.381857850656717e-07,
    "df2": 59.0,
  },
  {
    "se": 0.026336403913894253,
    "f": 0.20768379118056626,
    "p": 0.650261819096511,
    "df2": 59.0,
  },
  {
    "se": 0.030957356067371038,
    "f": 0.5186015566364751,
    "p": 0.47428221906945517,
    "df2": 59.0,
  },
  {
    "se": 0.026557053515685623,
    "f": 5.53370031568247,
    "p": 0.022009183780235603,
    "df2": 59.0,
  },
  {
    "se": 0.03472405004014628,
    "f": 4.01137520134197,
    "p": 0.04979574026584351,
    "df2": 59.0,
  },
  {
    "se": 0.027660170377677398,
    "f": 0.42326798549763384,
    "p": 0.5178365143207243,
    "df2": 59.0,
  },
];
const JOINT_CR1 = { "f": 7.421958903176453, "p": 6.051674608837375e-06, "df1": 6.0, "df2": 59.0 };

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

const close = (a: number | null | undefined, b: number, tol = 1e-9) =>
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
    close(got.p_value, ref.p, 1e-7);
    close(got.p_holm, ref.holm, 1e-7);
  });
  // The planted interaction is the one flagged.
  deepEqual(screen.flagged, ["a x b"]);
});

Deno.test("diagnostics: joint HC3 F test of all products matches statsmodels f_test", () => {
  const joint = interactionScreen(dataset()).joint!;
  close(joint.f, JOINT.f);
  close(joint.p_value, JOINT.p, 1e-7);
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
    close(got.p_value, CLUSTERED[i]!.p, 1e-7);
  });
  const joint = screen.joint!;
  close(joint.f, JOINT_CR1.f);
  close(joint.p_value, JOINT_CR1.p, 1e-7);
  deepEqual([joint.df1, joint.df2], [JOINT_CR1.df1, JOINT_CR1.df2]);
  deepEqual(interactionScreen(pooled, { covariance: "hc3" }).covariance, "HC3");
});
