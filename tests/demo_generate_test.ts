/**
 * The committed demo data equals a fresh generation byte for byte, with no
 * extra or missing file. If this fails after a change to lib/demo/, run
 * `deno task gen-demo` and commit data/demo/.
 */
import { deepEqual, ok } from "node:assert/strict";
import { generateDemo, listDemoFiles, writeDemo } from "../lib/demo/mod.ts";

const COMMITTED = new URL("../data/demo/", import.meta.url).pathname;

Deno.test("demo: fresh generation into a temp dir equals data/demo byte for byte", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-demo-" });
  try {
    const { written, removed } = await writeDemo(dir);
    deepEqual(removed, []);
    const fresh = await listDemoFiles(dir);
    const committed = await listDemoFiles(COMMITTED);
    deepEqual(fresh, [...written].sort());
    deepEqual(committed, fresh, "extra or missing files under data/demo");
    for (const path of fresh) {
      const a = await Deno.readFile(`${dir}/${path}`);
      const b = await Deno.readFile(`${COMMITTED}${path}`);
      ok(a.length === b.length && a.every((x, i) => x === b[i]), `data/demo/${path} differs`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("demo: generation is deterministic, uses \\n line ends only and stays under 5 MB", () => {
  const a = generateDemo();
  const b = generateDemo();
  deepEqual(Object.keys(a), Object.keys(b));
  for (const [path, text] of Object.entries(a)) {
    ok(text === b[path], `${path} differs between two generations`);
    ok(!text.includes("\r"), `${path} has a carriage return`);
    ok(text.endsWith("\n"), `${path} does not end in a newline`);
  }
  const bytes = Object.values(a).reduce((s, t) => s + new TextEncoder().encode(t).length, 0);
  ok(bytes < 5_000_000, `demo data is ${bytes} bytes`);
});
