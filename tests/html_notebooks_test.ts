/**
 * The committed notebooks follow the house rules: no outputs, parameters in
 * the first code cell, and lib/mod.ts as the only import. (Executing them
 * is `deno task notebooks`, see docs/notebooks.md.)
 */
import { deepEqual, ok } from "node:assert/strict";

interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: unknown[];
  execution_count?: number | null;
}

const dir = new URL("../notebooks/", import.meta.url);
const names: string[] = [];
for await (const entry of Deno.readDir(dir)) {
  if (entry.name.endsWith(".ipynb")) names.push(entry.name);
}
names.sort();

Deno.test("there are the four notebooks of the brief", () => {
  deepEqual(names, [
    "01_gate_reanalysis.ipynb",
    "02_heldout_and_power.ipynb",
    "03_study_paper_tables.ipynb",
    "04_reward_recipes.ipynb",
  ]);
});

for (const name of names) {
  Deno.test(`${name}: no outputs, parameters first, only lib/mod.ts imported`, async () => {
    const nb = JSON.parse(await Deno.readTextFile(new URL(name, dir)));
    deepEqual(nb.metadata.kernelspec.name, "gatelab-deno");
    const code = (nb.cells as Cell[]).filter((c) => c.cell_type === "code");
    const text = (c: Cell) => (Array.isArray(c.source) ? c.source.join("") : c.source);
    for (const cell of code) {
      deepEqual(cell.outputs ?? [], [], `${name} has outputs`);
      deepEqual(cell.execution_count ?? null, null);
    }
    ok(
      text(code[0]!).startsWith("// Parameters"),
      `${name}: first code cell is not the parameters`,
    );
    ok(!/\bimport\b/.test(text(code[0]!)));
    const imports = code.flatMap((c) =>
      [...text(c).matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1])
    );
    deepEqual([...new Set(imports)], ["../lib/mod.ts"]);
  });
}
