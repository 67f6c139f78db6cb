/**
 * Task bootstrap (lib/infer/bootstrap/bootstrap.ts) against an independent reference:
 * `python3 scripts/reference/infer_bootstrap.py` (numpy 2.4, scipy 1.17)
 * copies the rows of the drawn tasks and refits with numpy.linalg.lstsq,
 * drawing tasks with the independent Python xoshiro128** in the documented
 * order; it writes tests/data/reference/infer_bootstrap.json (through
 * scripts/reference/regenerate.sh), read here.
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { createPrng } from "../lib/math/prng.ts";
import { bootstrapFixture as dataset } from "./infer_fixture.ts";
import { referenceJson } from "./reference_data.ts";
import {
  bootstrapDataset,
  bootstrapToJson,
  selectionStability,
} from "../lib/infer/bootstrap/bootstrap.ts";
import { selectVersions } from "../lib/select/select.ts";
import { FastStream } from "../lib/infer/bootstrap/_fast_stream.ts";
import { buildClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import {
  bootstrapKernel,
  kernelWorkspace,
  solveWeighted,
} from "../lib/infer/bootstrap/bootstrap_kernel.ts";

interface CoefficientReference {
  readonly estimate: number;
  readonly se: number;
  readonly ci: number[];
  readonly bca: number[];
}

const REF = await referenceJson<{
  summary: Record<string, Record<string, CoefficientReference>>;
  first_draws_reward: number[][];
  stability_k1: { point: string[]; freq: Record<string, number>; set_equal: number };
}>("infer_bootstrap");
const REFERENCE = REF.summary;
const FIRST_DRAWS_REWARD = REF.first_draws_reward;
const STABILITY_K1 = REF.stability_k1;

const close = (a: number | null | undefined, b: number, tol = 1e-10) =>
  ok(
    a !== null && a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)),
    `${a} vs ${b}`,
  );

Deno.test("bootstrap: draws, se (ddof 1), percentile and BCa intervals match the numpy reference", () => {
  const result = bootstrapDataset(dataset(), { draws: 400, seed: 11, budgetK: 1, interval: "bca" });
  for (let d = 0; d < 3; d++) {
    for (let j = 0; j < 3; j++) {
      close(result.kernel.coefficients[(d * 2) * 3 + j]!, FIRST_DRAWS_REWARD[d]![j]!);
    }
  }
  for (const [metric, perVersion] of Object.entries(REFERENCE)) {
    for (const [id, ref] of Object.entries(perVersion)) {
      const got = result.metrics[metric]!.coefficients[id]!;
      close(got.estimate, ref.estimate);
      close(got.se_bootstrap, ref.se);
      close(got.ci_percentile![0], ref.ci[0]!);
      close(got.ci_percentile![1], ref.ci[1]!);
      close(got.ci![0], ref.bca[0]!);
      close(got.ci![1], ref.bca[1]!);
      deepEqual(got.draws_used, 400);
    }
  }
  deepEqual(result.degenerate.singular_draws, 0);
});

Deno.test("bootstrap: selection stability matches the reference rule on the same draws", () => {
  const s = bootstrapDataset(dataset(), { draws: 400, seed: 11, budgetK: 1 }).stability!;
  deepEqual([...s.point_selection].sort(), STABILITY_K1.point);
  close(s.set_equal_frequency, STABILITY_K1.set_equal);
  for (const v of s.versions) close(v.selected_frequency, STABILITY_K1.freq[v.version_id]!);
  // A rewrite loser has no rank in a draw; the family's two shares add up to at most 1.
  const old = s.versions.find((v) => v.version_id === "s@old")!;
  const neu = s.versions.find((v) => v.version_id === "s@new")!;
  close(old.rewrite_loser_frequency + neu.rewrite_loser_frequency, 1);
});

Deno.test("bootstrap: the fast stream equals createPrng call for call", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 1, max: 5000 }),
      (seed, g) => {
        const slow = createPrng(seed);
        const counts = new Int32Array(g);
        for (let t = 0; t < g; t++) {
          const i = slow.nextInt(g);
          counts[i] = counts[i]! + 1;
        }
        const fast = new FastStream(seed);
        const got = new Int32Array(g);
        fast.drawCounts(got);
        deepEqual(got, counts);
        deepEqual(fast.nextUint32(), slow.nextUint32());
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("bootstrap: a column absent from a draw is counted, not dropped; others are solved", () => {
  // Column b is present in one task only: draws that miss it leave b missing.
  const design = Uint8Array.from([1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0]);
  const y = Float64Array.from([0.1, 0.2, 0.15, 0.5, 0, 0.12]);
  const sums = buildClusterSums(design, [y], Int32Array.from([0, 1, 2, 3, 4, 5]), {
    k: 2,
    clusterCount: 6,
  });
  const r = bootstrapKernel(sums, { draws: 300, seed: 3 });
  let absent = 0;
  for (let d = 0; d < 300; d++) {
    const b = r.coefficients[d * 2 + 1]!;
    if (r.status[d] === 1) {
      absent++;
      ok(Number.isNaN(b) && Number.isFinite(r.coefficients[d * 2]!));
    }
  }
  // P(task 3 never drawn) = (5/6)^6 = 0.33: expect roughly 100 of 300.
  ok(absent > 60 && absent < 140, `absent ${absent}`);
});

Deno.test("bootstrap: same seed same result; the JSON drops raw draws and records conventions", () => {
  const a = bootstrapToJson(bootstrapDataset(dataset(), { draws: 50, seed: 5 }));
  const b = bootstrapToJson(bootstrapDataset(dataset(), { draws: 50, seed: 5 }));
  deepEqual(JSON.stringify(a), JSON.stringify(b));
  ok(!("kernel" in a));
  deepEqual([a.draws, a.seed, a.se_ddof, a.interval], [50, 5, 1, "percentile"]);
  ok(a.quantile_rule.includes("floor(q*(B-1))"));
  throws(
    () => bootstrapDataset(dataset(), { draws: 0, seed: 1 }),
    /draws must be a positive integer/,
  );
  throws(
    () => bootstrapDataset(dataset(), { seed: 1, metrics: ["nope"] }),
    /Cannot bootstrap metric "nope"/,
  );
});

Deno.test("bootstrap: gathered kernel equals a direct weighted solve on counts drawn from createPrng (random pooled designs)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 6 }),
      fc.integer({ min: 8, max: 30 }),
      fc.integer({ min: 0, max: 1000 }),
      (k, g, seed) => {
        const data = createPrng(seed + 1);
        const rowsPerTask = Array.from({ length: g }, () => 1 + data.nextInt(2));
        const n = rowsPerTask.reduce((a, b) => a + b, 0);
        const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.6 ? 1 : 0));
        const y1 = Float64Array.from({ length: n }, () => data.nextFloat());
        const y2 = Float64Array.from({ length: n }, () => data.nextFloat() - 0.5);
        const cluster = Int32Array.from(rowsPerTask.flatMap((r, t) => Array(r).fill(t)));
        const sums = buildClusterSums(design, [y1, y2], cluster, { k, clusterCount: g });
        const draws = 7;
        const fast = bootstrapKernel(sums, { draws, seed });
        const prng = createPrng(seed);
        const out = new Float64Array(2 * k);
        const work = kernelWorkspace(k);
        for (let d = 0; d < draws; d++) {
          const counts = new Int32Array(g);
          for (let t = 0; t < g; t++) {
            const i = prng.nextInt(g);
            counts[i] = counts[i]! + 1;
          }
          const status = solveWeighted(sums, counts, out, 0, work);
          deepEqual(fast.status[d], status === "ok" ? 0 : status === "absent" ? 1 : 2);
          for (let t = 0; t < 2 * k; t++) {
            const a = fast.coefficients[d * 2 * k + t]!, b = out[t]!;
            ok(
              Number.isNaN(a)
                ? Number.isNaN(b)
                : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)),
              `${a} vs ${b}`,
            );
          }
        }
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("bootstrap: the point selection of the stability block equals lib/select selectVersions", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
      fc.integer({ min: 0, max: 3 }),
      (alpha, budgetK) => {
        const d = dataset();
        const kernel = {
          draws: 1,
          k: 3,
          metricCount: 1,
          coefficients: Float64Array.from(alpha),
          status: new Uint8Array(1),
        };
        const s = selectionStability(d.columns, kernel, 0, alpha, { metric: "reward", budgetK });
        deepEqual(s.point_selection, selectVersions(d.columns, alpha, budgetK).selected);
        deepEqual(s.set_equal_frequency, 1);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("bootstrap: large designs (tasks x rows >= 2^13) take the unpacked path with the same numbers", () => {
  const g = 4100, k = 3;
  const data = createPrng(77);
  const n = 2 * g; // two pooled rows per task
  const design = Uint8Array.from({ length: n * k }, () => (data.nextFloat() < 0.5 ? 1 : 0));
  const y = Float64Array.from({ length: n }, () => data.nextFloat());
  const cluster = Int32Array.from({ length: n }, (_, i) => i >> 1);
  const sums = buildClusterSums(design, [y], cluster, { k, clusterCount: g });
  const fast = bootstrapKernel(sums, { draws: 3, seed: 8 });
  const prng = createPrng(8);
  const out = new Float64Array(k);
  const work = kernelWorkspace(k);
  for (let d = 0; d < 3; d++) {
    const counts = new Int32Array(g);
    for (let t = 0; t < g; t++) {
      const i = prng.nextInt(g);
      counts[i] = counts[i]! + 1;
    }
    deepEqual(solveWeighted(sums, counts, out, 0, work), "ok");
    for (let j = 0; j < k; j++) {
      ok(
        Math.abs(fast.coefficients[d * k + j]! - out[j]!) < 1e-10,
        `${fast.coefficients[d * k + j]} vs ${out[j]}`,
      );
    }
  }
});
