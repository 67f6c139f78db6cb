/**
 * Test helper: reads a tidy table back, as CSV (a small RFC 4180 parser
 * written here, independent of the writer) and as Parquet (parquet-wasm
 * into apache-arrow), into columns of JS values: numbers by `Number`,
 * empty unquoted CSV fields and Parquet nulls as null.
 *
 * @module
 */
import { readParquet } from "parquet-wasm";
import { tableFromIPC } from "apache-arrow";

/** Header and rows of CSV text; `null` for an empty unquoted field. */
export function parseCsv(text: string): { header: string[]; rows: (string | null)[][] } {
  const records: (string | null)[][] = [];
  let record: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let field: string | null;
    if (text[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error("unterminated quote");
        value += text.slice(i, q);
        if (text[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      field = value;
    } else {
      let end = i;
      while (end < text.length && text[end] !== "," && text[end] !== "\n") end++;
      field = end === i ? null : text.slice(i, end);
      i = end;
    }
    record.push(field);
    if (text[i] === ",") i++;
    else if (text[i] === "\n" || i >= text.length) {
      i++;
      records.push(record);
      record = [];
    } else throw new Error(`unexpected character at ${i}`);
  }
  const [header, ...rows] = records;
  return { header: header!.map(String), rows };
}

/** A CSV file as columns: text, or numbers where `numeric` names the column. */
export async function readCsvColumns(
  path: string,
  numeric: readonly string[],
): Promise<Record<string, unknown[]>> {
  const { header, rows } = parseCsv(await Deno.readTextFile(path));
  const out: Record<string, unknown[]> = {};
  header.forEach((name, j) => {
    out[name] = rows.map((r) => {
      const v = r[j] ?? null;
      return v === null ? null : numeric.includes(name) ? Number(v) : v;
    });
  });
  return out;
}

/** A Parquet file as columns of JS values (lists as arrays) and its Arrow type names. */
export async function readParquetColumns(
  path: string,
): Promise<{ columns: Record<string, unknown[]>; types: Record<string, string> }> {
  const table = tableFromIPC(readParquet(await Deno.readFile(path)).intoIPCStream());
  const columns: Record<string, unknown[]> = {};
  const types: Record<string, string> = {};
  for (const field of table.schema.fields) {
    const vector = table.getChild(field.name)!;
    types[field.name] = String(field.type);
    columns[field.name] = [...vector].map((v) =>
      v !== null && typeof v === "object" && "toArray" in v
        ? [...(v as { toArray(): unknown[] }).toArray()]
        : v
    );
  }
  return { columns, types };
}
