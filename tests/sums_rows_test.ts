/**
 * Rows standing for a sums table (lib/analyze/sums_rows.ts): tasks of
 * several rows (up to 5, 8 versions, random masks, some rows with no
 * version present) are split into masks whose per-task X'X equals the
 * table's exactly and whose X'y equals it to rounding, and the bootstrap
 * on them draws the coefficients of the bootstrap on the true rows within
 * 1e-12 (the true rows are the reference: the table is made from them).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { splitGram, sumsRows } from "../lib/analyze/sums_rows.ts";
import type { SumsTable } from "../lib/analyze/sums_read.ts";
import { datasetClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapDataset } from "../lib/infer/bootstrap/bootstrap.ts";
import { packedIndex, packedSize } from "../lib/math/packed.ts";
import { createPrng } from "../lib/math/prng.ts";
import type { PairedDataset } from "../lib/core/types.ts";

/** A random dataset of `g` tasks of 1 to 5 rows, and the sums table of it. */
function randomData(g: number, k: number, seed: number): { rows: PairedDataset; table: SumsTable } {
  const rng = createPrng(seed);
  const design: number[] = [], y: number[] = [], cluster: number[] = [];
  for (let t = 0; t < g; t++) {
    const r = 1 + rng.nextInt(5);
    for (let i = 0; i < r; i++) {
      for (let j = 0; j < k; j++) design.push(rng.nextInt(3) === 0 ? 1 : 0);
      y.push(rng.nextInt(1000) / 997 - 0.4);
      cluster.push(t);
    }
  }
  const n = y.length;
  const columns = Array.from({ length: k }, (_, j) => ({
    version_id: `c${j}.v1`,
    slot_id: `c${j}`,
    chunk_id: `c${j}`,
    role: "add" as const,
  }));
  const delta = Float64Array.from(y);
  const rows: PairedDataset = {
    baseline: { run_id: "b", run_dir: "b", sha256: "" },
    gates: [],
    columns,
    metrics: ["reward"],
    n,
    k,
    design: Uint8Array.from(design),
    masked: { reward: delta },
    bare: { reward: new Float64Array(n) },
    delta: { reward: delta },
    episodes: [],
    gateIndex: new Uint16Array(n),
    cluster: Int32Array.from(cluster),
    clusterCount: g,
  };
  const p = packedSize(k);
  const table = {
    file: "s.parquet",
    sha256: "",
    layout: { versions: columns.map((c) => c.version_id), metrics: ["reward"] },
    tasks: g,
    split: Array(g).fill("val"),
    taskId: Array.from({ length: g }, (_, t) => `t${t}`),
    rows: new Float64Array(g),
    firstRow: new Float64Array(g),
    xtx: Array.from({ length: p }, () => new Float64Array(g)),
    xty: Array.from({ length: k }, () => new Float64Array(g)),
    yty: [new Float64Array(g)],
    ySum: [new Float64Array(g)],
  };
  for (let i = 0; i < n; i++) {
    const t = cluster[i]!;
    table.rows[t] = table.rows[t]! + 1;
    table.ySum[0]![t] = table.ySum[0]![t]! + y[i]!;
    table.yty[0]![t] = table.yty[0]![t]! + y[i]! * y[i]!;
    for (let a = 0; a < k; a++) {
      if (!design[i * k + a]) continue;
      table.xty[a]![t] = table.xty[a]![t]! + y[i]!;
      for (let b = a; b < k; b++) {
        if (design[i * k + b]) table.xtx[packedIndex(k, a, b)]![t]! += 1;
      }
    }
  }
  return { rows, table };
}

Deno.test("sums rows: tasks of several rows split into masks with the same X'X and X'y", () => {
  const k = 8, g = 150;
  const { rows, table } = randomData(g, k, 17);
  const stand = sumsRows(table, rows.columns, { gate_id: "g", stage: "online", budget_k: 3 });
  if ("task" in stand) throw new Error(`task ${stand.task} not split`);
  equal(stand.clusterCount, g);
  const a = datasetClusterSums(rows), b = datasetClusterSums(stand);
  deepEqual([...b.xtx], [...a.xtx]);
  const dense = (s: typeof a, c: number) => {
    const out = new Float64Array(packedSize(k) + k);
    for (let e = s.pairStart[c]!; e < s.pairStart[c + 1]!; e++) {
      out[s.pairIndex[e]!] = s.pairValue[e]!;
    }
    for (let e = s.colStart[c]!; e < s.colStart[c + 1]!; e++) {
      out[packedSize(k) + s.colIndex[e]!] = s.colValue[e]!;
    }
    return out;
  };
  let xy = 0;
  for (let c = 0; c < g; c++) {
    const [da, db] = [dense(a, c), dense(b, c)];
    for (let q = 0; q < packedSize(k); q++) equal(db[q], da[q], `task ${c} X'X`);
    for (let j = 0; j < k; j++) {
      xy = Math.max(xy, Math.abs(db[packedSize(k) + j]! - da[packedSize(k) + j]!));
    }
    ok(stand.cluster.filter((x) => x === c).length <= table.rows[c]!, "at most the task's rows");
  }
  ok(xy <= 1e-12, `X'y differs by ${xy}`);
  const ra = bootstrapDataset(rows, { draws: 40, seed: 3, budgetK: 3 });
  const rb = bootstrapDataset(stand, { draws: 40, seed: 3, budgetK: 3 });
  deepEqual(rb.kernel.status, ra.kernel.status);
  let max = 0;
  ra.kernel.coefficients.forEach((
    v,
    i,
  ) => (max = Math.max(max, Math.abs(v - rb.kernel.coefficients[i]!))));
  ok(max <= 1e-12, `draws differ by ${max}`);
});

Deno.test("splitGram: a Gram matrix no 0/1 rows make is refused, not looped on", () => {
  // Diagonal 1, 1 and an off-diagonal 1 need the one row {0, 1}; with 0 off-diagonal, two rows.
  deepEqual(splitGram(Int32Array.from([1, 1, 1, 1]), 2, 1), [[1, 1]]);
  deepEqual(splitGram(Int32Array.from([1, 0, 0, 1]), 2, 1), null);
  deepEqual(splitGram(Int32Array.from([1, 0, 0, 1]), 2, 2), [[1, 0], [0, 1]]);
  // Pairwise products of three columns without a common row: {0,1}, {1,2}, {0,2} in 3 rows.
  const g = Int32Array.from([2, 1, 1, 1, 2, 1, 1, 1, 2]);
  const split = splitGram(g.slice(), 3, 3);
  ok(split !== null && split.length === 3);
  equal(splitGram(g.slice(), 3, 2), null);
});
