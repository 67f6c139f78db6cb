/**
 * Which columns of a rank-deficient design are aliased, in words a user can
 * act on ("a.v1 equals b.v1 in every row", "c.v1 + c.v2 = d.v1 in every
 * row"). Off the hot path (only when validation already failed), so it uses
 * ml-matrix for the small solve.
 *
 * @module
 */

import { Matrix, solve } from "npm:ml-matrix@6.15.1";

/** One linear relation among design columns: `column` = sum of coefficient x term, every row. */
export interface ColumnAlias {
  /** The dependent column. */
  readonly column: number;
  /** Earlier independent columns and their coefficients (nonzero). Empty: the column is all zero. */
  readonly terms: readonly { readonly column: number; readonly coefficient: number }[];
}

/**
 * For every dependent column j (as found by the rank check, in order), the
 * combination of the earlier independent columns that reproduces it in every
 * row: the null-space vector of X with a 1 at j and support on those columns,
 * from the normal equations of x_j on them (an integer Gram matrix for a 0/1
 * design; ml-matrix LU). Coefficients within 1e-8 of an integer are rounded
 * to it; coefficients below 1e-9 in magnitude are dropped.
 *
 * @param design Row-major n x k design.
 * @param n Rows.
 * @param k Columns.
 * @param dependent Dependent columns (ascending), e.g. lib/validate `designRank(...).dependent`.
 * @returns One alias per dependent column.
 *
 * @example c = a + b in every row
 * ```ts
 * import { columnAliases } from "./aliases.ts";
 * import { deepEqual } from "node:assert/strict";
 * const x = Uint8Array.from([1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0]);
 * deepEqual(columnAliases(x, 4, 3, [2]), [{ column: 2, terms: [{ column: 0, coefficient: 1 }, { column: 1, coefficient: 1 }] }]);
 * ```
 */
export function columnAliases(
  design: ArrayLike<number>,
  n: number,
  k: number,
  dependent: readonly number[],
): ColumnAlias[] {
  const isDependent = new Set(dependent);
  return dependent.map((j) => {
    const basis: number[] = [];
    for (let l = 0; l < j; l++) if (!isDependent.has(l)) basis.push(l);
    let zero = true;
    for (let i = 0; i < n && zero; i++) zero = design[i * k + j] === 0;
    if (zero || basis.length === 0) return { column: j, terms: [] };
    const r = basis.length;
    const gram = Matrix.zeros(r, r);
    const rhs = Matrix.zeros(r, 1);
    for (let i = 0; i < n; i++) {
      const row = i * k;
      const xj = design[row + j]!;
      for (let a = 0; a < r; a++) {
        const xa = design[row + basis[a]!]!;
        if (xa === 0) continue;
        rhs.set(a, 0, rhs.get(a, 0) + xa * xj);
        for (let b = 0; b < r; b++) gram.set(a, b, gram.get(a, b) + xa * design[row + basis[b]!]!);
      }
    }
    const c = solve(gram, rhs).getColumn(0);
    const terms = basis.flatMap((l, a) => {
      let v = c[a]!;
      if (Math.abs(v - Math.round(v)) < 1e-8) v = Math.round(v);
      return Math.abs(v) < 1e-9 ? [] : [{ column: l, coefficient: v }];
    });
    return { column: j, terms };
  });
}

/**
 * The alias in words: "b equals a in every row", "a + b = c in every row",
 * "c is never present".
 *
 * @param alias From {@linkcode columnAliases}.
 * @param names Column names (version ids).
 * @returns One phrase.
 *
 * @example
 * ```ts
 * import { describeAlias } from "./aliases.ts";
 * import { deepEqual } from "node:assert/strict";
 * const names = ["c.v1", "c.v2", "d.v1"];
 * deepEqual(describeAlias({ column: 1, terms: [{ column: 0, coefficient: 1 }] }, names), "c.v2 equals c.v1 in every row");
 * deepEqual(describeAlias({ column: 2, terms: [{ column: 0, coefficient: 1 }, { column: 1, coefficient: 1 }] }, names), "c.v1 + c.v2 = d.v1 in every row");
 * ```
 */
export function describeAlias(alias: ColumnAlias, names: readonly string[]): string {
  const name = names[alias.column]!;
  if (alias.terms.length === 0) return `${name} is never present`;
  const [first] = alias.terms;
  if (alias.terms.length === 1 && first!.coefficient === 1) {
    return `${name} equals ${names[first!.column]} in every row`;
  }
  const expr = alias.terms.map(({ column, coefficient }, i) => {
    const mag = Math.abs(coefficient);
    const term = `${mag === 1 ? "" : `${Number(mag.toPrecision(6))} `}${names[column]}`;
    return i === 0
      ? (coefficient < 0 ? `-${term}` : term)
      : `${coefficient < 0 ? "-" : "+"} ${term}`;
  }).join(" ");
  return `${expr} = ${name} in every row`;
}
