import {
  SQL_COLUMN_KINDS,
  type SqlColumnKind,
  type SqlTableData,
  type SqlTableName,
} from "./sql_schema.ts";

/** Collects rows of one SQL table column by column; a missing field is NULL. */
export class TableBuilder {
  readonly #columns: { name: string; kind: SqlColumnKind; values: unknown[] }[];
  #rows = 0;

  constructor(table: SqlTableName) {
    this.#columns = Object.entries(SQL_COLUMN_KINDS[table]).map(([name, kind]) => ({
      name,
      kind,
      values: [],
    }));
  }

  /** Appends one row. */
  push(row: Readonly<Record<string, unknown>>): void {
    for (const col of this.#columns) col.values.push(row[col.name] ?? null);
    this.#rows++;
  }

  /** The collected data. */
  build(): SqlTableData {
    return { rows: this.#rows, columns: this.#columns };
  }
}
