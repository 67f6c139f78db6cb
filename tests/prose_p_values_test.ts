/**
 * A p-value in a sentence reads `p < 0.001` below the floor, never
 * `p = <0.001` (issue 35, item 5): every Markdown, HTML and LaTeX file of
 * the demo's outputs, as the commands wrote them. Gate A's joint test of
 * all products (F(91, 295) = 1.92) is below the floor.
 */
import { deepEqual, match } from "node:assert/strict";
import { join } from "node:path";
import { demoOutputs, filesUnder } from "./demo_outputs.ts";

Deno.test("p-values in notes: p < 0.001, never p = <0.001, in every Markdown, HTML and LaTeX output", async () => {
  const demo = await demoOutputs();
  const files = [
    ...await filesUnder(demo, ".md"),
    ...await filesUnder(demo, ".html"),
    ...await filesUnder(demo, ".tex"),
  ];
  const wrong = files.filter((f) => /p = (<|&lt;|\\textless)/.test(Deno.readTextFileSync(f)));
  deepEqual(wrong.map((f) => f.slice(demo.length + 1)), []);
  match(
    Deno.readTextFileSync(join(demo, "gate-a", "diagnostics.md")),
    /_Joint test of all products: F\(91, 295\) = 1\.92, p < 0\.001\._/,
  );
});
