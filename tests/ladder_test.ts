/**
 * `gate ladder`: e-values and the demo's three ladder gates against
 * tests/data/ladder_reference.json, made by
 * `python3 scripts/reference/ladder_eprocess.py` (scipy.special.betaln,
 * betainc and betaincc for the e-values; the demo's pairing, exits and
 * baseline prefill re-decided independently); bad input and decision
 * mismatches refused with exit 2 and validation.json only.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { main } from "../lib/cli/main.ts";
import { ladderEValues } from "../lib/ladder/e_process.ts";
import { quiet, tempDir } from "./fixtures.ts";

const REF = JSON.parse(
  await Deno.readTextFile(new URL("./data/ladder_reference.json", import.meta.url)),
);
const DEMO = "data/demo/ladder";
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));
const close = (a: number, b: number, what: string, tol = 1e-9) =>
  ok(Math.abs(a - b) <= tol * Math.abs(b), `${what}: ${a} vs ${b}`);

Deno.test("ladder e-values match scipy's betaln/betainc/betaincc to 1e-9 (relative)", () => {
  for (const g of REF.grid as { W: number; L: number; e_accept: number; e_reject: number }[]) {
    const e = ladderEValues(g.W, g.L);
    close(e.accept, g.e_accept, `E_accept(${g.W}, ${g.L})`);
    close(e.reject, g.e_reject, `E_reject(${g.W}, ${g.L})`);
  }
});

Deno.test("demo ladders: exits, block paths and prefill match the reference", async () => {
  await using dir = await tempDir();
  for (const [type, ref] of Object.entries<Record<string, unknown>>(REF.demo)) {
    const out = `${dir.path}/${type}`;
    const args = ["ladder", `${DEMO}/${type}`, "--prefill", `${DEMO}/baseline.jsonl`];
    equal(await quiet(() => main([...args, "--out", out, "--no-png"])), 0, type);
    const doc = await readJson(`${out}/ladder_result.json`);
    deepEqual([doc.format, doc.exit, doc.exit_block], [
      "gatelab.ladder-result/v1",
      ref.exit,
      ref.exit_block,
    ]);
    deepEqual(doc.recorded_decision, ref.exit);
    const { base_units, served, saved } = doc.prefill;
    deepEqual({ base_units, served, saved }, ref.prefill);
    const blocks = ref.blocks as Record<string, number>[];
    equal(doc.blocks.length, blocks.length);
    blocks.forEach((b, i) => {
      const got = doc.blocks[i];
      deepEqual([got.block, got.W, got.L, got.E, got.INFRA, got.units], [
        b.block,
        b.W,
        b.L,
        b.E,
        b.INFRA,
        b.units,
      ]);
      close(got.e_accept, b.e_accept!, `${type} block ${b.block} e_accept`);
      close(got.e_reject, b.e_reject!, `${type} block ${b.block} e_reject`);
    });
    const last = doc.blocks[doc.blocks.length - 1];
    deepEqual(doc.counts, {
      W: last.W,
      L: last.L,
      E: last.E,
      INFRA: last.INFRA,
      units: last.units,
    });
    ok(doc.blocks.some((b: { INFRA: number }) => b.INFRA > 0), `${type} has INFRA units`);
  }
  // The demo's known truth: one accept, one reject, one budget exhausted; the AR-pair type's
  // baseline ran with an older skill text, so none of its base-arm units is served.
  deepEqual(Object.values(REF.demo).map((r) => (r as { exit: string }).exit), [
    "accept",
    "reject",
    "budget_exhausted",
  ]);
  equal((REF.demo["temporal-order"].prefill as { served: number }).served, 0);
});

// ---- bad input --------------------------------------------------------------

const HASH = "a".repeat(64);
const SPEC = {
  format: "gatelab.ladder/v1",
  task_type: "t",
  alpha: 0.05,
  n_max: 16,
  block_size: 2,
  infra_max_rate: 0.5,
  prompts_version: "v1",
  base_skill_sha256: HASH,
  cand_skill_sha256: "b".repeat(64),
};
const member = (correct: boolean, q = "q") => ({ question_id: q, correct, stop_reason: "stop" });
const unit = (block: number, id: string, arm: string, correct = true) => ({
  block,
  unit_id: id,
  arm,
  members: [member(correct, `${id}-q`)],
});
const GOOD = [
  unit(0, "u1", "base", false),
  unit(0, "u1", "cand"),
  unit(0, "u2", "cand"),
  unit(0, "u2", "base"),
  unit(1, "u3", "base"),
  unit(1, "u3", "cand", false),
];

async function ladderCase(
  dir: string,
  spec: Record<string, unknown>,
  units: readonly unknown[],
): Promise<{ code: number; files: string[]; issues: { code: string; line?: number }[] }> {
  await Deno.mkdir(`${dir}/in`, { recursive: true });
  await Deno.writeTextFile(`${dir}/in/ladder.json`, JSON.stringify(spec));
  await Deno.writeTextFile(`${dir}/in/units.jsonl`, units.map((u) => JSON.stringify(u)).join("\n"));
  await Deno.remove(`${dir}/out`, { recursive: true }).catch(() => {});
  const code = await quiet(() => main(["ladder", `${dir}/in`, "--out", `${dir}/out`, "--no-png"]));
  const files = [...Deno.readDirSync(`${dir}/out`)].map((e) => e.name).filter((f) =>
    !f.startsWith(".")
  ).sort();
  const issues = (await readJson(`${dir}/out/validation.json`)).issues;
  return { code, files, issues };
}

Deno.test("gate ladder refuses bad input: exit 2, one issue each, validation.json only", async () => {
  await using dir = await tempDir();
  const good = await ladderCase(dir.path, SPEC, GOOD);
  // The figure's vector PDF is there when rsvg-convert may run; its LaTeX float always.
  deepEqual([good.code, good.files.filter((f) => f !== "ladder_t.pdf")], [0, [
    "blocks.csv",
    "blocks.parquet",
    "ladder.md",
    "ladder.tex",
    "ladder_result.json",
    "ladder_t.svg",
    "ladder_t.tex",
    "validation.json",
  ]]);
  const cases: [string, Record<string, unknown>, unknown[], [string, number | undefined][]][] = [
    ["unknown arm", SPEC, [...GOOD, unit(1, "u4", "treatment")], [["arm_unknown", 7]]],
    ["unpaired unit", SPEC, [...GOOD, unit(1, "u4", "cand")], [["unit_unpaired", 7]]],
    ["duplicate", SPEC, [...GOOD, unit(1, "u3", "cand")], [["duplicate_unit", 7]]],
    ["backwards blocks", { ...SPEC, block_size: 3 }, [
      ...GOOD,
      unit(0, "u5", "base"),
      unit(0, "u5", "cand"),
    ], [["block_order", 7], ["block_order", 8]]],
    ["block overflow", SPEC, [...GOOD.slice(0, 4), unit(0, "u6", "base"), unit(0, "u6", "cand")], [
      ["block_overflow", 5],
      ["block_overflow", 6],
    ]],
    ["n_max < 1", { ...SPEC, n_max: 0 }, GOOD, [["schema_error", undefined]]],
    ["alpha = 1", { ...SPEC, alpha: 1 }, GOOD, [["schema_error", undefined]]],
    ["alpha = 0", { ...SPEC, alpha: 0 }, GOOD, [["schema_error", undefined]]],
    ["recorded decision differs", { ...SPEC, decision: "accept" }, GOOD, [[
      "decision_mismatch",
      undefined,
    ]]],
  ];
  for (const [what, spec, units, expected] of cases) {
    const r = await ladderCase(dir.path, spec, units);
    equal(r.code, 2, what);
    deepEqual(r.files, ["validation.json"], what);
    deepEqual(
      r.issues.map((i) => [i.code, i.line]).sort(),
      expected.slice().sort(),
      what,
    );
  }
});

Deno.test("prefill: a changed base skill text hash misses every unit", async () => {
  await using dir = await tempDir();
  const spec = JSON.parse(await Deno.readTextFile(`${DEMO}/counting/ladder.json`));
  await Deno.mkdir(`${dir.path}/in`);
  await Deno.writeTextFile(
    `${dir.path}/in/ladder.json`,
    JSON.stringify({ ...spec, base_skill_sha256: "0".repeat(64) }),
  );
  await Deno.copyFile(`${DEMO}/counting/units.jsonl`, `${dir.path}/in/units.jsonl`);
  const args = ["ladder", `${dir.path}/in`, "--prefill", `${DEMO}/baseline.jsonl`];
  equal(await quiet(() => main([...args, "--out", `${dir.path}/out`, "--no-png"])), 0);
  const doc = await readJson(`${dir.path}/out/ladder_result.json`);
  deepEqual([doc.prefill.served, doc.prefill.saved, doc.prefill.base_units], [0, 0, 16]);
});
