/**
 * The committed notebooks follow the house rules: no outputs; one code cell
 * tagged `parameters` (papermill's convention) before any other code cell,
 * declaring every input with `let` so `deno task notebooks -p` can set it;
 * its `metadata.gatelab.paths` names only declared parameters; only
 * lib/mod.ts is imported; and no later cell names a demo path (so pointing
 * the parameters elsewhere re-targets the whole notebook). Executing them is
 * tests/notebooks_runner_test.ts and tests/notebooks_browser_test.ts.
 */
import { deepEqual, ok } from "node:assert/strict";

interface Cell {
  cell_type: string;
  source: string | string[];
  metadata: { tags?: string[]; gatelab?: { paths?: string[] } };
  outputs?: unknown[];
  execution_count?: number | null;
}

const dir = new URL("../notebooks/", import.meta.url);
const names: string[] = [];
for await (const entry of Deno.readDir(dir)) {
  if (entry.name.endsWith(".ipynb")) names.push(entry.name);
}
names.sort();
const text = (c: Cell) => (Array.isArray(c.source) ? c.source.join("") : c.source);
const declared = (source: string) =>
  [...source.matchAll(/^let\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]);

Deno.test("the notebooks: gate re-analysis, held-out and power, paper appendix, rewards, SQL", () => {
  deepEqual(names, [
    "01_gate_reanalysis.ipynb",
    "02_heldout_and_power.ipynb",
    "03_paper_appendix.ipynb",
    "04_reward_recipes.ipynb",
    "05_raw_traces_sql.ipynb",
  ]);
});

for (const name of names) {
  Deno.test(`${name}: no outputs, a tagged parameters cell first, only lib/mod.ts imported`, async () => {
    const nb = JSON.parse(await Deno.readTextFile(new URL(name, dir)));
    deepEqual(nb.metadata.kernelspec.name, "gatelab-deno");
    const code = (nb.cells as Cell[]).filter((c) => c.cell_type === "code");
    for (const cell of code) {
      deepEqual(cell.outputs ?? [], [], `${name} has outputs`);
      deepEqual(cell.execution_count ?? null, null);
    }
    const tagged = code.filter((c) => c.metadata.tags?.includes("parameters"));
    deepEqual(tagged.length, 1, `${name}: one cell tagged parameters`);
    const params = code[0]!;
    ok(params === tagged[0], `${name}: the parameters cell is the first code cell`);
    const source = text(params);
    ok(!/\bimport\b|\bconst\b|\bawait\b/.test(source), `${name}: parameters cell only declares`);
    const lets = declared(source);
    const statements = source.split("\n").filter((l) => l.trim() && !l.trim().startsWith("//"));
    deepEqual(statements.length, lets.length, `${name}: one let per line`);
    for (const p of params.metadata.gatelab?.paths ?? []) ok(lets.includes(p), `${name}: ${p}`);
    const imports = code.flatMap((c) =>
      [...text(c).matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1])
    );
    deepEqual([...new Set(imports)], ["../lib/mod.ts"]);
    for (const cell of code.slice(1)) {
      ok(
        !text(cell).includes("../data"),
        `${name}: a later cell names a demo path:\n${text(cell)}`,
      );
    }
  });
}

Deno.test("notebook 01 declares the parameters of its issue, paths marked", async () => {
  const nb = JSON.parse(await Deno.readTextFile(new URL("01_gate_reanalysis.ipynb", dir)));
  const params = (nb.cells as Cell[]).find((c) => c.metadata.tags?.includes("parameters"))!;
  deepEqual(declared(text(params)), [
    "GATES",
    "METRIC",
    "BUDGET_K",
    "DRAWS",
    "SEED",
    "CACHE_DIR",
    "OUT_DIR",
  ]);
  deepEqual(params.metadata.gatelab?.paths, ["GATES", "CACHE_DIR", "OUT_DIR"]);
});
