/**
 * gatelab's CSV reader reads a file in chunks (lib/import/read_csv.ts): a
 * row, a quoted field, a CRLF, a doubled quote or a UTF-8 character cut by
 * a chunk's end must read as if the file were one piece. A fast-check
 * property: for generated CSV texts (quoted fields with delimiters, line
 * breaks and doubled quotes, CRLF and CR endings, blank lines, non-ASCII
 * text, columns that turn from numbers or booleans to text half way, broken
 * rows), the table (or the issue) read in chunks of 1 to 17 bytes equals
 * the one read in a single chunk. Fixed seed.
 */
import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { readCsvTable } from "../lib/import/read_csv.ts";

const cell = fc.oneof(
  fc.constantFrom(
    "",
    "0",
    "1",
    "0.25",
    "-3e2",
    "true",
    "F",
    "x",
    "é",
    "日本",
    "a\u{1F600}b",
    "0001",
  ),
  fc.constantFrom('"a,b"', '"two\nlines"', '"two\r\nlines"', '"say ""hi"""', '""', '"1"'),
  fc.constantFrom('x"y', '"open', '"a" b'),
);
const ending = fc.constantFrom("\n", "\r\n", "\r", "\n\n", "\r\n\r\n");

const csv = fc.record({
  columns: fc.integer({ min: 1, max: 4 }),
  rows: fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 12 }),
  endings: fc.array(ending, { minLength: 1, maxLength: 4 }),
  last: fc.boolean(),
}).map(({ columns, rows, endings, last }) => {
  const header = Array.from({ length: columns }, (_, c) => (c === 1 ? "id" : `c${c}`)).join(",");
  const lines = [header, ...rows.map((r) => r.join(","))];
  return lines.map((l, i) => l + (i < lines.length - 1 || last ? endings[i % endings.length] : ""))
    .join("");
});

Deno.test("CSV read in chunks of 1 to 17 bytes equals the file read in one chunk (fast-check)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-csv-chunks-" });
  const file = join(dir, "t.csv");
  try {
    await fc.assert(
      fc.asyncProperty(csv, fc.integer({ min: 1, max: 17 }), async (text, chunkBytes) => {
        await Deno.writeTextFile(file, text);
        const whole = await readCsvTable(file, "csv", new Set(["id"]), { chunkBytes: 1 << 20 });
        const chunked = await readCsvTable(file, "csv", new Set(["id"]), { chunkBytes });
        deepEqual(plain(chunked), plain(whole), JSON.stringify(text));
      }),
      { numRuns: 400, seed: 20261203 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A table with its typed arrays as arrays, for comparison. */
function plain(v: unknown): unknown {
  if (v instanceof Float64Array) return { float64: Array.from(v) };
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}
