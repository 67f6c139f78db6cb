/**
 * contributions.json's per-task rows read back from the tidy `tasks` table
 * its `tasks_table` names (docs/FORMAT.md, "Migration: contributions.json
 * `tasks`"). A document of an older gatelab holds the rows itself; both
 * read the same here, so every reader of the rows keeps working.
 *
 * @module
 */
import { join } from "node:path";
import type { z } from "npm:zod@4.6.7";
import type { Issue } from "../../core/issue.ts";
import { sha256Hex } from "../../core/sha256.ts";
import type { TaskRowSchema, TasksTableSchema } from "./contributions.ts";

/** One row of contributions.json's `tasks` (as an older gatelab wrote it). */
export type TaskRowJson = z.output<typeof TaskRowSchema>;

/** What {@linkcode contributionsTaskRows} reads of contributions.json. */
export interface TaskRowsSource {
  readonly columns: readonly { readonly version_id: string }[];
  readonly metrics: Readonly<Record<string, unknown>>;
  readonly gates: readonly { readonly gate_id: string }[];
  /** The rows themselves (an older gatelab). */
  readonly tasks?: readonly TaskRowJson[] | undefined;
  /** The table holding the rows. */
  readonly tasks_table?: z.output<typeof TasksTableSchema> | undefined;
}

/**
 * The per-task rows of a contributions.json: its own `tasks` when it holds
 * them, else the rows of the `tasks_table` file beside it, checked against
 * the sha256 and row count the document recorded, in the shape of the
 * older field (`gate_id` only when gates are pooled).
 *
 * @param doc The parsed contributions.json.
 * @param dir The directory it was read from.
 * @returns The rows, or an issue: `io_error` (the table is missing),
 *   `output_schema_mismatch` (neither field, another file than recorded, or a column missing).
 *
 * @example
 * ```ts
 * import { contributionsTaskRows } from "./task_rows_file.ts";
 * import { deepEqual } from "node:assert/strict";
 * const rows = [{ split: "val", task_id: "t", sample_id: 0, columns: { a: 1 as const },
 *   values: { reward: { masked: 1, bare: 0, delta: 1 } } }];
 * const doc = { columns: [{ version_id: "a" }], metrics: { reward: {} }, gates: [{ gate_id: "g" }], tasks: rows };
 * deepEqual(await contributionsTaskRows(doc, "out"), { ok: true, rows });
 * ```
 */
export async function contributionsTaskRows(
  doc: TaskRowsSource,
  dir: string,
): Promise<{ ok: true; rows: TaskRowJson[] } | { ok: false; issue: Issue }> {
  if (doc.tasks !== undefined) return { ok: true, rows: [...doc.tasks] };
  const contributions = join(dir, "contributions.json");
  const ref = doc.tasks_table;
  if (ref === undefined) {
    return {
      ok: false,
      issue: {
        code: "output_schema_mismatch",
        file: contributions,
        path: "tasks_table",
        message: "holds neither tasks nor tasks_table: its per-task rows cannot be found",
      },
    };
  }
  const file = join(dir, ref.file);
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return {
      ok: false,
      issue: {
        code: "io_error",
        file,
        message: `cannot read the per-task rows contributions.json names: ${String(error)}`,
      },
    };
  }
  const mismatch = (message: string): { ok: false; issue: Issue } => ({
    ok: false,
    issue: { code: "output_schema_mismatch", file, path: "tasks_table", message },
  });
  const sha256 = sha256Hex(bytes);
  if (sha256 !== ref.sha256) {
    return mismatch(
      `sha256 ${sha256} is not the ${ref.sha256} contributions.json recorded: the file was ` +
        `replaced or changed since the analysis`,
    );
  }
  const columns = await readColumns(bytes);
  const n = ref.rows;
  const versions = doc.columns.map((c) => c.version_id);
  const metrics = Object.keys(doc.metrics);
  const names = ["round", "split", "task_id", "sample_id"];
  for (const m of metrics) names.push(`${m}_masked`, `${m}_bare`, `${m}_delta`);
  for (const v of versions) names.push(`mask:${v}`);
  for (const name of names) {
    const column = columns.get(name);
    if (column === undefined || column.length !== n) {
      return mismatch(
        column === undefined
          ? `has no column ${name}`
          : `holds ${column.length} rows, contributions.json recorded ${n}`,
      );
    }
  }
  const col = (name: string) => columns.get(name)!;
  const pooled = doc.gates.length > 1;
  const round = col("round"),
    split = col("split"),
    task = col("task_id"),
    sample = col("sample_id");
  const checkpoint = columns.get("checkpoint_id"); // pooled checkpoints only
  const masks = versions.map((v) => col(`mask:${v}`));
  const values = metrics.map((m) => [col(`${m}_masked`), col(`${m}_bare`), col(`${m}_delta`)]);
  const rows: TaskRowJson[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const design: Record<string, 0 | 1> = {};
    versions.forEach((v, j) => (design[v] = Number(masks[j]![i]) ? 1 : 0));
    const byMetric: TaskRowJson["values"] = {};
    metrics.forEach((m, t) => {
      const [a, b, d] = values[t]!;
      byMetric[m] = { masked: num(a![i]), bare: num(b![i]), delta: num(d![i]) };
    });
    rows[i] = {
      split: String(split[i]),
      task_id: String(task[i]),
      sample_id: Number(sample[i]),
      ...(pooled ? { gate_id: String(round[i]) } : {}),
      ...(checkpoint !== undefined && checkpoint[i] !== null && checkpoint[i] !== undefined
        ? { checkpoint_id: String(checkpoint[i]) }
        : {}),
      columns: design,
      values: byMetric,
    };
  }
  return { ok: true, rows };
}

/** A cell of a float column: null (a non-finite value) read back as NaN, as JSON's null was. */
function num(x: unknown): number {
  return x === null || x === undefined ? NaN : Number(x);
}

/** Every column of a Parquet file (gatelab's own tidy table: ZSTD pages). */
async function readColumns(bytes: Uint8Array): Promise<Map<string, ArrayLike<unknown>>> {
  const { parquetMetadata, parquetRead, snappyUncompress } = await import("npm:hyparquet@1.33.0");
  const { decompress } = await import("npm:fzstd@0.1.1");
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(buffer as ArrayBuffer);
  const rows = Number(metadata.num_rows);
  const out = new Map<string, unknown[]>();
  await parquetRead({
    file: buffer as ArrayBuffer,
    metadata,
    compressors: {
      ZSTD: (input: Uint8Array, length: number) => decompress(input, new Uint8Array(length)),
      SNAPPY: (input: Uint8Array, length: number) => {
        const output = new Uint8Array(length);
        snappyUncompress(input, output);
        return output;
      },
    },
    onChunk: ({ columnName, columnData, rowStart }) => {
      let column = out.get(columnName);
      if (column === undefined) out.set(columnName, column = new Array(rows).fill(null));
      for (let i = 0; i < columnData.length; i++) column[rowStart + i] = columnData[i];
    },
  });
  return out;
}
