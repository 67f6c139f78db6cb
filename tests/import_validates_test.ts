/**
 * An import that succeeds wrote gates that validate: a fast-check property
 * over generated tables (checkpoints, rounds whose names collide once made
 * directory-safe, sample ids, failed attempts, extreme rewards, `r_strict`
 * equal to the reward or not, version roles declared, missing or never
 * used), each imported and then validated with the real CLI in-process
 * (`main`): `gate import table` exit 0 implies `gate validate` exit 0 for
 * every bare run's gates, and an import refused for what validation finds
 * writes nothing. Fixed seed, so every run checks the same tables.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { main } from "../lib/cli/main.ts";
import { quiet } from "./fixtures.ts";

interface TableCase {
  readonly tasks: number;
  readonly repeats: number;
  readonly checkpoints: readonly (string | null)[];
  readonly rounds: readonly (string | null)[];
  readonly versions: number;
  readonly roles: "none" | "declared" | "old-only" | "unused";
  readonly failures: boolean;
  readonly extreme: number;
  readonly strict: "equal" | "different" | "absent";
  readonly bits: readonly number[];
}

const tableCase: fc.Arbitrary<TableCase> = fc.record({
  tasks: fc.integer({ min: 3, max: 8 }),
  repeats: fc.integer({ min: 1, max: 2 }),
  checkpoints: fc.constantFrom<(string | null)[]>([null], ["c1"], ["c1", "c 1"], ["A", "a"]),
  rounds: fc.constantFrom<(string | null)[]>([null], ["r1"], ["r 1", "r-1"], ["x", "gate-x"]),
  versions: fc.integer({ min: 1, max: 3 }),
  roles: fc.constantFrom("none", "none", "declared", "declared", "old-only", "unused"),
  failures: fc.boolean(),
  extreme: fc.constantFrom(0, 0, 0, 0, 1e101, 1e308),
  strict: fc.constantFrom("equal", "equal", "equal", "different", "absent", "absent"),
  bits: fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 12 }),
});

/** The rows of a case as JSON Lines, and its mapping. */
function tableOf(c: TableCase): { jsonl: string; mapping: unknown } {
  const versions = Array.from({ length: c.versions }, (_, j) => `v${j}.v1`);
  const lines: string[] = [];
  let k = 0;
  for (const checkpoint of c.checkpoints) {
    for (let t = 0; t < c.tasks; t++) {
      for (let s = 0; s < c.repeats; s++) {
        const base = { task_id: `t${t}`, sample_id: s, checkpoint_id: checkpoint };
        const bare = ((t * 7 + s * 3) % 10) / 10;
        const extreme = t === 0 && s === 0 ? c.extreme : 0;
        const row = (arm: string, reward: number, round: string | null, bits: number) => ({
          ...base,
          arm,
          round,
          reward,
          ...(c.strict === "absent"
            ? {}
            : { r_strict: c.strict === "equal" || t > 0 ? reward : reward / 2 }),
          ...Object.fromEntries(versions.map((v, j) => [`mask:${v}`, (bits >> j) & 1])),
        });
        if (c.failures && t === 0) {
          lines.push(
            JSON.stringify({ ...row("bare", 0, null, 0), status: "failed", reward: null }),
          );
        }
        lines.push(JSON.stringify(row("bare", bare - extreme, null, 0)));
        for (const round of c.rounds) {
          const bits = (c.bits[k % c.bits.length]! + k++) & 7;
          const r = round === null ? null : checkpoint === null ? round : `${round}@${checkpoint}`;
          lines.push(JSON.stringify(row("masked", bare + 0.1 * (bits & 1) + extreme, r, bits)));
        }
      }
    }
  }
  const declared = c.roles === "none" ? undefined : Object.fromEntries([
    ...versions.map((v, j) => [v, c.roles === "old-only" && j === 0 ? { role: "old" } : {}]),
    ...(c.roles === "unused" ? [["never.v1", {}]] : []),
  ]);
  return {
    jsonl: lines.join("\n") + "\n",
    mapping: { format: "gatelab.import-map/v1", ...(declared ? { versions: declared } : {}) },
  };
}

Deno.test("gate import table: exit 0 implies gate validate exit 0 of what it wrote (fast-check)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-import-validates-" });
  const outcomes = { imported: 0, refused: 0 };
  try {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(tableCase, async (c) => {
        const here = join(dir, `case-${n++}`);
        await Deno.mkdir(here);
        const { jsonl, mapping } = tableOf(c);
        await Deno.writeTextFile(join(here, "t.jsonl"), jsonl);
        await Deno.writeTextFile(join(here, "m.json"), JSON.stringify(mapping));
        const out = join(here, "out");
        const code = await quiet(() =>
          main([
            "import",
            "table",
            join(here, "t.jsonl"),
            "--map",
            join(here, "m.json"),
            "--out",
            out,
          ])
        );
        if (code !== 0) {
          equal(code, 2);
          deepEqual([...Deno.readDirSync(here)].map((e) => e.name).sort(), ["m.json", "t.jsonl"]);
          outcomes.refused++;
          return;
        }
        outcomes.imported++;
        const doc = JSON.parse(await Deno.readTextFile(join(out, "import.json")));
        const groups = new Map<string, string[]>();
        for (const g of doc.gates) {
          groups.set(g.bare_run_dir, [...(groups.get(g.bare_run_dir) ?? []), join(out, g.dir)]);
        }
        for (const [bare, gates] of groups) {
          const validated = await quiet(() =>
            main(["validate", ...gates, "--out", join(here, `v-${groups.size}`), "--quiet"])
          );
          equal(validated, 0, `${JSON.stringify(c)}: the gates over ${bare} do not validate`);
        }
        await Deno.remove(here, { recursive: true });
      }),
      { numRuns: 40, seed: 20261202 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Both outcomes occur, so the property is not vacuous either way.
  ok(outcomes.imported > 5 && outcomes.refused > 5, JSON.stringify(outcomes));
  console.log(`imported ${outcomes.imported}, refused ${outcomes.refused}`);
});
