/**
 * lib/fit against statsmodels. Reference numbers in tests/data/fit_reference.json
 * were made once with
 *   python3 scripts/reference/fit_ols_statsmodels.py > tests/data/fit_reference.json
 * (statsmodels 0.15.0, numpy 2.4.6): OLS(y, X) without constant, fit with
 * cov_type HC0..HC3 and cov_type="cluster" (groups = task; the script asserts
 * this is CR1 = G/(G-1) x (N-1)/(N-K) and that p-values are normal).
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { COV_TYPES, erfc, factorDesign, fitOls, normalTwoSidedP } from "../lib/fit/mod.ts";
import { GatelabError } from "../lib/core/issue.ts";

interface SmMetric {
  hc0: { bse: (number | null)[]; pvalues: (number | null)[] };
  hc1: { bse: (number | null)[]; pvalues: (number | null)[] };
  hc2: { bse: (number | null)[]; pvalues: (number | null)[] };
  hc3: { bse: (number | null)[]; pvalues: (number | null)[] };
  cluster: { bse: number[]; pvalues: number[] };
  params: number[];
  ssr: number;
  scale: number;
  rsquared_uncentered: number;
  df_resid: number;
  leverage: number[];
}
interface Fixture {
  X: number[][];
  y: Record<string, number[]>;
  groups: number[];
  statsmodels: Record<string, SmMetric>;
}
const reference = JSON.parse(
  await Deno.readTextFile(new URL("./data/fit_reference.json", import.meta.url)),
) as { fixtures: Record<string, Fixture> };

function close(actual: number, expected: number, rel = 1e-10, label = ""): void {
  const scale = Math.max(Math.abs(expected), 1e-300);
  ok(
    Math.abs(actual - expected) <= rel * scale,
    `${label}: ${actual} differs from ${expected} (rel ${Math.abs(actual - expected) / scale})`,
  );
}

function setUp(fx: Fixture) {
  const n = fx.X.length;
  const k = fx.X[0]!.length;
  const design = Uint8Array.from(fx.X.flat());
  const groups = Int32Array.from(fx.groups);
  const clusterCount = new Set(fx.groups).size;
  return { n, k, f: factorDesign(design, [n, k]), groups, clusterCount };
}

Deno.test("fit: pooled fixture matches statsmodels OLS, HC0-HC3 and CR1 to 1e-10", () => {
  const fx = reference.fixtures.pooled!;
  const { k, f, groups, clusterCount } = setUp(fx);
  for (const [metric, sm] of Object.entries(fx.statsmodels)) {
    for (const covType of COV_TYPES) {
      const fit = fitOls(f, fx.y[metric]!, { covType, cluster: groups, clusterCount });
      for (let j = 0; j < k; j++) {
        close(fit.coefficients[j]!, sm.params[j]!, 1e-10, `${metric} beta ${j}`);
        close(fit.seRobust[j]!, sm[covType].bse[j]!, 1e-10, `${metric} ${covType} se ${j}`);
        close(fit.p[j]!, sm[covType].pvalues[j]!, 1e-9, `${metric} ${covType} p ${j}`);
        close(fit.seHc3[j]!, sm.hc3.bse[j]!, 1e-10, `${metric} hc3 se ${j}`);
        close(fit.seCluster[j]!, sm.cluster.bse[j]!, 1e-10, `${metric} cluster se ${j}`);
        close(fit.pCluster[j]!, sm.cluster.pvalues[j]!, 1e-9, `${metric} cluster p ${j}`);
      }
      close(fit.ssr, sm.ssr, 1e-10, "ssr");
      close(fit.residSe, Math.sqrt(sm.scale), 1e-10, "resid se");
      close(fit.r2Uncentered, sm.rsquared_uncentered, 1e-10, "r2");
      deepEqual(fit.dfResid, sm.df_resid);
      deepEqual(fit.leverageOneRows, []);
    }
  }
  for (let i = 0; i < fx.X.length; i++) {
    close(f.leverage[i]!, fx.statsmodels.reward!.leverage[i]!, 1e-10, `leverage ${i}`);
  }
});

Deno.test("fit: a leverage-1 row nulls exactly the HC2/HC3 errors it determines", () => {
  const fx = reference.fixtures.leverage_one!;
  const { f, groups, clusterCount } = setUp(fx);
  const sm = fx.statsmodels.reward!;
  const y = fx.y.reward!;
  const hc3 = fitOls(f, y, { cluster: groups, clusterCount });
  deepEqual(hc3.leverageOneRows, [6]);
  deepEqual(hc3.hc3UndefinedColumns, [2]);
  ok(Number.isNaN(hc3.seHc3[2]!) && Number.isNaN(hc3.p[2]!));
  // Unaffected coefficients still agree with statsmodels' HC3.
  close(hc3.seHc3[0]!, sm.hc3.bse[0]!, 1e-10, "hc3 0");
  close(hc3.seHc3[1]!, sm.hc3.bse[1]!, 1e-10, "hc3 1");
  const hc2 = fitOls(f, y, { covType: "hc2" });
  ok(Number.isNaN(hc2.seRobust[2]!));
  close(hc2.seRobust[0]!, sm.hc2.bse[0]!, 1e-10, "hc2 0");
  // The column the leverage-1 row determines has no variance of any kind (issue 31, item 12:
  // statsmodels' HC0/HC1/CR1 numbers for it use the row's forced zero residual); the others'
  // HC0, HC1 and CR1 agree with statsmodels.
  deepEqual(hc3.varianceUndefinedColumns, [2]);
  ok(Number.isNaN(hc3.seCluster[2]!) && Number.isNaN(hc3.pCluster[2]!));
  for (const covType of ["hc0", "hc1"] as const) {
    const fit = fitOls(f, y, { covType, cluster: groups, clusterCount });
    ok(Number.isNaN(fit.seRobust[2]!) && Number.isNaN(fit.p[2]!), covType);
    for (let j = 0; j < 2; j++) {
      close(fit.seRobust[j]!, sm[covType].bse[j]!, 1e-10, `${covType} ${j}`);
    }
  }
  for (let j = 0; j < 2; j++) close(hc3.seCluster[j]!, sm.cluster.bse[j]!, 1e-10, `cr1 ${j}`);
  for (let j = 0; j < 3; j++) close(hc3.coefficients[j]!, sm.params[j]!, 1e-10, `beta ${j}`);
});

Deno.test("fit: rank-deficient designs are refused with not_identifiable, never given an intercept", () => {
  // Column 2 = column 0 + column 1 (a REWRITE slot whose versions always sum to a third column).
  const design = Uint8Array.from([1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0]);
  const error = (() => {
    try {
      factorDesign(design, [4, 3]);
    } catch (e) {
      return e;
    }
  })();
  ok(error instanceof GatelabError);
  deepEqual(error.issues[0]!.code, "not_identifiable");
  ok(/rank 2 of 3/.test(error.issues[0]!.message));
  throws(() => factorDesign(Uint8Array.from([1, 0, 0, 0]), [2, 2]), /rank 1 of 2/);
  throws(() => factorDesign(Uint8Array.from([1, 1]), [1, 2]), /fewer than 2 columns/);
});

Deno.test("fit: an all-ones column is fitted as is (no intercept added) and the all-zero row counts", () => {
  // Rows: all-zero mask is a real observation with its own delta.
  const design = Uint8Array.from([1, 1, 1, 0, 1, 1, 0, 0]);
  const y = Float64Array.from([0.4, 0.1, 0.3, 0.2]);
  const f = factorDesign(design, [4, 2]);
  const fit = fitOls(f, y);
  // Normal equations by hand: X'X = [[3,2],[2,2]], X'y = [0.8,0.7] -> b = [0.1, 0.25].
  close(fit.coefficients[0]!, 0.1, 1e-12, "b0");
  close(fit.coefficients[1]!, 0.25, 1e-12, "b1");
  deepEqual(fit.n, 4);
  // The zero row's residual is its delta, untouched.
  close(fit.residuals[3]!, 0.2, 1e-12, "zero-row residual");
});

Deno.test("fit: fewer than two clusters leave se_cluster undefined (NaN), not infinite", () => {
  const f = factorDesign(Uint8Array.from([1, 0, 1, 1, 0, 1]), [3, 2]);
  const fit = fitOls(f, [0.1, 0.2, 0.4], { cluster: [0, 0, 0], clusterCount: 1 });
  ok(fit.seCluster.every(Number.isNaN));
});

Deno.test("fit: normal p-values match scipy 2*norm.sf", () => {
  // python3 -c "from scipy.stats import norm; print([2*norm.sf(z) for z in (0.5, 1.0, 2.5, 4.0, 8.0)])"
  const expected = [
    0.6170750774519738,
    0.31731050786291415,
    0.012419330651552265,
    6.334248366623973e-05,
    1.244192114854348e-15,
  ];
  [0.5, 1.0, 2.5, 4.0, 8.0].forEach((z, i) =>
    close(normalTwoSidedP(z), expected[i]!, 1e-13, `z=${z}`)
  );
  close(erfc(-1), 2 - 0.15729920705028513, 1e-15, "erfc(-1)");
});

Deno.test("fit: coefficients solve the normal equations for random 0/1 designs (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (k, seed) => {
        const n = 6 * k + 4;
        let s = seed;
        const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
        const design = new Uint8Array(n * k);
        for (let i = 0; i < n * k; i++) design[i] = rand() < 0.5 ? 1 : 0;
        for (let j = 0; j < k; j++) design[j * k + j] = 1; // every column present
        const y = Float64Array.from({ length: n }, () => rand() - 0.5);
        let f;
        try {
          f = factorDesign(design, [n, k]);
        } catch {
          return true; // rank deficient draw: refusal is the documented behaviour
        }
        const fit = fitOls(f, y);
        // X'e = 0
        for (let j = 0; j < k; j++) {
          let dot = 0;
          for (let i = 0; i < n; i++) dot += design[i * k + j]! * fit.residuals[i]!;
          if (Math.abs(dot) > 1e-10) return false;
        }
        return true;
      },
    ),
    { numRuns: 200 },
  );
});
