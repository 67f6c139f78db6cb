/**
 * Typed columns of a SQL result. Conversion from Arrow, decided once:
 * DOUBLE/FLOAT, BIGINT, HUGEINT, DECIMAL and integer columns with NULLs
 * become `Float64Array` (NULL is NaN; 64-bit integers are exact up to
 * 2^53); integer columns of at most 32 bits without NULLs become
 * `Int32Array`; BOOLEAN becomes `(boolean | null)[]`; VARCHAR and every
 * other type become `(string | null)[]` (non-strings rendered with
 * `String`).
 *
 * @module
 */

/** One column of a {@linkcode QueryResult}. */
export type QueryColumn = Float64Array | Int32Array | (string | null)[] | (boolean | null)[];

/** The result of a SQL query as named typed columns. */
export interface QueryResult {
  /** Column names in result order. */
  readonly names: readonly string[];
  /** DuckDB/Arrow type names, e.g. `Float64`, `Int64`, `Utf8`. */
  readonly types: readonly string[];
  /** Each column with its values. */
  readonly columns: readonly QueryColumn[];
  /** Row count. */
  readonly numRows: number;
  /** The column of that name; throws when there is none. */
  column(name: string): QueryColumn;
  /** Rows as plain objects (NaN in numeric columns becomes null). */
  rows(): Record<string, number | string | boolean | null>[];
}

// Arrow type ids (apache-arrow `Type` enum); stable across Arrow versions.
const TYPE_INT = 2,
  TYPE_FLOAT = 3,
  TYPE_UTF8 = 5,
  TYPE_BOOL = 6,
  TYPE_DECIMAL = 7,
  TYPE_LARGE_UTF8 = 20;

/** Minimal structural view of an Arrow table (the copy inside duckdb-wasm). */
export interface ArrowTableLike {
  readonly numRows: number;
  readonly schema: {
    readonly fields: readonly {
      readonly name: string;
      readonly type: {
        readonly typeId: number;
        readonly bitWidth?: number;
        readonly isSigned?: boolean;
        readonly scale?: number;
      };
    }[];
  };
  getChildAt(i: number): { get(row: number): unknown; readonly nullCount: number } | null;
}

function decimalToNumber(value: unknown, scale: number): number {
  if (value === null || value === undefined) return NaN;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value) / 10 ** scale;
  // Decimal128 as four little-endian uint32 words, two's complement.
  const words = value as ArrayLike<number>;
  let big = 0n;
  for (let w = words.length - 1; w >= 0; w--) big = (big << 32n) | BigInt(words[w]! >>> 0);
  const bits = BigInt(words.length * 32);
  if (big >= 1n << (bits - 1n)) big -= 1n << bits;
  return Number(big) / 10 ** scale;
}

/**
 * Converts an Arrow table (as returned by duckdb-wasm) into a
 * {@linkcode QueryResult} with the conversion rules of this module.
 *
 * @param table The Arrow table.
 * @returns Typed columns.
 *
 * @example
 * ```ts
 * import { fromArrowTable } from "./query_result.ts";
 * import { tableFromArrays } from "npm:apache-arrow@17.0.0";
 * import { deepEqual } from "node:assert/strict";
 * const r = fromArrowTable(tableFromArrays({ x: Float64Array.from([1.5]), n: Int32Array.from([2]), s: ["a"] }));
 * deepEqual([r.names, r.types, r.rows()], [["x", "n", "s"], ["Float64", "Int32", "Dictionary<Int32, Utf8>"], [{ x: 1.5, n: 2, s: "a" }]]);
 * ```
 */
export function fromArrowTable(table: ArrowTableLike): QueryResult {
  const n = table.numRows;
  const names = table.schema.fields.map((f) => f.name);
  const types: string[] = [];
  const columns: QueryColumn[] = table.schema.fields.map((field, c) => {
    const vector = table.getChildAt(c)!;
    const type = field.type;
    types.push(String(type));
    const get = (i: number) => vector.get(i);
    if (
      type.typeId === TYPE_INT && (type.bitWidth ?? 64) <= 32 &&
      !(type.bitWidth === 32 && type.isSigned === false) && vector.nullCount === 0
    ) {
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = Number(get(i));
      return out;
    }
    if (type.typeId === TYPE_INT || type.typeId === TYPE_FLOAT) {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const v = get(i);
        out[i] = v === null || v === undefined ? NaN : Number(v);
      }
      return out;
    }
    if (type.typeId === TYPE_DECIMAL) {
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = decimalToNumber(get(i), type.scale ?? 0);
      return out;
    }
    if (type.typeId === TYPE_BOOL) {
      return Array.from({ length: n }, (_, i) => {
        const v = get(i);
        return v === null || v === undefined ? null : Boolean(v);
      });
    }
    return Array.from({ length: n }, (_, i) => {
      const v = get(i);
      if (v === null || v === undefined) return null;
      if (type.typeId === TYPE_UTF8 || type.typeId === TYPE_LARGE_UTF8) return v as string;
      return typeof v === "bigint"
        ? v.toString()
        : typeof v === "object"
        ? JSON.stringify(v, bigintSafe)
        : String(v);
    });
  });
  return {
    names,
    types,
    columns,
    numRows: n,
    column(name: string) {
      const i = names.indexOf(name);
      if (i < 0) {
        throw new RangeError(`Cannot get column "${name}": the result has ${names.join(", ")}`);
      }
      return columns[i]!;
    },
    rows() {
      return Array.from({ length: n }, (_, r) => {
        const row: Record<string, number | string | boolean | null> = {};
        names.forEach((name, c) => {
          const v = columns[c]![r]!;
          row[name] = typeof v === "number" && Number.isNaN(v) ? null : v;
        });
        return row;
      });
    },
  };
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
