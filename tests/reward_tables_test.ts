/**
 * Rendered reward tables (summary and recipe comparison) as Markdown and
 * LaTeX, against snapshots tests/snapshots/reward_tables.{md,tex}.snap (see
 * study_snapshot.ts for how to regenerate them). The numbers inside are
 * checked against the Python reference in reward_recipes_test.ts.
 */
import { deepEqual, ok } from "node:assert/strict";
import { run } from "../lib/cli/reward.ts";
import { assertSnapshotFile } from "./study_snapshot.ts";

const DIR = new URL("./snapshots/reward_fixture/", import.meta.url).pathname;

Deno.test("reward tables: Markdown and LaTeX snapshots", async () => {
  const out = await Deno.makeTempDir();
  const args = [
    `${DIR}steps.jsonl`,
    "--recipe",
    "B",
    "--groups",
    `${DIR}groups.jsonl`,
    "--bootstrap",
    "3000",
    "--out",
    out,
    // The temporary directory's name would otherwise head every caption.
    "--label-prefix",
    "Rewards",
    "--quiet",
  ];
  deepEqual(await run(args), 0);
  const md = await Deno.readTextFile(`${out}/reward_tables.md`);
  const tex = await Deno.readTextFile(`${out}/reward_tables.tex`);
  ok(tex.includes("\\toprule") && tex.includes("\\bottomrule"));
  await assertSnapshotFile("reward_tables.md.snap", md);
  await assertSnapshotFile("reward_tables.tex.snap", tex);
  // Without PRM weights, recipe C equals A and the outputs say so.
  const meta = JSON.parse(await Deno.readTextFile(`${out}/recipe_comparison.json`));
  deepEqual(meta.c_equals_a, true);
  deepEqual(meta.recipes.C.difference, meta.recipes.A.difference);
  await Deno.remove(out, { recursive: true });
});
