/**
 * A flat table read from one input file, column by column, before any
 * mapping: the column names in file order and each column's values as the
 * reader gave them (strings for CSV and TSV, typed values for Parquet and
 * JSON Lines; `null` for an empty cell).
 */
export interface SourceTable {
  /** The file, as given by the user. */
  readonly file: string;
  /** How it was read. */
  readonly format: "csv" | "tsv" | "parquet" | "jsonl";
  /** Column names in file order. */
  readonly columns: readonly string[];
  /** SHA-256 of the file's bytes, when the reader had them (then they are not read again). */
  readonly sha256?: string;
  /** Number of data rows (a header line excluded). */
  readonly rows: number;
  /**
   * Each column's values, `rows` long: an array, or a Float64Array for a
   * column of numbers without an empty cell (no boxed number per cell).
   */
  readonly data: Readonly<Record<string, readonly unknown[] | Float64Array>>;
}

/** The format of a table file from its name (`.csv`, `.tsv`/`.tab`, `.parquet`/`.pq`, `.jsonl`/`.ndjson`), or null. */
export function tableFormat(file: string): SourceTable["format"] | null {
  const lower = file.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".tsv") || lower.endsWith(".tab")) return "tsv";
  if (lower.endsWith(".parquet") || lower.endsWith(".pq")) return "parquet";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  return null;
}
