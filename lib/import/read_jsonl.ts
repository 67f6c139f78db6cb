import { createHash } from "node:crypto";
import type { Issue } from "../core/issue.ts";
import { forEachJsonlLine } from "../load/jsonl.ts";
import type { SourceTable } from "./table.ts";
import { InputBudget } from "./limits.ts";

/** Thrown out of the line visitor to stop reading: the file has more rows than allowed. */
const PAST_ROWS = Symbol("past rows");

/** Rows between two checks of the heap the rows read need (`InputBudget.checkHeap`). */
const HEAP_CHECK_ROWS = 65_536;

/**
 * Reads a JSON Lines table: one object per line (blank lines skipped),
 * read with gatelab's strict JSONL reader (UTF-8, duplicate keys and depth
 * checked), streamed: each line's values go into their columns as it is
 * parsed, so no object per line is kept. Columns are the keys in
 * first-seen order; a key a line lacks is `null` there. Row n is the n-th
 * object. The file's size and its rows count against the import's limits
 * (lib/import/limits.ts): past them, one issue naming the file and the limit.
 *
 * @example
 * ```ts
 * import { readJsonlTable } from "./read_jsonl.ts";
 * import { deepEqual } from "node:assert/strict";
 * const file = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(file, '{"a":1,"b":"x"}\n\n{"c":[1],"a":2}\n');
 * const t = await readJsonlTable(file);
 * if (Array.isArray(t) || "code" in t) throw new Error("not read");
 * deepEqual([t.columns, t.rows, t.data], [["a", "b", "c"], 2, { a: [1, 2], b: ["x", null], c: [null, [1]] }]);
 * await Deno.remove(file);
 * ```
 *
 * @param file The .jsonl file.
 * @param budget What is left of the import's limits (taken from here).
 * @returns The table, or the issues (file and line).
 */
export async function readJsonlTable(
  file: string,
  budget: InputBudget = new InputBudget(),
): Promise<SourceTable | Issue[]> {
  let size: number;
  try {
    size = (await Deno.stat(file)).size;
  } catch (error) {
    return [{ code: "io_error", message: `cannot read: ${String(error)}`, file }];
  }
  if (size > budget.bytesLeft) return [budget.takeBytes(file, size)!];
  const columns = new Map<string, unknown[]>();
  const limit = budget.rowsLeft;
  const hash = createHash("sha256");
  let rows = 0, done = 0;
  let issues: Issue[];
  let heap: Issue | null = null;
  try {
    issues = await forEachJsonlLine(file, (row) => {
      if (rows === limit) throw PAST_ROWS;
      // Stopped as soon as the rows read need more heap than there is, not once all are read.
      if (rows % HEAP_CHECK_ROWS === 0 && rows > 0) {
        heap = budget.checkHeap(file, rows, columns.size, { done, size });
        if (heap !== null) throw PAST_ROWS;
      }
      for (const k in row) {
        let column = columns.get(k);
        if (column === undefined) columns.set(k, column = new Array(rows).fill(null));
        column[rows] = row[k] ?? null;
      }
      rows++;
    }, {
      label: file,
      onBytes: (bytes) => {
        hash.update(bytes);
        done += bytes.length;
      },
    });
  } catch (error) {
    if (error === PAST_ROWS) return [heap ?? budget.pastRows(file)];
    throw error;
  }
  if (issues.length > 0) return issues;
  for (const column of columns.values()) {
    for (let i = 0; i < rows; i++) if (column[i] === undefined) column[i] = null;
  }
  budget.takeBytes(file, size);
  budget.takeRows(file, rows);
  return {
    file,
    format: "jsonl",
    columns: [...columns.keys()],
    rows,
    data: Object.fromEntries(columns),
    sha256: hash.digest("hex"),
  };
}
