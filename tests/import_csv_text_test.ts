import { deepEqual } from "node:assert/strict";
import { join } from "node:path";
import { openCsvReader } from "../lib/import/read_csv.ts";

// Text columns come back from duckdb-wasm as Arrow UTF-8 buffers; an all-ASCII column is cut
// from one decoded string per chunk, any other read cell by cell. Both must give the cells as
// written (the expected values are the file's own cells, quoted ones unquoted by RFC 4180).
Deno.test("CSV text columns: ASCII, non-ASCII, quoted and empty cells read as written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ascii = Array.from({ length: 3000 }, (_, i) => `t${String(i).padStart(5, "0")}`);
    const wide = ["é", "a\u{1F600}b", "日本", "plain"];
    const lines = ["task_id,arm,note,reward"];
    for (let i = 0; i < ascii.length; i++) {
      lines.push(`${ascii[i]},${i % 2 ? "masked" : "bare"},${wide[i % 4]},0.5`);
    }
    lines.push('"q,1",bare,"say ""hi""",0.25', "q2,bare,,0.75");
    const file = join(dir, "t.csv");
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    const reader = await openCsvReader();
    try {
      const table = await reader.read(file, "csv", new Set(["task_id", "arm", "note"]));
      if ("code" in table) throw new Error(table.message);
      deepEqual(table.rows, ascii.length + 2);
      deepEqual(table.data.task_id, [...ascii, "q,1", "q2"]);
      deepEqual(table.data.arm, [
        ...ascii.map((_, i) => (i % 2 ? "masked" : "bare")),
        "bare",
        "bare",
      ]);
      deepEqual(table.data.note, [...ascii.map((_, i) => wide[i % 4]), 'say "hi"', null]);
      deepEqual([...table.data.reward!], [...ascii.map(() => 0.5), 0.25, 0.75]);
    } finally {
      reader.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
