/**
 * The study file the README's "Your own data" section and docs/build.md
 * start from builds as shown: the same 15 lines in both, built from a
 * table of rollouts made here (tests/build_study.ts's generator) through
 * the real CLI, then found up to date; and the three mistakes docs/build.md
 * quotes are the lines `gate build` prints for them.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { gate, ROOT, writeFirstStudy } from "./build_study.ts";

/** The first ```yaml block of a Markdown text, after `heading` when given. */
function yamlBlock(text: string, heading = ""): string {
  const from = text.indexOf(heading);
  const m = /```yaml\n([\s\S]*?)```/.exec(text.slice(from));
  if (m === null) throw new Error(`no yaml block after ${heading}`);
  return m[1]!;
}

const README = await Deno.readTextFile(join(ROOT, "README.md"));
const GUIDE = await Deno.readTextFile(join(ROOT, "docs", "build.md"));
const STUDY = yamlBlock(README, "## Your own data");

Deno.test("build: the README's study file is docs/build.md's, and 15 lines", () => {
  equal(yamlBlock(GUIDE, "## A first study"), STUDY);
  equal(STUDY.trimEnd().split("\n").length, 15);
});

Deno.test("build: the README's study builds, then is up to date; the mistakes docs/build.md shows are the lines printed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-build-readme-" });
  try {
    await writeFirstStudy(dir, STUDY);
    const built = await gate(dir, ["build"]);
    equal(built.code, 0, built.stderr);
    equal(
      built.stdout,
      "ok: 1 import and 6 steps, with the study's tables, report and paper in out: 7 built, 0 up to date\n",
    );
    const again = await gate(dir, ["build"]);
    equal(again.code, 0, again.stderr);
    equal(
      again.stdout,
      "up to date: 1 import and 6 steps, with the study's tables, report and paper in out; " +
        "nothing to build\n",
    );

    const shown = /```\n(schema_error[\s\S]*?)```/.exec(GUIDE)![1]!.trimEnd().split("\n");
    const lines = STUDY.split("\n");
    const mistakes: [number, string, string][] = [
      [6, "  - analyze:", "  - analyse:"],
      [7, "gate-r2", "gate-r1"],
      [13, "from: pooled", "from: poled"],
    ];
    for (const [i, [line, from, to]] of mistakes.entries()) {
      const changed = lines.map((l, n) => n === line - 1 ? l.replace(from, to) : l).join("\n");
      await Deno.writeTextFile(join(dir, "gatelab.yaml"), changed);
      const ran = await gate(dir, ["build", "--dry-run"]);
      equal(ran.code, 2);
      equal(ran.stderr.split("\n")[0], shown[i], `line ${line}: ${from} -> ${to}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
