import { deepEqual, ok } from "node:assert/strict";
import { createPrng } from "../lib/math/prng.ts";
import { drawAssignment } from "../lib/demo/gate.ts";
import { latentShift } from "../lib/demo/latent.ts";
import { jobSeed } from "../lib/demo/run.ts";
import { drawWebshopRewards, expectedWebshopRewards } from "../lib/demo/webshop.ts";
import { referenceJson } from "./reference_data.ts";

// Reference values: scipy.integrate.quad over the rollout shock, written by
//   python3 scripts/reference/demo_expected.py > tests/data/reference/demo_expected.json
// (through scripts/reference/regenerate.sh; 12 decimals), read here.
const REFERENCE = (await referenceJson<{
  difficulty: number;
  offsets: [number, number, number, number];
  nAttr: number;
  nOpt: number;
  shift: number[];
  expected: Record<"r_strict" | "r_success" | "r_type" | "r_attr" | "r_option" | "r_price", number>;
}[]>("demo_expected")).map((r) => ({
  task: {
    task_id: "t",
    difficulty: r.difficulty,
    offsets: r.offsets,
    nAttr: r.nAttr,
    nOpt: r.nOpt,
  },
  shift: r.shift,
  expected: r.expected,
}));

Deno.test("demo model: expected components match scipy quadrature", () => {
  for (const { task, shift, expected } of REFERENCE) {
    const got = expectedWebshopRewards(task, shift);
    for (const [k, v] of Object.entries(expected)) {
      const g = got[k as keyof typeof got];
      ok(Math.abs(g - v) < 1e-9, `${k}: ${g} vs ${v}`);
    }
  }
});

Deno.test("demo model: draws are WebShop-like and average to the expectation", () => {
  const { task, shift, expected } = REFERENCE[1]!;
  const prng = createPrng(42);
  const n = 20000;
  let strict = 0, success = 0, price = 0;
  for (let i = 0; i < n; i++) {
    const r = drawWebshopRewards(task, shift, prng);
    ok([0, 0.5, 1].includes(r.r_type) && [0, 1].includes(r.r_price));
    deepEqual(r.r_success, r.r_strict === 1 ? 1 : 0);
    for (const v of Object.values(r)) ok(v >= 0 && v <= 1);
    strict += r.r_strict;
    success += r.r_success;
    price += r.r_price;
  }
  // Standard errors are below 0.004 at n = 20000; allow 5 of them.
  ok(Math.abs(strict / n - expected.r_strict) < 0.02, `r_strict mean ${strict / n}`);
  ok(Math.abs(success / n - expected.r_success) < 0.01, `r_success mean ${success / n}`);
  ok(Math.abs(price / n - expected.r_price) < 0.02, `r_price mean ${price / n}`);
});

Deno.test("demo model: masks keep versions of one slot exclusive at rate p_present", () => {
  const slots = [
    {
      slot_id: "a",
      versions: [{ version_id: "a.v1", chunk_id: "a", role: "add" as const, text: "" }],
    },
    {
      slot_id: "f",
      versions: ["old", "new", "new"].map((role, i) => ({
        version_id: `f.v${i + 1}`,
        chunk_id: "f",
        role: role as "old" | "new",
        text: "",
      })),
    },
  ];
  const prng = createPrng(7);
  const counts = new Map<string | null, number>();
  const n = 6000;
  for (let i = 0; i < n; i++) {
    const a = drawAssignment(slots, 0.5, prng);
    deepEqual(Object.keys(a), ["a", "f"]);
    counts.set(a.f ?? null, (counts.get(a.f ?? null) ?? 0) + 1);
  }
  ok(Math.abs(counts.get(null)! / n - 0.5) < 0.03);
  for (const v of ["f.v1", "f.v2", "f.v3"]) ok(Math.abs(counts.get(v)! / n - 1 / 6) < 0.03);
});

Deno.test("demo model: latent shift adds effects and the interaction only when both are present", () => {
  const model = {
    checkpoint: "ckpt-b",
    effects: new Map([["x", [0.5, 0, 0, 0] as const], ["y", [0, 0.5, 0, 0] as const]]),
    interactions: [{ versions: ["x", "y"] as const, effect: [-1, -1, -1, -1] as const }],
  };
  deepEqual(latentShift(model, ["x"]), [0.8, 0.3, 0.3, 0.3]);
  const both = latentShift(model, ["x", "y"]);
  [-0.2, -0.2, -0.7, -0.7].forEach((v, c) => ok(Math.abs(both[c]! - v) < 1e-12));
  ok(jobSeed("val", "a", 0) >= 0 && jobSeed("val", "a", 0) < 2 ** 31);
});
