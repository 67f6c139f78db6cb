/**
 * Run scopes and figures without rsvg-convert, as a user meets them:
 *
 * - `gate plan-power --label-prefix "Gate A"` labels its tables
 *   `tab:Gate-A:...` and starts every caption with `Gate A: `; by default
 *   the --out directory names the run; a prefix with no letter or digit is
 *   exit 2 with one line and nothing written.
 * - A figure written where rsvg-convert may not run (a Deno process without
 *   --allow-run, like a user's own script) gets SVG only and one line naming
 *   the tool; its `.tex` float still compiles with pdflatex and prints a
 *   framed note saying which tool is missing (needs pdflatex and deno;
 *   skipped outside CI without them).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { main } from "../lib/cli/main.ts";
import { PROJECT_ROOT } from "../lib/cli/kernelspec.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

const POWER = ["plan-power", "--tasks", "200", "--columns", "6", "--p-present", "0.5"];

async function quietly<T>(f: () => Promise<T>): Promise<T> {
  const { log, error } = console;
  console.log = console.error = () => {};
  try {
    return await f();
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("--label-prefix names the run in every label and caption; the --out directory by default", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-scope-" });
  try {
    const args = [...POWER, "--resid-sd", "0.3", "--sims", "20"];
    equal(
      await quietly(() => main([...args, "--out", join(dir, "x"), "--label-prefix", "Gate A"])),
      0,
    );
    const tex = await Deno.readTextFile(join(dir, "x", "power.tex"));
    deepEqual([...tex.matchAll(/\\label\{([^}]*)\}/g)].map((m) => m[1]), [
      "tab:Gate-A:power",
      "tab:Gate-A:power-tasks",
      "tab:Gate-A:power-columns",
    ]);
    deepEqual([...tex.matchAll(/\\caption\{([^}]*)\}/g)].map((m) => m[1]), [
      "Gate A: power plan",
      "Gate A: minimum detectable effect by number of tasks",
      "Gate A: minimum detectable effect by number of candidate columns",
    ]);
    equal(await quietly(() => main([...args, "--out", join(dir, "power_b")])), 0);
    const md = await Deno.readTextFile(join(dir, "power_b", "power.md"));
    ok(md.startsWith("**Power B: power plan**"), md.slice(0, 40));
    ok((await Deno.readTextFile(join(dir, "power_b", "power.tex"))).includes("tab:power-b:power"));
    // A prefix with nothing to label by: a usage error, nothing written.
    const lines: string[] = [];
    const { error } = console;
    console.error = (line: string) => lines.push(line);
    try {
      equal(await main([...args, "--out", join(dir, "bad"), "--label-prefix", "!!"]), 2);
    } finally {
      console.error = error;
    }
    equal(lines.length, 1);
    ok(lines[0]!.includes("--label-prefix"), lines[0]);
    equal(await Deno.stat(join(dir, "bad")).catch(() => null), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const ignore = !(mayRun("pdflatex") && mayRun("deno")) && !IN_CI;
if (ignore) console.warn("paper_scope_test: placeholder test skipped, needs pdflatex and deno");

Deno.test({
  name:
    "without rsvg-convert: SVG only, one line naming the tool, and the figure's float compiles with a placeholder",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-noconv-" });
    try {
      const script = join(dir, "figures.ts");
      await Deno.writeTextFile(
        script,
        `import { figureFiles, stabilityPlot } from ${
          JSON.stringify(join(PROJECT_ROOT, "lib", "figures", "mod.ts"))
        };
const figure = stabilityPlot([{ label: "a", frequency: 0.5 }, { label: "b", frequency: 1 }]);
const files = await figureFiles([figure], {
  scope: { label: "s", name: "Study" },
  onMissingConverter: (line) => console.log(line),
});
for (const [name, text] of Object.entries(files)) Deno.writeTextFileSync(${
          JSON.stringify(dir)
        } + "/" + name, text as string);
`,
      );
      // No --allow-run: rsvg-convert may not run, as in a user's own script.
      const out = await new Deno.Command("deno", {
        args: [
          "run",
          "--config",
          join(PROJECT_ROOT, "deno.json"),
          "--allow-read",
          "--allow-write",
          script,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      ok(out.success, new TextDecoder().decode(out.stderr));
      deepEqual(stdout.trim().split("\n").length, 1, stdout);
      ok(stdout.includes("rsvg-convert"), stdout);
      const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
      deepEqual(names, ["figures.ts", "selection_stability.svg", "selection_stability.tex"]);
      await Deno.mkdir(join(dir, "paper"));
      await Deno.writeTextFile(
        join(dir, "paper", "paper.tex"),
        "\\documentclass[10pt,twocolumn]{article}\n\\usepackage{graphicx}\n\\begin{document}\n" +
          "See Figure~\\ref{fig:s:selection-stability}.\n\\input{../selection_stability}\n" +
          "\\end{document}\n",
      );
      let log = "";
      for (let pass = 0; pass < 2; pass++) {
        const { code } = await new Deno.Command("pdflatex", {
          args: ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"],
          cwd: join(dir, "paper"),
          stdout: "null",
          stderr: "null",
        }).output();
        log = await Deno.readTextFile(join(dir, "paper", "paper.log"));
        equal(code, 0, log.slice(-1500));
      }
      deepEqual(
        log.split("\n").filter((l) => /^Overfull|^! |LaTeX Error|undefined|not found/.test(l)),
        [],
      );
      ok(log.includes("Output written"), "a PDF was written");
      if (mayRun("pdftotext")) {
        const text = new TextDecoder().decode(
          (await new Deno.Command("pdftotext", {
            args: [join(dir, "paper", "paper.pdf"), "-"],
            stdout: "piped",
          }).output()).stdout,
        );
        ok(/is missing: gatelab writes it with rsvg-convert/.test(text.replace(/\s+/g, " ")), text);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
