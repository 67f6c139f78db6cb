/**
 * Every command reports the issue counts validation found, not the number of
 * issues it lists: validation keeps 50 issues per code and one summary line
 * ("N more CODE issues not listed"), and `analyze`, `sequential`,
 * `heldout` and `history` used to count that capped list again (395 uncovered episodes
 * became "coverage_incomplete 51", listed as "1 more ... not listed").
 *
 * The fixture is the demo's Gate A with its bare run cut to its first 5
 * lines: 395 of the 400 planned bare episodes have no attempt (400 tasks x 1
 * sample in data/demo/ckpt-a/gate-a), so 395 coverage_incomplete issues,
 * far more than the 50 listed.
 */
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../lib/cli/main.ts";
import { tempDir } from "./fixtures.ts";

const DEMO = fileURLToPath(new URL("../data/demo/ckpt-a/", import.meta.url));

/** Runs the CLI in-process and returns its exit code and stdout lines. */
async function cli(args: string[]): Promise<{ code: number; lines: string[] }> {
  const { log, error } = console;
  const lines: string[] = [];
  console.log = (...parts: unknown[]) => lines.push(parts.join(" "));
  console.error = () => {};
  try {
    return { code: await main(args), lines };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function brokenGate(dir: string): Promise<string> {
  for (const name of ["gate-a", "bare-val"]) {
    for (const entry of Deno.readDirSync(join(DEMO, name))) {
      await Deno.mkdir(join(dir, name), { recursive: true });
      await Deno.copyFile(join(DEMO, name, entry.name), join(dir, name, entry.name));
    }
  }
  const traces = join(dir, "bare-val", "traces.jsonl");
  const lines = (await Deno.readTextFile(traces)).split("\n").slice(0, 5);
  await Deno.writeTextFile(traces, lines.join("\n") + "\n");
  return join(dir, "gate-a");
}

Deno.test("analyze, sequential, heldout and history report validate's counts, also past the listing cap", async () => {
  await using tmp = await tempDir();
  const gate = await brokenGate(tmp.path);
  const expected = "not ok: 395 issue(s) (coverage_incomplete 395)";
  const plan = join(tmp.path, "plan.json");
  await Deno.copyFile(
    fileURLToPath(new URL("../data/plans/heldout-kfold5.json", import.meta.url)),
    plan,
  );
  const runs: Record<string, string[]> = {
    validate: ["validate", gate],
    analyze: ["analyze", gate, "--bootstrap", "0"],
    sequential: ["sequential", gate],
    heldout: ["heldout", gate, "--plan", plan],
    history: ["history", gate],
  };
  for (const [name, args] of Object.entries(runs)) {
    const out = join(tmp.path, `out-${name}`);
    const { code, lines } = await cli([...args, "--out", out]);
    equal(code, 2, name);
    equal(lines.at(-1)!.split(";")[0], expected, name);
    // 50 listed, then one summary of the other 345.
    const listed = lines.filter((l) => l.startsWith("coverage_incomplete  "));
    equal(listed.length, 51, name);
    equal(
      listed.at(-1),
      "coverage_incomplete  345 more coverage_incomplete issues not listed",
      name,
    );
    const doc = JSON.parse(await Deno.readTextFile(join(out, "validation.json")));
    deepEqual([doc.ok, doc.counts, doc.issues.length], [
      false,
      { coverage_incomplete: 395 },
      51,
    ], name);
  }
});
