/**
 * Where each line of an import's traces.jsonl came from: the source file
 * and row (a table's row, one-based after the header, or an inspect_ai log
 * and its sample number), kept in typed arrays (no object per row), so an
 * issue that validation finds on a written line names the source row.
 *
 * @example
 * ```ts
 * import { RowOrigins } from "./row_origins.ts";
 * import { deepEqual } from "node:assert/strict";
 * const origins = new RowOrigins([{ file: "a.csv", row: 1 }, { file: "a.csv", row: 2 }, { file: "b.csv", row: 1 }]);
 * origins.record("c/gate/traces.jsonl", [2, 0]);
 * deepEqual(origins.at("c/gate/traces.jsonl", 1), { file: "b.csv", row: 1 });
 * deepEqual(origins.at("c/gate/traces.jsonl", 2), { file: "a.csv", row: 1 });
 * deepEqual(origins.at("c/gate/traces.jsonl", 3), undefined);
 * ```
 */
export class RowOrigins {
  readonly #files: string[] = [];
  readonly #fileOf: Int32Array;
  readonly #rowOf: Int32Array;
  readonly #lines = new Map<string, Int32Array>();

  /** @param rows The source rows, in the order the build numbers them. */
  constructor(rows: readonly { readonly file: string; readonly row: number }[]) {
    this.#fileOf = new Int32Array(rows.length);
    this.#rowOf = new Int32Array(rows.length);
    let last: string | null = null, index = -1;
    rows.forEach((r, i) => {
      if (r.file !== last) {
        last = r.file;
        index = this.#files.indexOf(r.file);
        if (index < 0) index = this.#files.push(r.file) - 1;
      }
      this.#fileOf[i] = index;
      this.#rowOf[i] = r.row;
    });
  }

  /** Records that line k (one-based) of `file` is the source row `rows[k - 1]` (an index). */
  record(file: string, rows: readonly number[]): void {
    this.#lines.set(file, Int32Array.from(rows));
  }

  /** The source of line `line` (one-based) of `file`, or undefined when not known. */
  at(file: string, line: number): { file: string; row: number } | undefined {
    const i = this.#lines.get(file)?.[line - 1];
    if (i === undefined) return undefined;
    return { file: this.#files[this.#fileOf[i]!]!, row: this.#rowOf[i]! };
  }
}
