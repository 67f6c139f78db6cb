/** Selection rule (docs/analysis.md, "Selection"): family winners, then positive top-K. */
import { deepEqual, ok, throws } from "node:assert/strict";
import fc from "fast-check";
import { compileSelection, selectVersions } from "../lib/select/mod.ts";
import type { DesignColumn, Role } from "../lib/core/types.ts";

const col = (version_id: string, slot_id: string, role: Role): DesignColumn => ({
  version_id,
  slot_id,
  chunk_id: version_id,
  role,
});

const online: DesignColumn[] = [
  col("cur-1", "cur-1", "current"),
  col("cur-2", "cur-2", "current"),
  col("add-1", "add-1", "add"),
  col("rw1@old", "rw1", "old"),
  col("rw1@new", "rw1", "new"),
  col("rw2@old", "rw2", "old"),
  col("rw2@new1", "rw2", "new"),
  col("rw2@new2", "rw2", "new"),
];

Deno.test("select: a tie inside a REWRITE family keeps old", () => {
  const out = selectVersions(online, [0.1, 0.05, 0.02, 0.3, 0.3, -0.1, -0.2, -0.3], 8);
  const d = Object.fromEntries(out.decisions.map((x) => [x.version_id, x]));
  deepEqual(d["rw1@old"]!.status, "selected");
  deepEqual(d["rw1@old"]!.retired, false);
  deepEqual(d["rw1@new"]!.status, "rewrite_loser");
  deepEqual(d["rw1@new"]!.rank, null);
  deepEqual(d["rw1@new"]!.retired, false);
  deepEqual(out.selected, ["rw1@old", "cur-1", "cur-2", "add-1"]);
});

Deno.test("select: a family with two new versions keeps only its best; a positive loser uses no budget", () => {
  // rw2: old 0.05, new1 0.4, new2 0.35 -> new1 wins; new2 is positive but a loser.
  const out = selectVersions(online, [0.1, -0.05, 0.2, 0.1, 0.0, 0.05, 0.4, 0.35], 2);
  const d = Object.fromEntries(out.decisions.map((x) => [x.version_id, x]));
  deepEqual(out.selected, ["rw2@new1", "add-1"]);
  deepEqual(d["rw2@new2"]!.status, "rewrite_loser");
  deepEqual(d["rw2@old"]!.status, "rewrite_loser");
  deepEqual(d["rw2@old"]!.retired, true);
  deepEqual(d["rw1@old"]!.status, "budget_excluded"); // 0.1 ties cur-1; "cur-1" < "rw1@old"
  deepEqual(d["rw1@old"]!.retired, true);
  deepEqual(d["cur-1"]!.rank, 3);
  deepEqual(d["rw1@old"]!.rank, 4);
  deepEqual(d["cur-2"]!.status, "non_positive");
  deepEqual(d["cur-2"]!.retired, true);
  // 8 columns - 3 rewrite losers = 5 survivors, ranked 1..5
  deepEqual(
    out.decisions.filter((x) => x.rank !== null).map((x) => x.rank).sort(),
    [1, 2, 3, 4, 5],
  );
});

Deno.test("select: fewer positive survivors than K selects only the positives", () => {
  const cols = ["a", "b", "c", "d"].map((v) => col(v, v, "add"));
  const out = selectVersions(cols, [0.3, -0.1, 0, 0.2], 3);
  deepEqual(out.selected, ["a", "d"]);
  deepEqual(out.decisions.map((x) => x.status), [
    "selected",
    "non_positive",
    "non_positive",
    "selected",
  ]);
  deepEqual(out.decisions.map((x) => x.rank), [1, 4, 3, 2]);
});

Deno.test("select: every alpha non-positive selects nothing and retires current chunks", () => {
  const cols = [col("a", "a", "current"), col("b", "b", "add"), col("c", "c", "current")];
  const out = selectVersions(cols, [-0.1, 0, -0], 2);
  deepEqual(out.selected, []);
  ok(out.decisions.every((x) => x.status === "non_positive"));
  deepEqual(out.decisions.map((x) => x.retired), [true, false, true]);
});

Deno.test("select: K larger than the survivors is fine", () => {
  const cols = [col("a", "a", "add"), col("b@old", "b", "old"), col("b@new", "b", "new")];
  const out = selectVersions(cols, [0.1, 0.2, 0.3], 10);
  deepEqual(out.selected, ["b@new", "a"]);
  deepEqual(out.decisions.map((x) => x.status), ["selected", "rewrite_loser", "selected"]);
  deepEqual(out.decisions.map((x) => x.retired), [false, true, false]);
});

Deno.test("select: positives beyond K are budget_excluded; bad input is refused", () => {
  const cols = ["a", "b", "c"].map((v) => col(v, v, "add"));
  const out = selectVersions(cols, [0.3, 0.2, 0.1], 2);
  deepEqual(out.decisions.map((x) => x.status), ["selected", "selected", "budget_excluded"]);
  throws(() => selectVersions(cols, [0.1, NaN, 0.2], 1), /coefficient of b is NaN/);
  throws(() => selectVersions(cols, [0.1, 0.2], 1), /2 coefficients for 3 columns/);
  throws(() => selectVersions(cols, [0.1, 0.2, 0.3], 1.5), /budget 1.5/);
  throws(() => selectVersions([cols[0]!, cols[0]!], [0.1, 0.2], 1), /not unique/);
});

/** Random layouts: plain chunks and families with one old and 1-3 new versions. */
const layout = fc
  .array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 10 })
  .map((slots) => {
    const cols: DesignColumn[] = [];
    slots.forEach((news, s) => {
      if (news === 0) cols.push(col(`s${s}`, `s${s}`, s % 2 ? "current" : "add"));
      else {
        cols.push(col(`s${s}@old`, `s${s}`, "old"));
        for (let m = 0; m < news; m++) cols.push(col(`s${s}@new${m}`, `s${s}`, "new"));
      }
    });
    return cols;
  });
const scenario = layout.chain((cols) =>
  fc.record({
    cols: fc.constant(cols),
    // Few distinct values so ties are common.
    alpha: fc.array(fc.integer({ min: -3, max: 3 }).map((v) => v / 10), {
      minLength: cols.length,
      maxLength: cols.length,
    }),
    k: fc.integer({ min: 0, max: 12 }),
    perm: fc.array(fc.nat(), { minLength: cols.length, maxLength: cols.length }),
  })
);

Deno.test("select: properties (subset of positive survivors, size <= K, one per family, order-invariant)", () => {
  fc.assert(
    fc.property(scenario, ({ cols, alpha, k, perm }) => {
      const out = selectVersions(cols, alpha, k);
      const d = new Map(out.decisions.map((x) => [x.version_id, x]));
      ok(out.selected.length <= k);
      const slots = new Set<string>();
      let last = Infinity;
      for (const id of out.selected) {
        const x = d.get(id)!;
        ok(x.alpha > 0 && x.status === "selected" && x.rank !== null);
        ok(!slots.has(x.slot_id));
        slots.add(x.slot_id);
        ok(x.alpha <= last);
        last = x.alpha;
      }
      // Every survivor with positive alpha and rank <= K is selected.
      for (const x of out.decisions) {
        if (x.rank !== null && x.alpha > 0 && x.rank <= k) ok(out.selected.includes(x.version_id));
        ok(x.retired === ((x.role === "current" || x.role === "old") && x.status !== "selected"));
      }
      // Exactly one survivor per slot.
      const survivorsPerSlot = new Map<string, number>();
      for (const x of out.decisions) {
        if (x.rank !== null) {
          survivorsPerSlot.set(x.slot_id, (survivorsPerSlot.get(x.slot_id) ?? 0) + 1);
        }
      }
      ok([...survivorsPerSlot.values()].every((c) => c === 1));
      deepEqual(survivorsPerSlot.size, new Set(cols.map((c) => c.slot_id)).size);
      // Invariant to column order.
      const idx = cols.map((_, j) => j).sort((a, b) => perm[a]! - perm[b]! || a - b);
      const shuffled = selectVersions(idx.map((j) => cols[j]!), idx.map((j) => alpha[j]!), k);
      deepEqual(shuffled.selected, out.selected);
      const d2 = new Map(shuffled.decisions.map((x) => [x.version_id, x]));
      for (const [id, x] of d) deepEqual(d2.get(id), x);
    }),
    { numRuns: 500 },
  );
});

Deno.test("select: the compiled fast path agrees with selectVersions and reuses its buffers", () => {
  fc.assert(
    fc.property(scenario, ({ cols, alpha, k }) => {
      const rule = compileSelection(cols);
      const ranks = new Int32Array(cols.length);
      const order = new Int32Array(cols.length);
      const { selected } = rule.rank(alpha, k, ranks, order);
      const out = selectVersions(cols, alpha, k);
      deepEqual(Array.from(order.subarray(0, selected), (j) => cols[j]!.version_id), out.selected);
      deepEqual([...ranks].map((r) => (r === 0 ? null : r)), out.decisions.map((x) => x.rank));
    }),
    { numRuns: 200 },
  );
});

Deno.test("select: a tolerance makes near-equal alphas ties and tiny alphas non-positive", () => {
  // rw1: new is 1e-15 above old -> a tie within tau = 1e-12 keeps old; add-1 at 5e-13 <= tau is not
  // positive; cur-1 and cur-2 differ by 1e-15 -> one tie group, ordered by version id.
  const alpha = [0.2 + 1e-15, 0.2, 5e-13, 0.3, 0.3 + 1e-15, -0.1, -0.2, -0.3];
  const exact = selectVersions(online, alpha, 8);
  deepEqual(exact.selected, ["rw1@new", "cur-1", "cur-2", "add-1"]);
  const tied = selectVersions(online, alpha, 8, { tolerance: 1e-12 });
  deepEqual(tied.selected, ["rw1@old", "cur-1", "cur-2"]);
  const d = Object.fromEntries(tied.decisions.map((x) => [x.version_id, x.status]));
  deepEqual([d["rw1@new"], d["add-1"]], ["rewrite_loser", "non_positive"]);
  // cur-2 now 1e-15 above cur-1: exact comparison lets it take the second slot; the tie does not.
  const swapped = [0.2, 0.2 + 1e-15, ...alpha.slice(2)];
  deepEqual(selectVersions(online, swapped, 2).selected, ["rw1@new", "cur-2"]);
  deepEqual(selectVersions(online, swapped, 2, { tolerance: 1e-12 }).selected, [
    "rw1@old",
    "cur-1",
  ]);
  const ranks = new Int32Array(8), order = new Int32Array(8);
  const fast = compileSelection(online, { tolerance: 1e-12 }).rank(alpha, 8, ranks, order);
  deepEqual(fast.selected, 3);
  deepEqual([...order.subarray(0, 3)].map((j) => online[j]!.version_id), tied.selected);
  throws(() => compileSelection(online, { tolerance: -1 }), /tolerance -1/);
});

Deno.test("selectVersions: a version not estimable is never ranked or selected; its family picks among the others", () => {
  const columns = [
    { version_id: "s@old", slot_id: "s", chunk_id: "s", role: "old" as const },
    { version_id: "s@new", slot_id: "s", chunk_id: "s2", role: "new" as const },
    { version_id: "a", slot_id: "a", chunk_id: "a", role: "add" as const },
    { version_id: "b", slot_id: "b", chunk_id: "b", role: "add" as const },
  ];
  // s@new would win its family and a would rank first: both are not estimable.
  const out = selectVersions(columns, [0.1, 0.5, 0.9, 0.2], 1, { notEstimable: [1, 2] });
  deepEqual(out.selected, ["b"]);
  deepEqual(out.decisions.map((d) => [d.version_id, d.status, d.rank, d.retired]), [
    ["s@old", "budget_excluded", 2, true],
    ["s@new", "not_estimable", null, false],
    ["a", "not_estimable", null, false],
    ["b", "selected", 1, false],
  ]);
});
