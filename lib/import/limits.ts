/**
 * How much an import reads (docs/import.md, "Limits"): at most `--max-rows`
 * rows over all its input files (1,000,000 by default), 512 bytes of
 * input per allowed row (file sizes, and the data a Parquet file
 * decompresses to), and no more rows than the process's JavaScript heap
 * holds once they are built into runs and gates (`HEAP_BYTES_PER_ROW`,
 * whatever `--max-rows` says). Each reader checks what it can before
 * decoding (a file's size, a Parquet file's declared rows, columns and
 * sizes) and counts the rest as it reads, so a file past a limit is one
 * line naming it, its size and the limit, never an out-of-memory crash.
 *
 * @module
 */
import { getHeapStatistics } from "node:v8";
import type { Issue } from "../core/issue.ts";
import { DEFAULTS } from "../core/defaults.ts";

/** Rows an import reads at most, over all its input files, unless `--max-rows` says otherwise. */
export const DEFAULT_MAX_ROWS: number = DEFAULTS.importMaxRows;

/** Bytes of input an import reads per allowed row. */
export const BYTES_PER_ROW = 512;

/**
 * JavaScript heap an import needs per row read, and per row and column:
 * the rows' objects, the built runs' and gates' text and their validation.
 * Measured at 1,000,000 rows by the heap (`--max-old-space-size`) that ran
 * the import to its end and the one that ran out: 4 columns needed 513-768
 * MiB, 24 columns (bench/gen_import_table.py) 641-832 MiB; this estimate
 * (832 and 1,152 bytes a row) is above both.
 */
export const HEAP_BYTES_PER_ROW = { row: 768, column: 16 } as const;

/** The heap an import of `rows` rows of `columns` columns needs, by {@linkcode HEAP_BYTES_PER_ROW}. */
export function importHeapBytes(rows: number, columns: number): number {
  return rows * (HEAP_BYTES_PER_ROW.row + HEAP_BYTES_PER_ROW.column * columns);
}

/**
 * What is left of an import's limits as its files are read: rows and bytes.
 *
 * @example
 * ```ts
 * import { InputBudget } from "./limits.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const budget = new InputBudget(10, 2 ** 30);
 * equal(budget.maxBytes, 5120);
 * equal(budget.takeRows("a.csv", 6), null);
 * deepEqual(budget.takeRows("b.parquet", 5)?.message,
 *   "declares 5 rows (11 with the files before it); the import reads at most 10 rows (all input files together); --max-rows N raises the limit");
 * deepEqual(budget.pastRows("c.csv").message,
 *   "has more than 4 rows (more than 10 with the files before it); the import reads at most 10 rows (all input files together); --max-rows N raises the limit");
 * // A heap of 1 GiB: 1,000,000 rows of 4 columns (832 bytes each) fit, 2,000,000 do not.
 * const heap = new InputBudget(5_000_000, 2 ** 30);
 * equal(heap.takeRows("a.parquet", 1_000_000) ?? heap.takeHeap("a.parquet", 4), null);
 * deepEqual(heap.takeRows("b.parquet", 1_000_000) ?? heap.takeHeap("b.parquet", 4), {
 *   code: "usage_error",
 *   message: "2000000 rows (all input files together) of 4 columns need about 1587 MiB of JavaScript heap (768 bytes a row and 16 a column); this process's heap is 1024 MiB: add --max-old-space-size=2048 to the gate task's --v8-flags",
 *   file: "b.parquet",
 * });
 * ```
 */
export class InputBudget {
  #rows = 0;
  #bytes = 0;
  #columns = 0;

  /**
   * @param maxRows Rows the import reads at most.
   * @param heapBytes The JavaScript heap the import may fill (default: this process's,
   *   V8's `heap_size_limit`).
   */
  constructor(
    readonly maxRows: number = DEFAULT_MAX_ROWS,
    readonly heapBytes: number = getHeapStatistics().heap_size_limit,
  ) {}

  /** Bytes of input the import reads at most. */
  get maxBytes(): number {
    return this.maxRows * BYTES_PER_ROW;
  }

  /** Rows still allowed. */
  get rowsLeft(): number {
    return this.maxRows - this.#rows;
  }

  /** Bytes still allowed. */
  get bytesLeft(): number {
    return this.maxBytes - this.#bytes;
  }

  /**
   * Counts `rows` more of `file` (read, or declared by its metadata); an
   * issue (nothing counted) when they pass the limit.
   */
  takeRows(file: string, rows: number): Issue | null {
    if (this.#rows + rows <= this.maxRows) {
      this.#rows += rows;
      return null;
    }
    const before = this.#rows > 0 ? ` (${this.#rows + rows} with the files before it)` : "";
    return this.#rowIssue(file, `declares ${rows} rows${before}`);
  }

  /**
   * Counts the second attempt of each of the `rows` paired rows of `file`,
   * whose rows were counted as read: a paired row unfolds into two.
   */
  takePairedRows(file: string, rows: number): Issue | null {
    if (this.#rows + rows <= this.maxRows) {
      this.#rows += rows;
      return null;
    }
    const others = this.#rows - rows;
    const before = others > 0 ? ` (${others + 2 * rows} with the files before it)` : "";
    return this.#rowIssue(
      file,
      `holds ${rows} paired rows, ${2 * rows} attempt rows once unfolded${before}`,
    );
  }

  /**
   * The issue when the rows taken so far, as wide as the widest file
   * (`columns` for this one), would need more heap than the import has
   * ({@linkcode importHeapBytes}); null when they fit.
   */
  takeHeap(file: string, columns: number): Issue | null {
    this.#columns = Math.max(this.#columns, columns);
    const need = importHeapBytes(this.#rows, this.#columns);
    const rows = `${this.#rows} rows (all input files together)`;
    return need <= this.heapBytes ? null : this.#heapIssue(file, rows, need);
  }

  /**
   * While `file` is read: the issue when the rows taken so far and the
   * `rows` read of it, of `columns` columns, already need more heap than
   * the import has (nothing counted), so the reading stops there instead of
   * filling the heap; null when they fit, and once the file is read to its
   * end (`takeHeap` then counts its rows exactly). `done` of the file's
   * `size` bytes are read: its rows are estimated from them for the heap it
   * needs.
   */
  checkHeap(
    file: string,
    rows: number,
    columns: number,
    read: { readonly done: number; readonly size: number },
  ): Issue | null {
    if (read.done >= read.size) return null;
    const wide = Math.max(this.#columns, columns);
    if (importHeapBytes(this.#rows + rows, wide) <= this.heapBytes) return null;
    const whole = Math.ceil(rows * (read.size / Math.max(1, read.done)));
    return this.#heapIssue(
      file,
      `more than ${this.#rows + rows} rows (all input files together; about ${
        this.#rows + whole
      } by this file's size)`,
      importHeapBytes(this.#rows + whole, wide),
      wide,
    );
  }

  #heapIssue(file: string, rows: string, need: number, columns = this.#columns): Issue {
    const mib = (bytes: number) => Math.ceil(bytes / 2 ** 20);
    const { row, column } = HEAP_BYTES_PER_ROW;
    const flag = `--max-old-space-size=${Math.ceil(need / 2 ** 30) * 1024}`;
    return {
      code: "usage_error",
      message: `${rows} of ${columns} columns need ` +
        `about ${mib(need)} MiB of JavaScript heap (${row} bytes a row and ${column} a column); ` +
        `this process's heap is ${
          mib(this.heapBytes)
        } MiB: add ${flag} to the gate task's --v8-flags`,
      file,
    };
  }

  /** The issue of a file found, as it is read, to have more rows than are left. */
  pastRows(file: string): Issue {
    const before = this.#rows > 0 ? ` (more than ${this.maxRows} with the files before it)` : "";
    return this.#rowIssue(file, `has more than ${this.rowsLeft} rows${before}`);
  }

  #rowIssue(file: string, what: string): Issue {
    return {
      code: "usage_error",
      message:
        `${what}; the import reads at most ${this.maxRows} rows (all input files together); --max-rows N raises the limit`,
      file,
    };
  }

  /**
   * Counts `bytes` more of `file`: its size (`is`), or the data its
   * metadata says it decompresses to (`declares`); an issue (nothing
   * counted) when they pass the limit.
   */
  takeBytes(file: string, bytes: number, how: "is" | "declares" = "is"): Issue | null {
    if (this.#bytes + bytes <= this.maxBytes) {
      this.#bytes += bytes;
      return null;
    }
    const before = this.#bytes > 0 ? ` (${this.#bytes + bytes} with the files before it)` : "";
    return this.#byteIssue(
      file,
      `${how === "is" ? "is" : "declares its data as"} ${bytes} bytes${before}`,
    );
  }

  /** The issue of a file found, as it is decoded, to hold more than `bytes` of data. */
  pastBytes(file: string, bytes: number): Issue {
    return this.#byteIssue(file, `decompresses to more than the ${bytes} bytes it declares`);
  }

  #byteIssue(file: string, what: string): Issue {
    return {
      code: "usage_error",
      message:
        `${what}; the import reads at most ${this.maxBytes} bytes of input (${BYTES_PER_ROW} per row of --max-rows ${this.maxRows}); a larger --max-rows raises the limit`,
      file,
    };
  }
}
