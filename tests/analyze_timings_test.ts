/**
 * `gate analyze --timings`: one line per stage on stderr, in the order the
 * stages ran, each file's write among them; nothing without the flag.
 */
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { captured, tempDir } from "./fixtures.ts";

const GATE = "data/demo/ckpt-a/gate-a";

Deno.test("analyze --timings: a line per stage and per written file on stderr", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "out");
  const args = ["analyze", GATE, "--out", out, "--bootstrap", "50", "--quiet"];
  const plain = await captured(() => main(args));
  deepEqual([plain.value, plain.err.includes("timing  ")], [0, false]);
  const timed = await captured(() => main([...args, "--timings"]));
  deepEqual(timed.value, 0);
  const lines = timed.err.split("\n").filter((l) => l.startsWith("timing  "));
  const stages = lines.map((l) => /^timing {2}(.+?) +\d+\.\d{3} s$/.exec(l)?.[1]);
  ok(stages.every((s) => s !== undefined), timed.err);
  const order = [
    "parse",
    "validate",
    "pair",
    "fit",
    "diagnostics+screen",
    "bootstrap",
    "encode tasks.csv+parquet",
    "outputs",
    "write contributions.json",
    "write tasks.parquet",
    "total (process)",
  ];
  const at = order.map((s) => stages.indexOf(s));
  ok(at.every((i) => i >= 0), `missing: ${order.filter((_, j) => at[j]! < 0)}`);
  deepEqual([...at].sort((a, b) => a - b), at, stages.join(", "));
});
