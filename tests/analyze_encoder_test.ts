/**
 * The tidy tables' encoding worker (lib/analyze/encoder.ts) gives the bytes
 * of the calling thread's encoding, on the demo's Gate A and on a 30,000-row
 * synthetic gate (several CSV pieces): tasks.csv as the concatenated
 * `tidyCsv` text, tasks.parquet byte for byte as `tidyParquet` on this
 * thread, the progress of the CSV told after the same pieces, and the
 * fresh worker that replaces one after a large table encodes the next. A worker that
 * cannot start leaves its tables to this thread with one warning, and the
 * bytes stay the same.
 */
import { deepEqual, equal } from "node:assert/strict";
import { validateGates } from "../lib/validate/validate_gates.ts";
import { taskRowText } from "../lib/analyze/task_rows.ts";
import { tasksTable } from "../lib/analyze/analyze_tidy.ts";
import { encodedTableFiles, encodeHere, startTidyEncoder } from "../lib/analyze/encoder.ts";
import { tidyCsv, type TidyTable } from "../lib/tidy/tidy_table.ts";
import { tidyParquet } from "../lib/tidy/tidy_parquet.ts";

const GATE = "data/demo/ckpt-a/gate-a";

/** A table of `rows` rows: text, doubles (some missing), integers and lists. */
function synthetic(rows: number): TidyTable {
  return {
    name: "synthetic",
    rows,
    columns: [
      { name: "id", kind: "str", values: Array.from({ length: rows }, (_, i) => `t-${i % 997}`) },
      {
        name: "x",
        kind: "f64",
        values: Float64Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? NaN : i / 7)),
      },
      { name: "n", kind: "i32", values: Int32Array.from({ length: rows }, (_, i) => i - 5) },
      {
        name: "ids",
        kind: "str_list",
        values: Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? [] : ["a", `b,${i}`])),
      },
    ],
  };
}

const text = (pieces: readonly Uint8Array[]) =>
  pieces.map((p) => new TextDecoder().decode(p)).join("");

Deno.test("the worker encodes Gate A's tasks table to this thread's bytes", async () => {
  const { dataset } = await validateGates([GATE]);
  const table = tasksTable(dataset!);
  const encoder = startTidyEncoder();
  try {
    const encoded = await encoder.encode({ tasks: taskRowText(dataset!, { pooled: true }) }, true);
    equal(text(encoded.pieces), [...tidyCsv(table)].join(""));
    deepEqual(encoded.parquet, await tidyParquet(table));
    deepEqual(encoded, await encodeHere({ table }, true));
  } finally {
    encoder.close();
  }
});

Deno.test("several pieces: the CSV's progress is told after the same pieces", async () => {
  const table = synthetic(30_000);
  const told: number[] = [];
  [...tidyCsv(table, { onProgress: (done) => told.push(done) })];
  const encoder = startTidyEncoder();
  try {
    const replayed: number[] = [];
    const files = await encodedTableFiles(
      "synthetic",
      table.rows,
      encoder.encode({ table }, true),
      true,
      { onWrite: () => (done) => replayed.push(done) },
    );
    const pieces = [...files["synthetic.csv"] as Iterable<Uint8Array>];
    equal(pieces.length > 10, true);
    equal(text(pieces), [...tidyCsv(table)].join(""));
    deepEqual(replayed, told);
    deepEqual(files["synthetic.parquet"], await tidyParquet(table));
    // The worker that encoded 30,000 rows was replaced: the next table goes to a fresh one.
    const small = synthetic(50);
    deepEqual(
      await encoder.encode({ table: small }, true),
      await encodeHere({ table: small }, true),
    );
  } finally {
    encoder.close();
  }
});

Deno.test("a worker that cannot start: one warning, this thread's bytes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-encoder-" });
  try {
    const broken = `${dir}/broken_worker.ts`;
    await Deno.writeTextFile(broken, 'throw new Error("no encoder here");\n');
    const told: string[] = [];
    const encoder = startTidyEncoder({
      workerUrl: new URL(`file://${broken}`),
      onFallback: (message) => told.push(message),
    });
    try {
      const table = synthetic(100);
      const [a, b] = await Promise.all([
        encoder.encode({ table }, true),
        encoder.encode({ table }, false),
      ]);
      deepEqual(a, await encodeHere({ table }, true));
      deepEqual(b, await encodeHere({ table }, false));
      equal(told.length, 1);
      equal(told[0]!.includes("no encoder here"), true);
    } finally {
      encoder.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
