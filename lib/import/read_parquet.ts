import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";
import { sha256Hex } from "../core/sha256.ts";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads a Parquet file with hyparquet (pure JavaScript, no WebAssembly;
 * chosen over parquet-wasm by measurement, docs/import.md): every
 * top-level column as a Float64Array when it is numbers without nulls,
 * else an array of values (numbers, bigints for INT64 beyond 2^53 (numbers
 * within it), strings, booleans, arrays for LIST columns, `null` for nulls), pages
 * uncompressed or in snappy, gzip, brotli or ZSTD (fzstd). A file
 * that is not Parquet or is truncated is a `parse_error` naming the file.
 *
 * @param file The Parquet file.
 * @returns The table, or the issue.
 */
export async function readParquetTable(file: string): Promise<SourceTable | Issue> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (error) {
    return { code: "io_error", message: `cannot read: ${String(error)}`, file };
  }
  const { parquetMetadata, parquetRead, parquetSchema } = await import("npm:hyparquet@1.33.0");
  // hyparquet decodes snappy, gzip and brotli itself; ZSTD (what gatelab's own tidy tables use,
  // and pyarrow's choice when asked for it) by fzstd, pure JavaScript by fflate's author.
  const { decompress } = await import("npm:fzstd@0.1.1");
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  try {
    const metadata = parquetMetadata(buffer as ArrayBuffer);
    const rows = Number(metadata.num_rows);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    // A column stays a Float64Array while every chunk of it is numbers without nulls (no boxed
    // number per cell); the first chunk that is not turns it into an array, null where unread.
    const data: Record<string, unknown[] | Float64Array> = {};
    const ranges: Record<string, [number, number][]> = {};
    for (const c of columns) ranges[c] = [];
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
    await parquetRead({
      file: buffer as ArrayBuffer,
      metadata,
      compressors: {
        ZSTD: (input: Uint8Array, outputLength: number) =>
          decompress(input, new Uint8Array(outputLength)),
      },
      // An INT64 cell (a bigint, what pandas' int64 columns are) within the safe range is kept as
      // the number it equals: the importer reads both alike, and a small integer is no object, so
      // a table's 0/1 mask columns do not keep millions of bigints alive.
      onChunk: ({ columnName, columnData, rowStart }) => {
        const n = columnData.length;
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
    });
    for (const c of columns) {
      const filled = ranges[c]!.reduce((k, [start, end]) => k + end - start, 0);
      if (!(data[c] instanceof Float64Array) || filled !== rows) asArray(c);
    }
    return { file, format: "parquet", columns, rows, data, sha256: sha256Hex(bytes) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      code: "parse_error",
      message: `cannot read as Parquet (not a Parquet file, or truncated): ${message}`,
      file,
    };
  }
}
