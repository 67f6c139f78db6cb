import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { readCsvTable } from "../lib/import/read_csv.ts";
import type { SourceTable } from "../lib/import/table.ts";
import type { Issue } from "../lib/core/issue.ts";

async function withFile<T>(
  name: string,
  text: string | Uint8Array,
  f: (file: string) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, name);
    if (typeof text === "string") await Deno.writeTextFile(file, text);
    else await Deno.writeFile(file, text);
    return await f(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function table(read: SourceTable | Issue): SourceTable {
  if ("code" in read) throw new Error(read.message);
  return read;
}

// Text columns come back as the file's cells: ASCII and non-ASCII, RFC 4180 quoting undone
// (the expected values are the file's own cells, quoted ones unquoted by hand), empty = null.
Deno.test("CSV text columns: ASCII, non-ASCII, quoted and empty cells read as written", async () => {
  const ascii = Array.from({ length: 3000 }, (_, i) => `t${String(i).padStart(5, "0")}`);
  const wide = ["é", "a\u{1F600}b", "日本", "plain"];
  const lines = ["task_id,arm,note,reward"];
  for (let i = 0; i < ascii.length; i++) {
    lines.push(`${ascii[i]},${i % 2 ? "masked" : "bare"},${wide[i % 4]},0.5`);
  }
  lines.push('"q,1",bare,"say ""hi""",0.25', "q2,bare,,0.75");
  await withFile("t.csv", lines.join("\n") + "\n", async (file) => {
    const t = table(await readCsvTable(file, "csv", new Set(["task_id", "arm", "note"])));
    deepEqual(t.rows, ascii.length + 2);
    deepEqual(t.data.task_id, [...ascii, "q,1", "q2"]);
    deepEqual(t.data.arm, [
      ...ascii.map((_, i) => (i % 2 ? "masked" : "bare")),
      "bare",
      "bare",
    ]);
    deepEqual(t.data.note, [...ascii.map((_, i) => wide[i % 4]), 'say "hi"', null]);
    deepEqual([...t.data.reward!], [...ascii.map(() => 0.5), 0.25, 0.75]);
  });
});

// The layout RFC 4180 allows and pandas/Excel write: a BOM, CRLF, line breaks and delimiters
// inside quotes, no line break after the last row, blank lines; TSV with a tab.
Deno.test("CSV/TSV layout: BOM, CRLF, quoted line breaks, last row without a newline", async () => {
  const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
  const body = new TextEncoder().encode(
    'task_id,note,x\r\nt1,"two\r\nlines",1\r\n\r\nt2,"a,b",2\r\nt3,"""q""",3',
  );
  await withFile("t.csv", new Uint8Array([...bom, ...body]), async (file) => {
    const t = table(await readCsvTable(file, "csv", new Set(["task_id"])));
    deepEqual(t.columns, ["task_id", "note", "x"]);
    deepEqual({ ...t.data, x: [...t.data.x!] }, {
      task_id: ["t1", "t2", "t3"],
      note: ["two\r\nlines", "a,b", '"q"'],
      x: [1, 2, 3],
    });
    // A column of numbers without an empty cell is a Float64Array (no boxed number per cell).
    equal(t.data.x instanceof Float64Array, true);
  });
  await withFile("t.tsv", "task_id\tnote\nt1\ta,b\nt2\t\n", async (file) => {
    const t = table(await readCsvTable(file, "tsv", new Set(["task_id"])));
    deepEqual(t.data, { task_id: ["t1", "t2"], note: ["a,b", null] });
  });
});

// Typing by the mapping, not a sample: text columns stay text whatever they hold; others are
// numbers when every cell is number text (the expected doubles are JavaScript's Number() of the
// same text, itself correctly rounded; the fast path must agree bit for bit), booleans when every
// cell is true/false/t/f, else text. The header names follow DuckDB's reader (duckdb 1.5.6 in
// Python names an empty header cell column<i> and a repeat a_1).
Deno.test("CSV cell types: text columns, numbers bit for bit, booleans, mixed columns", async () => {
  const floats = [
    "0.1",
    "0.6666",
    "-0.3",
    "1e-7",
    "123456789012345",
    "1234567890123456789",
    "0.30000000000000004",
    "-0",
    ".5",
    "7.",
    " 2 ",
    "+1.5",
    "2.2250738585072014e-308",
  ];
  const lines = [",id,num,flag,mixed,id"];
  floats.forEach((f, i) =>
    lines.push(`${i},00${i},${f},${["true", "False", "t", "F"][i % 4]},${i === 3 ? "x" : i},d${i}`)
  );
  await withFile("t.csv", lines.join("\n") + "\n", async (file) => {
    const t = table(await readCsvTable(file, "csv", new Set(["id"])));
    deepEqual(t.columns, ["column0", "id", "num", "flag", "mixed", "id_1"]);
    deepEqual(t.data.id, floats.map((_, i) => `00${i}`));
    deepEqual([...t.data.column0!], floats.map((_, i) => i));
    const num = t.data.num!;
    floats.forEach((f, i) => equal(Object.is(num[i], Number(f)), true, `${f}: ${num[i]}`));
    deepEqual(t.data.flag, floats.map((_, i) => i % 2 === 0));
    deepEqual(t.data.mixed, floats.map((_, i) => (i === 3 ? "x" : String(i))));
    deepEqual(t.data.id_1, floats.map((_, i) => `d${i}`));
  });
});

// Every structural problem names the row (one-based, header excluded), the file's line and
// the column; the first problem ends the read.
Deno.test("CSV parse errors name the row, the line and the column", async () => {
  const cases: [string, string, Partial<Issue>][] = [
    ["a,b,c\n1,2,3\n4,5\n", "the row has 2 field(s), the header 3 (line 3)", {
      line: 2,
      path: "c",
    }],
    ["a,b\n1,2\n\n3,4,5\n", "the row has more fields than the header's 2 (line 4)", {
      line: 2,
    }],
    ['a,b\n1,"2\n3,4\n', "a quoted field is not closed (line 2)", { line: 1, path: "b" }],
    ['a,b\n1,"2" x\n', "text after a closing quote", { line: 1, path: "b" }],
    ['a,b\n1,2\n3,x"y\n', "a quote inside an unquoted field", { line: 2, path: "b" }],
    ["", "no header row", {}],
  ];
  for (const [text, message, at] of cases) {
    await withFile("t.csv", text, async (file) => {
      const read = await readCsvTable(file, "csv");
      if (!("code" in read)) throw new Error(`read ${JSON.stringify(text)}`);
      equal(read.code, "parse_error");
      equal(read.message.includes(message), true, `${read.message} / ${message}`);
      equal(read.line, at.line);
      equal(read.path, at.path);
    });
  }
  await withFile("t.csv", new Uint8Array([0x61, 0x0a, 0xff, 0x0a]), async (file) => {
    const read = await readCsvTable(file, "csv");
    deepEqual("code" in read && read.message, "cannot read as csv: not UTF-8 text");
  });
});
