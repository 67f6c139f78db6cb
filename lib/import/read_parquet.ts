import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";
import { sha256Hex } from "../core/sha256.ts";
import { InputBudget } from "./limits.ts";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads a Parquet file with hyparquet (pure JavaScript, no WebAssembly;
 * chosen over parquet-wasm by measurement, docs/import.md): every
 * top-level column as a Float64Array when it is numbers without nulls,
 * else an array of values (numbers, bigints for INT64 beyond 2^53 (numbers
 * within it), strings, booleans, arrays for LIST columns, `null` for nulls), pages
 * uncompressed or in snappy or ZSTD (fzstd). A file that is not Parquet or
 * is truncated is a `parse_error` naming the file.
 *
 * The limits are checked before anything is decoded (lib/import/limits.ts):
 * the file's size, the rows its metadata declares and the bytes its
 * column chunks declare uncompressed; a page that decompresses to more than
 * declared, or a row group with more values than its rows, is refused as it
 * is met. The file is decoded one row group at a time, so only one row
 * group's decoded pages are held beside the columns.
 *
 * @param file The Parquet file.
 * @param budget What is left of the import's limits (taken from here).
 * @returns The table, or the issue.
 */
export async function readParquetTable(
  file: string,
  budget: InputBudget = new InputBudget(),
): Promise<SourceTable | Issue> {
  let bytes: Uint8Array;
  try {
    const size = (await Deno.stat(file)).size;
    if (size > budget.bytesLeft) return budget.takeBytes(file, size)!;
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  const { parquetMetadata, parquetRead, parquetSchema, snappyUncompress } = await import(
    "npm:hyparquet@1.33.0"
  );
  // hyparquet decodes snappy itself; ZSTD (what gatelab's own tidy tables use, and pyarrow's
  // choice when asked for it) by fzstd, pure JavaScript by fflate's author.
  const { decompress } = await import("npm:fzstd@0.1.1");
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const notParquet = (message: string): Issue => ({
    code: "parse_error",
    message: `cannot read as Parquet (not a Parquet file, or truncated): ${message}`,
    file,
  });
  // Every page is decompressed into what its header declares; past what the column chunks
  // declare in all, the file is refused (a forged header would otherwise size the allocation).
  let decompressed = 0, overflow = false, allowed = 0;
  const checked =
    (decode: (input: Uint8Array, output: Uint8Array) => Uint8Array | void) =>
    (input: Uint8Array, outputLength: number): Uint8Array => {
      decompressed += outputLength;
      if (decompressed > allowed) {
        overflow = true;
        throw new RangeError("decompressed pages larger than declared");
      }
      const output = new Uint8Array(outputLength);
      return decode(input, output) ?? output;
    };
  try {
    const metadata = parquetMetadata(buffer as ArrayBuffer);
    const rows = Number(metadata.num_rows);
    const groups = metadata.row_groups.map((g) => Number(g.num_rows));
    if (groups.reduce((a, b) => a + b, 0) !== rows) {
      return notParquet(`its row groups hold ${groups.join(" + ")} rows, its metadata ${rows}`);
    }
    const declared = metadata.row_groups.reduce(
      (n, g) =>
        n + g.columns.reduce((k, c) => k + Number(c.meta_data?.total_uncompressed_size ?? 0), 0),
      0,
    );
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    const refused = budget.takeRows(file, rows) ??
      budget.takeBytes(file, Math.max(declared, bytes.length), "declares") ??
      budget.takeHeap(file, columns.length);
    if (refused) return refused;
    allowed = Math.max(declared, bytes.length);
    const sink = columnSink(columns, rows);
    let start = 0;
    for (const groupRows of groups) {
      await parquetRead({
        file: buffer as ArrayBuffer,
        metadata,
        rowStart: start,
        rowEnd: start + groupRows,
        compressors: {
          ZSTD: checked((input, output) => decompress(input, output)),
          SNAPPY: checked((input, output) => snappyUncompress(input, output)),
        },
        onChunk: sink.chunk,
      });
      start += groupRows;
    }
    if (sink.overfilled) return notParquet("a row group holds more values than its rows");
    return { file, format: "parquet", columns, rows, data: sink.done(), sha256: sha256Hex(bytes) };
  } catch (error) {
    if (overflow) return budget.pastBytes(file, allowed);
    return notParquet(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The columns of a Parquet file as its chunks arrive: a column stays a
 * Float64Array while every chunk of it is numbers without nulls (no boxed
 * number per cell); the first chunk that is not turns it into an array,
 * null where unread. An INT64 cell (a bigint, what pandas' int64 columns
 * are) within the safe range is kept as the number it equals: the importer
 * reads both alike, and a small integer is no object, so a table's 0/1
 * mask columns do not keep millions of bigints alive. Values past `rows`
 * are dropped and counted (`overfilled`): a callback must not throw.
 */
function columnSink(columns: readonly string[], rows: number) {
  const data: Record<string, unknown[] | Float64Array> = {};
  const ranges: Record<string, [number, number][]> = {};
  for (const c of columns) ranges[c] = [];
  let overfilled = false;
  const asArray = (c: string): unknown[] => {
    const target = data[c];
    if (Array.isArray(target)) return target;
    const out: unknown[] = new Array(rows).fill(null);
    if (target instanceof Float64Array) {
      for (const [start, end] of ranges[c]!) for (let i = start; i < end; i++) out[i] = target[i];
    }
    data[c] = out;
    return out;
  };
  return {
    get overfilled() {
      return overfilled;
    },
    chunk: (
      { columnName, columnData, rowStart }: {
        columnName: string;
        columnData: ArrayLike<unknown>;
        rowStart: number;
      },
    ) => {
      const n = columnData.length;
      if (rowStart + n > rows || ranges[columnName] === undefined) {
        overfilled = true;
        return;
      }
      let numbers = data[columnName] === undefined || data[columnName] instanceof Float64Array;
      for (let i = 0; numbers && i < n; i++) {
        const v = columnData[i];
        numbers = typeof v === "number" ||
          (typeof v === "bigint" && v <= MAX_SAFE && v >= -MAX_SAFE);
      }
      if (numbers) {
        const target = (data[columnName] ??= new Float64Array(rows)) as Float64Array;
        for (let i = 0; i < n; i++) target[rowStart + i] = Number(columnData[i]);
        ranges[columnName]!.push([rowStart, rowStart + n]);
        return;
      }
      const target = asArray(columnName);
      for (let i = 0; i < n; i++) {
        const v = columnData[i];
        target[rowStart + i] = typeof v === "bigint" && v <= MAX_SAFE && v >= -MAX_SAFE
          ? Number(v)
          : v ?? null;
      }
    },
    done: () => {
      for (const c of columns) {
        const filled = ranges[c]!.reduce((k, [start, end]) => k + end - start, 0);
        if (!(data[c] instanceof Float64Array) || filled !== rows) asArray(c);
      }
      return data;
    },
  };
}
