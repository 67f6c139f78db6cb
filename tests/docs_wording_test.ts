/**
 * User-facing text speaks to a user on their own machine: no design-record
 * numbers instead of the rule itself, no notes about the machine gatelab
 * was built on, no links to files outside the repository, no empty README.
 */
import { ok } from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const SELF = new URL(import.meta.url).pathname;

/** Text files of the project (README, docs, lib, tests, scripts, bench, notebooks, reports/README.md). */
async function projectFiles(): Promise<string[]> {
  const out: string[] = [join(ROOT, "README.md"), join(ROOT, "reports", "README.md")];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) {
        if (e.name !== "data" && e.name !== "snapshots") await walk(path);
      } else if (/\.(ts|md|py|ipynb|c|sh)$/.test(e.name) && path !== SELF) out.push(path);
    }
  };
  for (const dir of ["docs", "lib", "tests", "scripts", "bench", "notebooks", ".ci"]) {
    await walk(join(ROOT, dir)).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
  out.push(join(ROOT, ".ci", "run"));
  return out;
}

const FORBIDDEN: readonly [RegExp, string][] = [
  [/\bseeds? 0\d\d\b/i, "a design-record number (state the rule itself)"],
  [/\bseeds \d{3} and \d{3}\b/i, "design-record numbers (state the rule itself)"],
  [new RegExp("STACK" + "\\.md"), "a file that is not in the repository"],
  [new RegExp("\\bshared" + "/"), "a directory outside the repository"],
  [/out of reach here/i, "a note about the build machine"],
  [/\bthis (build )?machine\b/i, "a note about the build machine"],
];

Deno.test("no design-record numbers, build-machine notes or outside files in the project's text", async () => {
  const problems: string[] = [];
  for (const path of await projectFiles()) {
    const lines = (await Deno.readTextFile(path)).split("\n");
    lines.forEach((line, i) => {
      for (const [pattern, what] of FORBIDDEN) {
        if (pattern.test(line)) {
          problems.push(`${relative(ROOT, path)}:${i + 1}: ${what}: ${line.trim()}`);
        }
      }
    });
  }
  ok(problems.length === 0, problems.join("\n"));
});

Deno.test("every relative link in README.md and docs/ names a file in the repository", async () => {
  const docs = [join(ROOT, "README.md"), join(ROOT, "reports", "README.md")];
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (e.name.endsWith(".md")) docs.push(join(ROOT, "docs", e.name));
  }
  const missing: string[] = [];
  for (const path of docs) {
    const text = await Deno.readTextFile(path);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const file = join(dirname(path), target!.split("#")[0]!);
      try {
        await Deno.stat(file);
      } catch {
        missing.push(`${relative(ROOT, path)} links to ${target}`);
      }
    }
  }
  ok(missing.length === 0, missing.join("\n"));
});

Deno.test("reports/README.md says what the generated reports are", async () => {
  const text = await Deno.readTextFile(join(ROOT, "reports", "README.md"));
  ok(text.trim().length > 200 && text.includes("deno task demo"), "reports/README.md is empty");
});
