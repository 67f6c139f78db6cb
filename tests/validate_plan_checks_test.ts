/** The gate-plan checks and the pooled columns (lib/validate/plan_checks.ts), on in-memory plans. */
import { deepEqual } from "node:assert/strict";
import type { GatePlan } from "../lib/contract/gate.ts";
import { gatePlanChecks } from "../lib/validate/plan_checks.ts";

type Plan = Pick<GatePlan, "stage" | "budget_k" | "slots">;
type Role = "current" | "add" | "old" | "new";
const slot = (slot_id: string, ...versions: [string, Role][]) => ({
  slot_id,
  versions: versions.map(([version_id, role]) => ({
    version_id,
    chunk_id: `k-${version_id}`,
    role,
  })),
});
const adds = (n: number) =>
  Array.from({ length: n }, (_, i) => slot(`s${i + 1}`, [`c${i + 1}`, "add"]));
const plan = (slots: Plan["slots"], fields: Partial<Plan> = {}): Plan => ({
  stage: "cold_start",
  budget_k: 2,
  slots,
  ...fields,
});

Deno.test("plan checks: a clean plan gives its columns in gate.json order and no issue", () => {
  const r = gatePlanChecks([{
    plan: plan([slot("f", ["o", "old"], ["n", "new"]), ...adds(2)]),
    file: "gate.json",
  }]);
  deepEqual(r.issues, [[]]);
  deepEqual(r.columns.map((c) => `${c.slot_id}/${c.version_id}/${c.chunk_id}/${c.role}`), [
    "f/o/k-o/old",
    "f/n/k-n/new",
    "s1/c1/k-c1/add",
    "s2/c2/k-c2/add",
  ]);
});

Deno.test("plan checks: family_invalid for two olds, several adds in one slot, a lone new", () => {
  const slots = [
    slot("f", ["o1", "old"], ["o2", "old"]),
    slot("g", ["a1", "add"], ["a2", "add"]),
    slot("h", ["n1", "new"]),
    slot("k", ["o3", "old"], ["n3", "new"]),
  ];
  const r = gatePlanChecks([{ plan: plan(slots), file: "gate.json" }]);
  deepEqual(r.issues[0]!.map((i) => [i.code, i.path, i.message]), [
    [
      "family_invalid",
      "slots.0",
      'REWRITE family "f" is malformed: 2 old versions (need exactly 1), no new version (need at least 1)',
    ],
    [
      "family_invalid",
      "slots.1",
      'slot "g" has 2 current/add versions; several mutually exclusive versions must form a REWRITE family (one old, one or more new)',
    ],
    [
      "family_invalid",
      "slots.2",
      'REWRITE family "h" is malformed: 0 old versions (need exactly 1)',
    ],
  ]);
});

Deno.test("plan checks: dimension_cap applies to cold-start gates only, at the given cap", () => {
  const cold = gatePlanChecks([{ plan: plan(adds(17)), file: "gate.json" }]);
  deepEqual(cold.issues[0]!.map((i) => [i.code, i.path, i.message]), [[
    "dimension_cap",
    "slots",
    "cold-start gate has 17 design columns; at most 16 canonical chunks may enter validation",
  ]]);
  deepEqual(gatePlanChecks([{ plan: plan(adds(17), { stage: "online" }), file: "g" }]).issues, [
    [],
  ]);
  deepEqual(
    gatePlanChecks([{ plan: plan(adds(5)), file: "g" }], { dimensionCap: 4 }).issues[0]!.map((i) =>
      i.code
    ),
    ["dimension_cap"],
  );
});

Deno.test("plan checks: budget_invalid outside 1..columns", () => {
  const codes = (budget_k: number) =>
    gatePlanChecks([{ plan: plan(adds(4), { budget_k }), file: "g" }]).issues[0]!.map((
      i,
    ) => [i.path, i.message]);
  deepEqual(codes(0), [["budget_k", "budget_k 0 is outside 1..4 (the number of design columns)"]]);
  deepEqual(codes(5), [["budget_k", "budget_k 5 is outside 1..4 (the number of design columns)"]]);
  deepEqual(codes(4), []);
  deepEqual(codes(1), []);
});

Deno.test("plan checks: pooled gates union their columns; a version defined differently is a schema_error", () => {
  const a = plan(adds(2));
  const b = plan([
    slot("s2", ["c2", "add"]),
    slot("s3", ["c3", "add"]),
    slot("x", ["c1", "current"]),
  ], { budget_k: 1 });
  const r = gatePlanChecks([{ plan: a, file: "a/gate.json" }, { plan: null, file: "n/gate.json" }, {
    plan: b,
    file: "b/gate.json",
  }]);
  deepEqual(r.columns.map((c) => c.version_id), ["c1", "c2", "c3"]);
  deepEqual(r.issues.map((g) => g.length), [0, 0, 1]);
  deepEqual([r.issues[2]![0]!.file, r.issues[2]![0]!.path, r.issues[2]![0]!.message], [
    "b/gate.json",
    "columns.2",
    "version c1 is (x, k-c1, current) here but (s1, k-c1, add) in an earlier gate; pooled gates must define a version the same way",
  ]);
});
