/**
 * readJsonMembers against JSON.parse of the whole text: random objects,
 * indentations and read sizes (fast-check), and refusals.
 */
import { deepEqual, rejects } from "node:assert/strict";
import { join } from "node:path";
import fc from "fast-check";
import { readJsonMembers } from "../lib/load/json_head.ts";
import { tempDir } from "./fixtures.ts";

Deno.test("readJsonMembers gives what JSON.parse of the whole file gives, for any chunking", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "c.json");
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue(), { maxKeys: 6 }),
      fc.constantFrom(0, 1, 2, "\t"),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.string({ unit: "binary", maxLength: 3 }), { maxLength: 3 }),
      async (object, indent, chunk, extra) => {
        const text = JSON.stringify(object, null, indent);
        await Deno.writeTextFile(path, text);
        const whole = JSON.parse(text) as Record<string, unknown>;
        const names = [...Object.keys(whole).filter((_, i) => i % 2 === 0), ...extra];
        const head = await readJsonMembers(path, names, chunk);
        const expected = names.filter((n, i) => Object.hasOwn(whole, n) && names.indexOf(n) === i)
          .map((n) => [n, whole[n]]);
        // Sorted by name: the default sort turns each [name, value] pair into a string, which
        // throws for a value with its own toString or valueOf member (fast-check makes those).
        const byName = (a: unknown[], b: unknown[]) =>
          String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0;
        deepEqual([...head].sort(byName), expected.sort(byName));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("readJsonMembers stops reading once it has what it wants", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "c.json");
  // Everything after the wanted members is not JSON: never read, never refused.
  await Deno.writeTextFile(path, '{"a": [1, "]"], "b": {"c": null},' + "x".repeat(100_000));
  deepEqual([...await readJsonMembers(path, ["b", "a"], 8)], [["a", [1, "]"]], ["b", { c: null }]]);
});

Deno.test("readJsonMembers refuses what is not the start of a JSON object", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "c.json");
  const cases: [string, string][] = [
    ["", "not a JSON object: the file is empty"],
    ["[1]", "not a JSON object: it does not start with {"],
    ['{"a": 1', "not a JSON object: the file ends inside the object"],
    ['{"a" 1}', 'not a JSON object: no ":" after the key "a"'],
    ['{"a": 1, }', "not a JSON object: a member does not start with a key"],
    ['{"a": tru, "b": 1}', ""],
  ];
  for (const [text, message] of cases) {
    await Deno.writeTextFile(path, text);
    await rejects(
      readJsonMembers(path, ["a", "b"]),
      (e) => e instanceof SyntaxError && (message === "" || e.message === message),
      text,
    );
  }
});
