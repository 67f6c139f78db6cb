/**
 * The import mapping schema (lib/import/mapping.ts): the example of
 * docs/import.md parses as it is shown, every unknown key is named with the
 * nearest known key, and inspect_ai score values convert by inspect_ai's
 * own value_to_float rule.
 */
import { deepEqual, ok } from "node:assert/strict";
import { parseMapping } from "../lib/import/mapping.ts";
import { scoreNumber } from "../lib/import/inspect.ts";

Deno.test("the mapping example of docs/import.md parses", async () => {
  const doc = await Deno.readTextFile(new URL("../docs/import.md", import.meta.url));
  const block = /## The mapping file[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
  ok(block, "docs/import.md shows a mapping");
  const parsed = parseMapping(JSON.parse(block), "docs/import.md");
  ok(parsed.ok, parsed.ok ? "" : JSON.stringify(parsed.issues));
  deepEqual(Object.keys(parsed.value.versions ?? {}), ["attr.v1", "attr.v2", "query.v1"]);
});

Deno.test("unknown mapping keys are named at every level, with the nearest known key", () => {
  const r = parseMapping({
    format: "gatelab.import-map/v1",
    budget: 3,
    columns: { rewards: "score", components: { r_x: "x" } },
    versions: { "a.v1": { rol: "add" } },
    arm_values: { bare: "b", maksed: "m" },
  }, "m.json");
  deepEqual(
    r.ok ? [] : r.issues.map((i) => [i.path, i.message]).sort(),
    [
      ["arm_values.masked", "is required here"],
      ["arm_values.maksed", 'unknown key "maksed" (did you mean masked?)'],
      ["budget", 'unknown key "budget" (did you mean budget_k?)'],
      ["columns.rewards", 'unknown key "rewards" (did you mean reward?)'],
      ["versions.a.v1.rol", 'unknown key "rol" (did you mean role?)'], // the version id holds a dot
    ].sort(),
  );
});

Deno.test("inspect_ai score values: numbers, booleans and C/I/P/N by value_to_float", () => {
  deepEqual(
    [0.25, true, false, "C", "I", "P", "N", "yes", "0.5", "maybe", null, { a: 1 }].map(scoreNumber),
    [0.25, 1, 0, 1, 0, 0.5, 0, 1, 0.5, undefined, undefined, undefined],
  );
});

Deno.test("gate import: usage mistakes are one line, exit 2; --help exits 0", async () => {
  const { main } = await import("../lib/cli/main.ts");
  const run = async (args: string[]) => {
    const out: string[] = [], err: string[] = [];
    const { log, error } = console;
    console.log = (...xs: unknown[]) => void out.push(xs.join(" "));
    console.error = (...xs: unknown[]) => void err.push(xs.join(" "));
    try {
      return { code: await main(args), out: out.join("\n"), err: err.join("\n") };
    } finally {
      console.log = log;
      console.error = error;
    }
  };
  deepEqual(await run(["import", "tabel", "x.csv"]), {
    code: 2,
    out: "",
    err:
      'usage_error  import: unknown kind "tabel"; did you mean table? (table or inspect); see deno task gate import --help',
  });
  deepEqual(await run(["import", "table", "x.csv", "--quiett"]), {
    code: 2,
    out: "",
    err:
      "usage_error  import table: unknown option --quiett; did you mean --quiet?; see deno task gate import --help",
  });
  const noOut = await run(["import", "inspect", "--bare", "b.eval", "--masked", "m.eval"]);
  deepEqual([noOut.code, noOut.err.split("\n").length], [2, 1]);
  ok(noOut.err.startsWith("usage_error  ") && noOut.err.includes("--out"), noOut.err);
  const help = await run(["import", "--help"]);
  deepEqual([help.code, help.out.split("\n")[0]], [
    0,
    "usage: deno task gate import table <file>... [--map <mapping.json>] [--max-rows <n>] --out <dir>",
  ]);
});
