/**
 * How much an import reads (docs/import.md, "Limits"): at most `--max-rows`
 * rows over all its input files (1,000,000 by default) and 512 bytes of
 * input per allowed row (file sizes, and the data a Parquet file
 * decompresses to). Each reader checks what it can before decoding (a
 * file's size, a Parquet file's declared rows and sizes) and counts the
 * rest as it reads, so a file past the limit is one line naming it, its
 * size and the limit, never an out-of-memory crash.
 *
 * @module
 */
import type { Issue } from "../core/issue.ts";
import { DEFAULTS } from "../core/defaults.ts";

/** Rows an import reads at most, over all its input files, unless `--max-rows` says otherwise. */
export const DEFAULT_MAX_ROWS: number = DEFAULTS.importMaxRows;

/** Bytes of input an import reads per allowed row. */
export const BYTES_PER_ROW = 512;

/**
 * What is left of an import's limits as its files are read: rows and bytes.
 *
 * @example
 * ```ts
 * import { InputBudget } from "./limits.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 * const budget = new InputBudget(10);
 * equal(budget.maxBytes, 5120);
 * equal(budget.takeRows("a.csv", 6), null);
 * deepEqual(budget.takeRows("b.parquet", 5)?.message,
 *   "declares 5 rows (11 with the files before it); the import reads at most 10 rows (all input files together); --max-rows N raises the limit");
 * deepEqual(budget.pastRows("c.csv").message,
 *   "has more than 4 rows (more than 10 with the files before it); the import reads at most 10 rows (all input files together); --max-rows N raises the limit");
 * ```
 */
export class InputBudget {
  #rows = 0;
  #bytes = 0;

  /** @param maxRows Rows the import reads at most. */
  constructor(readonly maxRows: number = DEFAULT_MAX_ROWS) {}

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
