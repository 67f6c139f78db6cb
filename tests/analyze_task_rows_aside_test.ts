/**
 * contributions.json's rows written on another thread: the spliced text is
 * byte for byte the text written in one thread (jsonChunks over taskRows,
 * itself JSON.stringify's bytes: tests/analyze_task_rows_test.ts), and the
 * temporary file is gone afterwards, also when the rows are never used.
 */
import { deepEqual, equal } from "node:assert/strict";
import { jsonChunks, RawJson } from "../lib/analyze/json_stream.ts";
import { taskRows } from "../lib/analyze/task_rows.ts";
import {
  ASIDE_MAX_ROWS,
  ASIDE_ROWS,
  spliceTaskRows,
  startTaskRowsAside,
  TASK_ROWS_MARKER,
} from "../lib/analyze/task_rows_aside.ts";
import { createPrng } from "../lib/math/prng.ts";

/** A pooled dataset of n rows, 3 columns and 2 metrics, with awkward values. */
function dataset(n: number) {
  const prng = createPrng(7);
  const values = () =>
    Float64Array.from(
      { length: n },
      (_, i) => i % 997 === 0 ? NaN : (prng.nextFloat() - 0.5) * 1e3,
    );
  return {
    n,
    k: 3,
    columns: [{ version_id: "a" }, { version_id: "b\u00e9" }, { version_id: 'c"' }],
    metrics: ["reward", "r_\u{1F600}"],
    design: Uint8Array.from({ length: n * 3 }, () => (prng.nextFloat() < 0.5 ? 1 : 0)),
    masked: { reward: values(), "r_\u{1F600}": values() },
    bare: { reward: values(), "r_\u{1F600}": values() },
    delta: { reward: values(), "r_\u{1F600}": values() },
    episodes: Array.from({ length: n }, (_, i) => ({
      split: "val",
      task_id: `t-${i}\u00e9`,
      sample_id: i % 3,
    })),
    gates: [{ gate_id: "g1" }, { gate_id: "g2" }],
    gateIndex: Uint16Array.from({ length: n }, (_, i) => i % 2),
  };
}

/**
 * The writer's temporary files that still exist, among those made in this test file (recorded as
 * they are made: other processes, and other test files of a --parallel run, make theirs in the
 * same temporary directory).
 */
const made: string[] = [];
const makeTempFileSync = Deno.makeTempFileSync;
Deno.makeTempFileSync = (options) => {
  const path = makeTempFileSync(options);
  if (options?.prefix === "gatelab-tasks-") made.push(path);
  return path;
};
const temporaries = () =>
  made.filter((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  }).length;

/** The text of chunks, and how many came as bytes (from the worker's file). */
async function text(chunks: AsyncIterable<string | Uint8Array>): Promise<[string, number]> {
  const parts: BlobPart[] = [];
  let bytes = 0;
  for await (const c of chunks) {
    if (typeof c !== "string") bytes++;
    parts.push(typeof c === "string" ? c : c.slice().buffer);
  }
  return [await new Blob(parts).text(), bytes];
}

Deno.test("rows written aside splice into the same bytes as rows written here", async () => {
  const before = temporaries();
  const d = dataset(ASIDE_ROWS + 1234);
  const document = { format: "x", tasks: taskRows(d), after: [1, { z: null }] };
  const here = [...jsonChunks(document)].join("");
  await using rows = startTaskRowsAside(d, "  ");
  deepEqual(rows === null, false);
  const [spliced, bytes] = await text(
    spliceTaskRows(jsonChunks({ ...document, tasks: new RawJson(TASK_ROWS_MARKER) }), rows!),
  );
  equal(spliced.length, here.length);
  equal(spliced === here, true);
  equal(bytes > 0, true); // written by the worker, not here
  equal(temporaries(), before);
});

Deno.test("rows started aside and never used leave no temporary file or worker", async () => {
  const before = temporaries();
  {
    await using rows = startTaskRowsAside(dataset(ASIDE_ROWS), "  ");
    deepEqual(rows === null, false);
  }
  equal(temporaries(), before);
});

Deno.test("few rows, and the largest runs, are written here: no worker is started", () => {
  const few = dataset(ASIDE_ROWS - 1);
  deepEqual(startTaskRowsAside(few, "  "), null);
  deepEqual(startTaskRowsAside({ ...few, n: ASIDE_MAX_ROWS + 1 }, "  "), null);
});
