import { startDuckDb } from "../core/sql_database.ts";
import type { Issue } from "../core/issue.ts";
import type { SourceTable } from "./table.ts";

/** Column types DuckDB's sniffer may give a column (others are read as text). */
const TYPED = new Set([
  "BOOLEAN",
  "TINYINT",
  "SMALLINT",
  "INTEGER",
  "BIGINT",
  "FLOAT",
  "DOUBLE",
  "VARCHAR",
]);

/** The parts of duckdb-wasm's Arrow results read here. */
interface CsvResult {
  readonly numRows: number;
  readonly schema: { readonly fields: readonly { readonly name: string }[] };
  getChild(name: string): {
    toArray(): ArrayLike<unknown>;
    get(row: number): unknown;
    isValid(row: number): boolean;
    readonly nullCount: number;
    readonly data?: readonly ArrowChunk[];
  } | null;
}

/** The buffers of one chunk of an Arrow column (a text column has offsets and bytes). */
interface ArrowChunk {
  readonly length: number;
  readonly valueOffsets?: unknown;
  readonly values?: unknown;
  readonly dictionary?: unknown;
}

/**
 * A text column without nulls whose bytes are all ASCII, as strings cut
 * from one decoded string per chunk (a byte offset is then a character
 * offset): the same strings as reading each cell (Arrow's `get`, one
 * UTF-8 decode per cell) in one decode per chunk. Null for any other
 * column, which is read cell by cell.
 */
function asciiTextColumn(chunks: readonly ArrowChunk[] | undefined, rows: number): string[] | null {
  if (chunks === undefined) return null;
  const out: string[] = new Array(rows);
  const decoder = new TextDecoder();
  let at = 0;
  for (const c of chunks) {
    const offsets = c.valueOffsets, bytes = c.values;
    if (
      !(offsets instanceof Int32Array) || !(bytes instanceof Uint8Array) ||
      c.dictionary !== undefined || offsets.length < c.length + 1
    ) return null;
    const start = offsets[0]!, end = offsets[c.length]!;
    for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return null;
    const text = decoder.decode(bytes.subarray(start, end));
    for (let i = 0; i < c.length; i++) {
      out[at++] = text.slice(offsets[i]! - start, offsets[i + 1]! - start);
    }
  }
  return at === rows ? out : null;
}

/** An open duckdb-wasm database that reads CSV and TSV files. */
export interface CsvReader {
  /** Reads one file; every cell as text (DuckDB's CSV reader with `all_varchar`). */
  /**
   * Reads one file. Columns named in `text` (ids, arm, status, lists) are
   * read as text; DuckDB's sniffer types the others (numbers parsed by
   * DuckDB, correctly rounded; a column with a non-numeric cell is text).
   */
  read(
    file: string,
    format: "csv" | "tsv",
    text?: ReadonlySet<string>,
  ): Promise<SourceTable | Issue>;
  close(): void;
}

/**
 * Starts duckdb-wasm (about 1.5 to 3 s) for reading delimited text with
 * DuckDB's CSV reader: RFC 4180 quoting, CRLF, a header row. The text
 * columns the caller names come back as text, so an id such as `0001` is
 * never read as the number 1; the others are typed by DuckDB's sniffer
 * (numbers and booleans; anything else is text), and when a cell past the
 * sniffer's sample does not fit, the file is read again as all text; an
 * empty cell is `null`. The module is imported here, on call, so no other
 * command loads DuckDB. Extension autoloading is off (nothing is ever
 * downloaded); the file's bytes are handed to DuckDB as a registered
 * buffer, so DuckDB opens no file itself.
 *
 * @returns The reader; call `close()` when done.
 */
export async function openCsvReader(): Promise<CsvReader> {
  const { db, conn } = await startDuckDb<CsvResult>();
  let n = 0;
  return {
    async read(file, format, text = new Set()) {
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(file);
      } catch (error) {
        return { code: "io_error", message: `cannot read: ${String(error)}`, file };
      }
      const name = `input-${n++}.${format}`;
      db.registerFileBuffer(name, bytes);
      try {
        const delim = format === "tsv" ? "\t" : ",";
        const options =
          `header = true, delim = '${delim}', quote = '"', escape = '"', auto_detect = true`;
        // DuckDB's sniffer types the columns from a sample; ids and other text fields, and any
        // type but numbers and booleans (dates, times), are read as text instead.
        const sniffed = conn.query(`describe select * from read_csv('${name}', ${options})`);
        const names = sniffed.getChild("column_name")!.toArray() as string[];
        const kinds = sniffed.getChild("column_type")!.toArray() as string[];
        const quoted = (x: string) => `'${x.replaceAll("'", "''")}'`;
        const types = names
          .filter((c, i) => text.has(c) || !TYPED.has(kinds[i]!))
          .map((c) => `${quoted(c)}: 'VARCHAR'`);
        // Into a table first: a SELECT whose reading fails part-way returns the rows read so far
        // without an error (duckdb-wasm 1.32), a CREATE TABLE fails whole.
        const table = `t_${n}`;
        try {
          conn.query(
            `create temp table ${table} as select * from read_csv('${name}', ${options}${
              types.length > 0 ? `, types = {${types.join(", ")}}` : ""
            })`,
          );
        } catch {
          // A cell past the sample that does not fit its column's sniffed type: read every
          // column as text, and gatelab's own checks name the row and column.
          conn.query(
            `create temp table ${table} as select * from read_csv('${name}', ${options}, all_varchar = true)`,
          );
        }
        const count = Number(
          conn.query(`select count(*) as n from ${table}`).getChild("n")!.get(0),
        );
        const result = conn.query(`select * from ${table}`);
        conn.query(`drop table ${table}`);
        if (result.numRows !== count) {
          throw new Error(`DuckDB returned ${result.numRows} of the ${count} rows of ${file}`);
        }
        const columns = result.schema.fields.map((f) => f.name);
        const data: Record<string, readonly unknown[]> = {};
        for (const c of columns) {
          const v = result.getChild(c)!;
          // toArray() ignores the validity bitmap (a null double reads as 0): keep nulls null.
          if (v.nullCount === 0) {
            data[c] = asciiTextColumn(v.data, result.numRows) ?? v.toArray() as unknown[];
          } else {
            const values = v.toArray() as ArrayLike<unknown>;
            const out: unknown[] = new Array(values.length);
            for (let i = 0; i < values.length; i++) out[i] = v.isValid(i) ? values[i] : null;
            data[c] = out;
          }
        }
        return { file, format, columns, rows: result.numRows, data };
      } catch (error) {
        const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
        return { code: "parse_error", message: `cannot read as ${format}: ${message}`, file };
      } finally {
        db.dropFile(name);
      }
    },
    close() {
      conn.close();
      db.reset();
    },
  };
}
