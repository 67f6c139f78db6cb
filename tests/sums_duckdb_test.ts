/**
 * The sums SQL (lib/analyze/sums_sql.ts) run by native DuckDB (Python
 * `duckdb`) over the tasks table of demo gate A and of the pooled online
 * rounds gives, per task, the row count, X_i'X_i, X_i'y_i, y_i'y_i and the
 * sum of y_i equal to gatelab's own per-task sums (lib/infer/bootstrap
 * `datasetClusterSums`, and the dataset's deltas for y'y and sum y) within
 * 1e-12; the counts exactly. The bootstrap on rows standing for those sums
 * (lib/analyze/sums_rows.ts) draws the row analysis's coefficients bit for
 * bit when every task is one row (gate A), and within 1e-12 when tasks
 * have two rows (the pooled rounds).
 *
 * Needs `python3` with `duckdb` and `deno` (the CLI writes the tasks table).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { readSumsTable } from "../lib/analyze/sums_read.ts";
import { sumsColumns } from "../lib/analyze/sums_analysis.ts";
import { sumsRows } from "../lib/analyze/sums_rows.ts";
import { datasetClusterSums } from "../lib/infer/bootstrap/cluster_sums.ts";
import { bootstrapDatasetOnCores } from "../lib/infer/bootstrap/bootstrap.ts";
import { packedIndex, packedSize } from "../lib/math/packed.ts";
import { validateGates } from "../lib/validate/validate_gates.ts";
import type { PairedDataset } from "../lib/core/types.ts";
import { DEMO } from "./gate_process.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { duckdbSums, rowTasks } from "./sums_fixture.ts";

const GATE_A = [join(DEMO, "ckpt-a", "gate-a")];
const ONLINE = [join(DEMO, "ckpt-b", "gate-online-r1"), join(DEMO, "ckpt-b", "gate-online-r2")];

/** The largest absolute difference between DuckDB's sums and gatelab's, per kind. */
function compare(
  dataset: PairedDataset,
  table: Awaited<ReturnType<typeof readSumsTable>>,
): { rows: number; xtx: number; xty: number; yty: number; y: number } {
  const sums = datasetClusterSums(dataset);
  const { k, metricCount: m, clusterCount: g } = sums;
  equal(table.tasks, g);
  deepEqual(table.layout.versions, dataset.columns.map((c) => c.version_id));
  const metricAt = table.layout.metrics.map((name) => dataset.metrics.indexOf(name));
  deepEqual([...metricAt].sort(), dataset.metrics.map((_, i) => i));
  // Tasks in gatelab's cluster order (first seen) are the sums table's first_row order.
  const firstSeen: string[] = new Array(g);
  for (let i = dataset.n - 1; i >= 0; i--) {
    const e = dataset.episodes[i]!;
    firstSeen[dataset.cluster[i]!] = `${e.split}/${e.task_id}`;
  }
  deepEqual(table.split.map((s, t) => `${s}/${table.taskId[t]}`), firstSeen);
  const p = packedSize(k);
  const diff = { rows: 0, xtx: 0, xty: 0, yty: 0, y: 0 };
  const yy = new Float64Array(g * m), ys = new Float64Array(g * m);
  dataset.metrics.forEach((name, mm) => {
    const d = dataset.delta[name]!;
    for (let i = 0; i < dataset.n; i++) {
      const c = dataset.cluster[i]!;
      yy[c * m + mm] = yy[c * m + mm]! + d[i]! * d[i]!;
      ys[c * m + mm] = ys[c * m + mm]! + d[i]!;
    }
  });
  for (let c = 0; c < g; c++) {
    diff.rows = Math.max(diff.rows, Math.abs(table.rows[c]! - sums.rows[c]!));
    const dense = new Float64Array(p);
    for (let e = sums.pairStart[c]!; e < sums.pairStart[c + 1]!; e++) {
      dense[sums.pairIndex[e]!] = sums.pairValue[e]!;
    }
    for (let q = 0; q < p; q++) {
      diff.xtx = Math.max(diff.xtx, Math.abs(table.xtx[q]![c]! - dense[q]!));
    }
    const xty = new Float64Array(m * k);
    for (let e = sums.colStart[c]!; e < sums.colStart[c + 1]!; e++) {
      for (let mm = 0; mm < m; mm++) xty[mm * k + sums.colIndex[e]!] = sums.colValue[e * m + mm]!;
    }
    table.layout.metrics.forEach((_, tm) => {
      const mm = metricAt[tm]!;
      for (let j = 0; j < k; j++) {
        diff.xty = Math.max(
          diff.xty,
          Math.abs(table.xty[tm * k + j]![c]! - xty[mm * k + j]!),
        );
      }
      diff.yty = Math.max(diff.yty, Math.abs(table.yty[tm]![c]! - yy[c * m + mm]!));
      diff.y = Math.max(diff.y, Math.abs(table.ySum[tm]![c]! - ys[c * m + mm]!));
    });
  }
  // A diagonal entry of the packed X'X is the x: column itself.
  ok(packedIndex(k, 0, 0) === 0);
  return diff;
}

for (
  const [name, gates, exact] of [["demo gate A", GATE_A, true], [
    "pooled online rounds",
    ONLINE,
    false,
  ]] as const
) {
  Deno.test({
    name: `sums SQL in native DuckDB over ${name} equals gatelab's per-task sums`,
    ignore: ignoreWithout("python3", `sums SQL (${name})`),
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "gatelab-sums-" });
      try {
        const tasks = await rowTasks(dir, gates);
        const file = join(dir, "sums.parquet");
        await duckdbSums(tasks, file);
        const table = await readSumsTable(file);
        const dataset = (await validateGates([...gates])).dataset!;
        const diff = compare(dataset, table);
        console.log(`${name}: max |DuckDB - gatelab| per kind ${JSON.stringify(diff)}`);
        equal(diff.rows, 0);
        equal(diff.xtx, 0);
        for (const kind of ["xty", "yty", "y"] as const) {
          ok(diff[kind] <= 1e-12, `${kind} ${diff[kind]}`);
        }

        // The bootstrap on the rows that stand for the sums against the row analysis's.
        const roles = Object.fromEntries(
          dataset.columns.map((
            c,
          ) => [c.version_id, { slot: c.slot_id, chunk_id: c.chunk_id, role: c.role }]),
        );
        const columns = sumsColumns(table, { file: "m", versions: roles });
        const stand = sumsRows(table, columns, dataset.gates[0]!);
        if ("task" in stand) throw new Error(`task ${stand.task} not split`);
        const options = { draws: 64, seed: 11, budgetK: dataset.gates[0]!.budget_k };
        const rows = await bootstrapDatasetOnCores(dataset, options);
        const fromSums = await bootstrapDatasetOnCores(stand, options);
        deepEqual(fromSums.kernel.status, rows.kernel.status);
        const a = rows.kernel.coefficients, b = fromSums.kernel.coefficients;
        const order = table.layout.metrics.map((mm) => dataset.metrics.indexOf(mm));
        deepEqual(
          order,
          dataset.metrics.map((_, i) => i),
          "metric order of the sums = the dataset's",
        );
        if (exact) {
          deepEqual(new Uint8Array(b.buffer), new Uint8Array(a.buffer), "draws bit for bit");
        } else {
          let max = 0;
          for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
          console.log(`${name}: max |draw from sums - draw from rows| ${max}`);
          ok(max <= 1e-12, `draws differ by ${max}`);
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
