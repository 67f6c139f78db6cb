import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads a Parquet file with hyparquet (pure JavaScript, no WebAssembly;
 * chosen over parquet-wasm by measurement, docs/import.md): every
 * top-level column as an array of values (numbers, bigints for INT64
 * beyond 2^53 (numbers within it),
 * strings, booleans, arrays for LIST columns, `null` for nulls), pages
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
    const data: Record<string, unknown[]> = {};
    for (const c of columns) data[c] = new Array(rows).fill(null);
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
        const target = data[columnName]!;
        for (let i = 0; i < columnData.length; i++) {
          const v = columnData[i];
          target[rowStart + i] = typeof v === "bigint" && v <= MAX_SAFE && v >= -MAX_SAFE
            ? Number(v)
            : v ?? null;
        }
      },
    });
    return { file, format: "parquet", columns, rows, data };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      code: "parse_error",
      message: `cannot read as Parquet (not a Parquet file, or truncated): ${message}`,
      file,
    };
  }
}
