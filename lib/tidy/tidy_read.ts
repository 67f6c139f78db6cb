/**
 * A tidy table read back from its Parquet file: the reverse of
 * `tidyParquet`, for readers that stack or compare tables (the study-wide
 * tables of `gate build`).
 *
 * @module
 */
import type { TidyColumn, TidyKind, TidyTable } from "./tidy_table.ts";

type Arrow = typeof import("npm:apache-arrow@17.0.0");

/** The kind of an Arrow field as gatelab's tidy tables write them; null for any other. */
function kindOf(arrow: Arrow, type: InstanceType<Arrow["DataType"]>): TidyKind | null {
  if (arrow.DataType.isUtf8(type) || arrow.DataType.isLargeUtf8(type)) return "str";
  if (arrow.DataType.isFloat(type)) return "f64";
  if (arrow.DataType.isInt(type)) return "i32";
  if (arrow.DataType.isBool(type)) return "bool";
  if (arrow.DataType.isList(type)) return "str_list";
  return null;
}

/**
 * A tidy Parquet file read back as a table (its columns' kinds from its
 * Arrow schema; missing values null).
 *
 * @param bytes The Parquet file.
 * @param name The table's name.
 * @returns The table.
 */
export async function readTidyParquet(bytes: Uint8Array, name: string): Promise<TidyTable> {
  const arrow = await import("npm:apache-arrow@17.0.0");
  const pq = await import("npm:parquet-wasm@0.8.0/bundler");
  const table = arrow.tableFromIPC(pq.readParquet(bytes).intoIPCStream());
  const columns: TidyColumn[] = table.schema.fields.map((field, i) => {
    const kind = kindOf(arrow, field.type) ?? "str";
    const vector = table.getChildAt(i)!;
    const values: unknown[] = new Array(table.numRows);
    for (let r = 0; r < table.numRows; r++) {
      const v = vector.get(r);
      values[r] = v === null || v === undefined
        ? null
        : kind === "str_list"
        ? [...(v as Iterable<unknown>)].map(String)
        : kind === "str"
        ? String(v)
        : kind === "i32" || kind === "f64"
        ? Number(v)
        : v;
    }
    return { name: field.name, kind, values };
  });
  return { name, rows: table.numRows, columns };
}
