/**
 * contributions.json's `tasks` rows as a view over the dataset's columns
 * (lib/analyze/task_rows.ts): the rows read through the view are the rows
 * the analysis used to build as objects, and the text streamed from the
 * columns is the very bytes of JSON.stringify over those rows, at any
 * depth, pooled or not, with and without design columns, for non-finite
 * values too.
 */
import { deepEqual, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { jsonChunks } from "../lib/analyze/json_stream.ts";
import { taskRows } from "../lib/analyze/task_rows.ts";
import type { TaskRow } from "../lib/analyze/types.ts";

interface Columns {
  n: number;
  k: number;
  columns: { version_id: string; slot_id: string; chunk_id: string; role: "add" }[];
  metrics: string[];
  design: Uint8Array;
  masked: Record<string, Float64Array>;
  bare: Record<string, Float64Array>;
  delta: Record<string, Float64Array>;
  episodes: { split: string; task_id: string; sample_id: number }[];
  gates: { gate_id: string }[];
  gateIndex: Uint16Array;
}

function dataset(n: number, k: number, metrics: string[], values: number[]): Columns {
  const at = (i: number) => values[i % values.length]!;
  const metric = (shift: number) =>
    Object.fromEntries(
      metrics.map((m, t) => [m, Float64Array.from({ length: n }, (_, i) => at(i * 3 + t + shift))]),
    );
  return {
    n,
    k,
    columns: Array.from({ length: k }, (_, j) => ({
      version_id: `chunk "${j}".v1`,
      slot_id: `s${j}`,
      chunk_id: `c${j}`,
      role: "add",
    })),
    metrics,
    design: Uint8Array.from({ length: n * k }, (_, x) => (x * 7 + (x >> 3)) % 3 === 0 ? 1 : 0),
    masked: metric(0),
    bare: metric(1),
    delta: metric(2),
    episodes: Array.from({ length: n }, (_, i) => ({
      split: i % 2 ? "val" : "te\u00e9st",
      task_id: `t-${i}\n`,
      sample_id: i % 3,
    })),
    gates: [{ gate_id: "round-1" }, { gate_id: "round-2" }],
    gateIndex: Uint16Array.from({ length: n }, (_, i) => (i < n / 2 ? 0 : 1)),
  };
}

/** The rows as the analysis built them before the view: plain objects. */
function builtRows(d: Columns, pooled: boolean): TaskRow[] {
  return Array.from({ length: d.n }, (_, i) => {
    const columns: Record<string, 0 | 1> = {};
    d.columns.forEach((c, j) => (columns[c.version_id] = d.design[i * d.k + j] ? 1 : 0));
    const values: Record<string, { masked: number; bare: number; delta: number }> = {};
    for (const m of d.metrics) {
      values[m] = { masked: d.masked[m]![i]!, bare: d.bare[m]![i]!, delta: d.delta[m]![i]! };
    }
    const e = d.episodes[i]!;
    return {
      split: e.split,
      task_id: e.task_id,
      sample_id: e.sample_id,
      ...(pooled ? { gate_id: d.gates[d.gateIndex[i]!]!.gate_id } : {}),
      columns,
      values,
    };
  });
}

Deno.test("taskRows: rows read through the view equal the rows built as objects", () => {
  const d = dataset(5, 3, ["reward", "r_strict"], [0.25, -1, 0, 1e-7]);
  for (const pooled of [false, true]) {
    const view = taskRows(d, { pooled });
    const built = builtRows(d, pooled);
    ok(Array.isArray(view));
    deepEqual(view.length, 5);
    deepEqual(view[3], built[3]);
    deepEqual([...view], built);
    deepEqual(view.map((r) => r.task_id), built.map((r) => r.task_id));
    deepEqual(view[5], undefined);
    deepEqual("gate_id" in view[0]!, pooled);
    deepEqual(JSON.stringify(view), JSON.stringify(built));
  }
});

Deno.test("taskRows: rows carry gate_id by default only when the dataset pools several gates", () => {
  const d = dataset(2, 1, ["reward"], [1]);
  deepEqual(taskRows(d)[0]!.gate_id, "round-1");
  deepEqual("gate_id" in taskRows({ ...d, gates: [{ gate_id: "g" }] })[0]!, false);
});

Deno.test("taskRows: the view refuses writes", () => {
  const view = taskRows(dataset(2, 1, ["reward"], [1]), {}) as TaskRow[];
  throws(() => (view[0] = view[1]!), TypeError);
  throws(() => view.push(view[0]!), TypeError);
  throws(() => delete view[0], TypeError);
  deepEqual(view.length, 2);
});

Deno.test("taskRows: streamed from the columns, the same bytes as JSON.stringify of the built rows", () => {
  const shapes = fc.record({
    n: fc.integer({ min: 0, max: 6 }),
    k: fc.integer({ min: 0, max: 4 }),
    metrics: fc.constantFrom<string[]>(["reward"], ["reward", "r_strict", 'r "x"'], []),
    values: fc.array(
      fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -0, 0.1 + 0.2, 1e21, 5e-324)),
      { minLength: 1, maxLength: 8 },
    ),
    pooled: fc.boolean(),
    depth: fc.integer({ min: 0, max: 2 }),
  });
  fc.assert(
    fc.property(shapes, ({ n, k, metrics, values, pooled, depth }) => {
      const d = dataset(n, k, metrics, values);
      const wrap = (tasks: unknown) => {
        let v: unknown = { head: 1, tasks, tail: [] };
        for (let i = 0; i < depth; i++) v = { inner: [v] };
        return v;
      };
      const streamed = [...jsonChunks(wrap(taskRows(d, { pooled })))].join("");
      deepEqual(streamed, JSON.stringify(wrap(builtRows(d, pooled)), null, 2) + "\n");
    }),
    { numRuns: 500 },
  );
});

Deno.test("taskRows: a large view streams in chunks near the 64 KiB target", () => {
  const d = dataset(3000, 16, ["reward", "r_strict"], [0.1234, 0.5, 1]);
  const chunks = [...jsonChunks({ tasks: taskRows(d, { pooled: false }) })];
  ok(chunks.length > 10);
  for (const c of chunks) ok(c.length < (1 << 16) + 2000);
  deepEqual(chunks.join(""), JSON.stringify({ tasks: builtRows(d, false) }, null, 2) + "\n");
});
