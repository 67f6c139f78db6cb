/**
 * Reading a sums table's Parquet file into columns: parquet-wasm decodes
 * one row group at a time into Arrow (so its WebAssembly memory holds one
 * row group, not the file), and each numeric column's values are copied
 * from the Arrow buffers into one Float64Array. A sums table is hundreds of
 * numeric columns (267 at 16 versions and 7 metrics), where this is about
 * three times faster than the import's hyparquet reader, which hands every
 * cell to JavaScript one by one (200,000 tasks: about 4 s against 12 s).
 *
 * A column is a Float64Array when every value is a number (an INT64 within
 * 2^53 as the number it is), else an array of the values (`null` where
 * missing, strings, booleans, bigints), for the checks of sums_read.ts to
 * name.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { sha256Hex } from "../core/sha256.ts";
import type { SourceTable } from "../import/table.ts";

/**
 * Reads a Parquet file for {@linkcode readSumsTable}; a file that is not
 * Parquet or is truncated is a `parse_error`, one that cannot be read an
 * `io_error`, one of more than `maxRows` rows a `usage_error`.
 *
 * @param file The file.
 * @param maxRows Rows allowed.
 * @returns The columns, or the issue.
 */
export async function readSumsParquet(
  file: string,
  maxRows: number,
): Promise<SourceTable | Issue> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  const arrow = await import("npm:apache-arrow@17.0.0");
  const pq = await import("npm:parquet-wasm@0.8.0/bundler");
  let groups: number, rows: number;
  try {
    const { parquetMetadata } = await import("npm:hyparquet@1.33.0");
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const metadata = parquetMetadata(buffer as ArrayBuffer);
    groups = metadata.row_groups.length;
    rows = Number(metadata.num_rows);
  } catch (error) {
    return notParquet(file, error);
  }
  if (rows > maxRows) {
    return {
      code: "usage_error",
      message: `declares ${rows} rows (tasks); a sums table holds at most ${maxRows}`,
      file,
    };
  }
  const data: Record<string, unknown[] | Float64Array> = {};
  let columns: string[] = [];
  let at = 0;
  try {
    for (let group = 0; group < groups; group++) {
      const table = arrow.tableFromIPC(
        pq.readParquet(bytes, { rowGroups: [group] }).intoIPCStream(),
      );
      if (group === 0) columns = table.schema.fields.map((f) => f.name);
      table.schema.fields.forEach((field, i) => {
        const vector = table.getChildAt(i)!;
        copyColumn(data, field.name, vector, at, rows);
      });
      at += table.numRows;
    }
  } catch (error) {
    return notParquet(file, error);
  }
  if (at !== rows) return notParquet(file, `its row groups hold ${at} rows, its metadata ${rows}`);
  return { file, format: "parquet", columns, rows, data, sha256: sha256Hex(bytes) };
}

function notParquet(file: string, error: unknown): Issue {
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: "parse_error",
    message: `cannot read as Parquet (not a Parquet file, or truncated): ${message}`,
    file,
  };
}

/** The Arrow vector parts {@linkcode copyColumn} reads. */
interface ArrowVector {
  readonly nullCount: number;
  readonly length: number;
  readonly data: readonly { readonly values: unknown; readonly length: number }[];
  get(i: number): unknown;
}

const SAFE = 9007199254740991n;

/** Whether a chunk's values are numbers a Float64Array holds exactly (INT64 within 2^53). */
function numericChunk(values: unknown, length: number): boolean {
  if (values instanceof BigInt64Array) {
    for (let i = 0; i < length; i++) if (!(values[i]! <= SAFE && values[i]! >= -SAFE)) return false;
    return true;
  }
  return values instanceof Float64Array || values instanceof Float32Array ||
    values instanceof Int32Array || values instanceof Int16Array || values instanceof Int8Array ||
    values instanceof Uint32Array || values instanceof Uint16Array;
}

/** Copies one row group's column into `data[name]` at row `at`. */
function copyColumn(
  data: Record<string, unknown[] | Float64Array>,
  name: string,
  vector: ArrowVector,
  at: number,
  rows: number,
): void {
  const chunks = vector.data;
  const target = data[name];
  const numeric = vector.nullCount === 0 && chunks.every((c) => numericChunk(c.values, c.length));
  if (numeric && (target === undefined || target instanceof Float64Array)) {
    const out = (data[name] ??= new Float64Array(rows)) as Float64Array;
    let r = at;
    for (const chunk of chunks) {
      const values = chunk.values;
      if (values instanceof Float64Array) {
        out.set(values.subarray(0, chunk.length), r);
        r += chunk.length;
      } else if (values instanceof BigInt64Array) {
        r = copyInt64(values, chunk.length, out, r);
      } else {
        const numbers = values as ArrayLike<number>;
        for (let i = 0; i < chunk.length; i++) out[r++] = numbers[i]!;
      }
    }
    return;
  }
  const out = asArray(data, name, rows);
  for (let i = 0; i < vector.length; i++) {
    const v = vector.get(i);
    out[at + i] = typeof v === "bigint" && v <= SAFE && v >= -SAFE ? Number(v) : v ?? null;
  }
}

/**
 * INT64 values into doubles: through their 32-bit words when every value is
 * in 0 .. 2^31 - 1 (counts; little-endian, high word 0), else one by one.
 */
function copyInt64(values: BigInt64Array, length: number, out: Float64Array, at: number): number {
  const words = new Int32Array(values.buffer, values.byteOffset, length * 2);
  let small = true;
  for (let i = 0; i < length && small; i++) small = words[2 * i + 1] === 0 && words[2 * i]! >= 0;
  if (small) { for (let i = 0; i < length; i++) out[at + i] = words[2 * i]!; }
  else for (let i = 0; i < length; i++) out[at + i] = Number(values[i]!);
  return at + length;
}

/** `data[name]` as an array (a Float64Array so far is copied in). */
function asArray(
  data: Record<string, unknown[] | Float64Array>,
  name: string,
  rows: number,
): unknown[] {
  const target = data[name];
  if (Array.isArray(target)) return target;
  const out: unknown[] = target instanceof Float64Array
    ? Array.from(target)
    : new Array(rows).fill(null);
  data[name] = out;
  return out;
}
