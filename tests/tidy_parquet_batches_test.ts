/**
 * A table past PARQUET_STREAM_ROWS is encoded batch by batch (one batch at
 * a time in memory). pyarrow, an independent reader, must read from it
 * exactly what it reads from the one-batch encoding of the same table
 * (apache-arrow's IPC stream written by parquet-wasm's writeParquet, made
 * here as lib/tidy/tidy_parquet.ts makes it below the limit): the same
 * schema, one row group, the same values and nulls, including nulls and
 * non-finite numbers that fall in one batch only, a boolean column with no
 * value (written as text) and a list column; while the bytes differ (the
 * batched path ran). Two encodings of the table give the same bytes, and the
 * progress callback is told the rows after each batch.
 */
import { deepEqual, equal, notDeepEqual } from "node:assert/strict";
import { join } from "node:path";
import {
  PARQUET_BATCH_ROWS,
  PARQUET_STREAM_ROWS,
  tidyArrowIpc,
  tidyParquet,
} from "../lib/tidy/tidy_parquet.ts";
import type { TidyTable } from "../lib/tidy/tidy_table.ts";
import { sha256Hex } from "../lib/core/sha256.ts";
import { ignoreWithout } from "./ci_tools.ts";
import { EXIT_WITHOUT_TEARDOWN } from "./python_exit.ts";

const ROWS = PARQUET_STREAM_ROWS + PARQUET_BATCH_ROWS / 2 + 1;
const LAST = ROWS - 1;

/** A table whose nulls, NaN and -0 fall in the first or the last batch only. */
function table(): TidyTable {
  const f64 = new Float64Array(ROWS).map((_, i) => (i % 97) / 8);
  f64[LAST] = NaN;
  f64[LAST - 1] = -0;
  return {
    name: "tasks",
    rows: ROWS,
    columns: [
      {
        name: "task_id",
        kind: "str",
        values: Array.from({ length: ROWS }, (_, i) => (i === 3 ? null : `task-${i}`)),
      },
      { name: "delta", kind: "f64", values: f64 },
      {
        name: "masked",
        kind: "f64",
        values: Array.from({ length: ROWS }, (_, i) => (i === LAST - 5 ? null : i / 3)),
      },
      { name: "gate", kind: "i32", values: new Int32Array(ROWS).map((_, i) => i % 3) },
      {
        name: "on",
        kind: "bool",
        values: Array.from({ length: ROWS }, (_, i) => (i === 70_000 ? null : i % 2 === 0)),
      },
      { name: "none", kind: "bool", values: new Array(ROWS).fill(null) },
      {
        name: "ids",
        kind: "str_list",
        values: Array.from({ length: ROWS }, (_, i) => (i % 5 === 0 ? [] : [`v${i % 7}`])),
      },
    ],
  };
}

/** The one-batch encoding: the whole table's IPC stream through writeParquet. */
async function oneBatch(t: TidyTable): Promise<Uint8Array> {
  const pq = await import("npm:parquet-wasm@0.8.0/bundler");
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.ZSTD).build();
  const columns = t.columns.map((c) => c.name === "none" ? { ...c, kind: "str" as const } : c);
  return pq.writeParquet(pq.Table.fromIPCStream(await tidyArrowIpc({ ...t, columns })), props);
}

const COMPARE = `
import json, sys
import pyarrow.parquet as pq
a, b = pq.ParquetFile(sys.argv[1]), pq.ParquetFile(sys.argv[2])
ta, tb = a.read(), b.read()
print(json.dumps({
  "row_groups": [a.num_row_groups, b.num_row_groups],
  "rows": [ta.num_rows, tb.num_rows],
  "schema": str(ta.schema), "same_schema": ta.schema.equals(tb.schema),
  "equal": ta.equals(tb),
  "nulls": {n: ta.column(n).null_count for n in ta.column_names},
  "last": {n: ta.column(n)[len(ta) - 1].as_py() for n in ["task_id", "delta", "masked", "gate"]},
}))
${EXIT_WITHOUT_TEARDOWN}`;

Deno.test({
  name:
    "tidyParquet: a table past the limit, encoded in batches, reads in pyarrow as its one-batch encoding",
  ignore: ignoreWithout("python3", "tidy Parquet batches (pyarrow)"),
  async fn() {
    const t = table();
    const told: number[] = [];
    const batched = await tidyParquet(t, { onProgress: (done) => told.push(done) });
    // Progress: 0, then the rows after each batch of PARQUET_BATCH_ROWS.
    const batches = Math.ceil(ROWS / PARQUET_BATCH_ROWS);
    deepEqual(told, [
      0,
      ...Array.from({ length: batches }, (_, i) => Math.min(ROWS, (i + 1) * PARQUET_BATCH_ROWS)),
    ]);
    const reference = await oneBatch(t);
    notDeepEqual(await sha256Hex(batched), await sha256Hex(reference));
    equal(await sha256Hex(await tidyParquet(t)), await sha256Hex(batched));
    const dir = await Deno.makeTempDir({ prefix: "gatelab-parquet-batches-" });
    try {
      await Deno.writeFile(join(dir, "batched.parquet"), batched);
      await Deno.writeFile(join(dir, "one.parquet"), reference);
      const out = await new Deno.Command("python3", {
        args: ["-c", COMPARE, join(dir, "batched.parquet"), join(dir, "one.parquet")],
      }).output();
      equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const r = JSON.parse(new TextDecoder().decode(out.stdout));
      deepEqual(
        [r.row_groups, r.rows, r.same_schema, r.equal],
        [[1, 1], [ROWS, ROWS], true, true],
      );
      deepEqual(r.nulls, {
        task_id: 1,
        delta: 1,
        masked: 1,
        gate: 0,
        on: 1,
        none: ROWS,
        ids: 0,
      });
      deepEqual(r.last, { task_id: `task-${LAST}`, delta: null, masked: LAST / 3, gate: LAST % 3 });
      equal(
        r.schema,
        "task_id: string\ndelta: double\nmasked: double\ngate: int32\non: bool\nnone: string\nids: list<item: string>\n  child 0, item: string",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
