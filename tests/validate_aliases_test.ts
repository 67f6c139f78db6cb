/** Aliased columns of a rank-deficient design are named with the relation to fix (lib/validate/aliases.ts). */
import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { columnAliases, describeAlias } from "../lib/validate/aliases.ts";
import { designRank } from "../lib/validate/rank.ts";

Deno.test("aliases: a duplicated column and a sum of two disjoint columns are named", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean()), {
        minLength: 12,
        maxLength: 40,
      }),
      (rows) => {
        // columns: c.v1, c.v2 (one slot: never both), a.v1, b.v1 = a.v1, d.v1 = c.v1 + c.v2, e.v1
        const x = rows.flatMap(([s, a, e]) => {
          const c1 = s === 1 ? 1 : 0, c2 = s === 2 ? 1 : 0, av = a ? 1 : 0;
          return [c1, c2, av, av, c1 + c2, e ? 1 : 0];
        });
        const n = rows.length, k = 6;
        const names = ["c.v1", "c.v2", "a.v1", "b.v1", "d.v1", "e.v1"];
        const rank = designRank(x, n, k);
        fc.pre(rank.dependent.length === 2 && rank.dependent[0] === 3 && rank.dependent[1] === 4);
        deepEqual(
          columnAliases(x, n, k, rank.dependent).map((a) => describeAlias(a, names)),
          ["b.v1 equals a.v1 in every row", "c.v1 + c.v2 = d.v1 in every row"],
        );
      },
    ),
    { seed: 7, numRuns: 60 },
  );
});
