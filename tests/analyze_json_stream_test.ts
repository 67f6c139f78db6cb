/**
 * The chunked JSON writer gives the very bytes of JSON.stringify(value, null, 2) + "\n"
 * (fast-check over arbitrary JSON values, undefined members and nested empties), and
 * contributions.json written in chunks equals the one-string form with `intercept: 0.0`.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { jsonChunks, RawJson } from "../lib/analyze/json_stream.ts";

Deno.test("jsonChunks: same bytes as JSON.stringify(value, null, 2) + newline", () => {
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue({ maxDepth: 2 }),
      fc.double(),
      fc.constant(undefined),
      fc.array(tie("node"), { maxLength: 4 }),
      fc.dictionary(fc.string(), tie("node"), { maxKeys: 4 }),
    ),
  })).node;
  fc.assert(
    fc.property(value, (v) => {
      if (v === undefined) return;
      deepEqual([...jsonChunks(v)].join(""), JSON.stringify(v, null, 2) + "\n");
    }),
    { numRuns: 2000 },
  );
});

Deno.test("jsonChunks: a large array comes out in many chunks, each below the 64 KiB target plus one item", () => {
  const rows = Array.from({ length: 20000 }, (_, i) => ({ task_id: `t-${i}`, values: [i, i / 3] }));
  const chunks = [...jsonChunks({ tasks: rows })];
  ok(chunks.length > 10);
  for (const c of chunks) ok(c.length < (1 << 16) + 200);
  deepEqual(chunks.join(""), JSON.stringify({ tasks: rows }, null, 2) + "\n");
});

Deno.test("jsonChunks: RawJson writes its text verbatim and parses back to the number", () => {
  const v = { estimator: { name: "x", intercept: new RawJson("0.0") }, n: 0 };
  deepEqual(
    [...jsonChunks(v)].join(""),
    '{\n  "estimator": {\n    "name": "x",\n    "intercept": 0.0\n  },\n  "n": 0\n}\n',
  );
  deepEqual(JSON.parse(JSON.stringify(v)).estimator.intercept, 0);
});
