/**
 * JSONL reading cost against line length (issue 9): one line of 5, 10, 20
 * and 40 MB (a JSON object with one long string) and, for scale, the
 * demo's masked Gate A traces repeated to about 100 MB of ordinary lines,
 * each read with `forEachJsonlLine`. Prints milliseconds and ms per MB:
 * linear reading keeps ms per MB flat as the line grows (before the byte-
 * level line splitter, one 40 MB line took 8.9 s, quadratic in its length).
 * Best of `--repeats`. Timings are never test assertions.
 *
 * Usage: deno run --allow-read --allow-write bench/jsonl_lines.ts [--repeats 3]
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { forEachJsonlLine } from "../lib/load/jsonl.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { repeats: { type: "string", default: "3" } },
});
const repeats = Number(values.repeats);
const dir = await Deno.makeTempDir({ prefix: "gatelab-bench-jsonl-" });

async function timeRead(path: string): Promise<[number, number]> {
  let best = Infinity, lines = 0;
  for (let r = 0; r < repeats; r++) {
    lines = 0;
    const t0 = performance.now();
    const issues = await forEachJsonlLine(path, () => void lines++);
    const ms = performance.now() - t0;
    if (issues.length > 0) throw new Error(`Cannot benchmark: ${issues[0]!.message}`);
    best = Math.min(best, ms);
  }
  return [best, lines];
}

try {
  console.log("one long line:");
  for (const mb of [5, 10, 20, 40]) {
    const path = join(dir, `long-${mb}.jsonl`);
    await Deno.writeTextFile(path, JSON.stringify({ s: "x".repeat(mb * 1_000_000) }) + "\n");
    const [ms] = await timeRead(path);
    console.log(
      `  ${String(mb).padStart(2)} MB  ${ms.toFixed(0).padStart(6)} ms  ${
        (ms / mb).toFixed(1)
      } ms/MB`,
    );
  }
  const line = (await Deno.readTextFile("data/demo/ckpt-a/gate-a/traces.jsonl")).split("\n")[0]!;
  const copies = Math.round(100_000_000 / (line.length + 1));
  const path = join(dir, "many.jsonl");
  await Deno.writeTextFile(path, (line + "\n").repeat(copies));
  const [ms, lines] = await timeRead(path);
  const mb = (copies * (line.length + 1)) / 1e6;
  console.log(
    `ordinary lines: ${lines} lines, ${mb.toFixed(0)} MB  ${ms.toFixed(0)} ms  ${
      (ms / mb).toFixed(1)
    } ms/MB`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
