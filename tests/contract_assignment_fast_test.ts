/**
 * The gate reader's fast structural check of an assignments.jsonl line is
 * never more lenient than AssignmentLineSchema (fast-check over edits of a
 * valid line and over arbitrary objects), and takes the common valid line.
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { AssignmentLineSchema, isAssignmentLineFast } from "../lib/contract/mod.ts";

Deno.test("isAssignmentLineFast accepts only lines the schema accepts", () => {
  const anyValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.constantFrom("", "val", "t1", "v1"),
    fc.constantFrom(0, 1, -1, 0.5, 2 ** 53, NaN, Infinity),
    fc.boolean(),
    fc.constant([]),
    fc.constant(["v1"]),
    fc.constant({}),
    fc.constant({ s1: "v1", s2: null }),
    fc.constant({ s1: 1 }),
    fc.constant({ s1: ["v1"] }),
    fc.constant({ s1: undefined }),
    fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant(null), fc.integer())),
  );
  const keys = ["split", "task_id", "sample_id", "slots", "extra"];
  const valid = { split: "val", task_id: "t1", sample_id: 0, slots: { s1: "v1", s2: null } };
  let accepted = 0;
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom(...keys), anyValue),
      fc.boolean(),
      (edits, fromValid) => {
        const line: Record<string, unknown> = fromValid ? { ...valid, ...edits } : { ...edits };
        for (const [k, v] of Object.entries(line)) if (v === undefined) delete line[k];
        if (isAssignmentLineFast(line)) {
          accepted++;
          ok(AssignmentLineSchema.safeParse(line).success, JSON.stringify(line));
        }
      },
    ),
    { numRuns: 3000 },
  );
  ok(accepted > 100, `only ${accepted} lines took the fast path`);
  deepEqual(isAssignmentLineFast(valid), true);
});
