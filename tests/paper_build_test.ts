/**
 * Papers as an author builds them: four papers (acmart sigconf, IEEEtran
 * conference, article twocolumn with hyperref, natbib, siunitx and xcolor,
 * article one-column with geometry) each `\input` every `.tex` the demo
 * writes (tables and figure floats), a second copy of the demo's runs under
 * other directory names, and the paper notebook's appendix (its code cells
 * run as one script, the same lib calls), from the paper's own directory.
 * Each is compiled twice with pdflatex; the test fails on any error, any
 * label defined twice, any undefined reference (the paper cites every
 * label), any Overfull box, any float taller than the page, and any
 * missing figure (a placeholder in the
 * text). Figure text: each included PDF's words (pdftotext -bbox) at the
 * width the paper prints it (\columnwidth or \textwidth, from the log) are
 * at least 7 pt, with the height of 7.5 pt DejaVu text (rsvg-convert's
 * 10 px) as the yardstick; a page with a figure rendered by pdftoppm is not
 * blank.
 *
 * Needs pdflatex with texlive-publishers (acmart, IEEEtran), rsvg-convert,
 * pdftotext and pdftoppm (poppler-utils) and deno; skipped outside CI
 * without them, with a message.
 */
import { deepEqual, ok } from "node:assert/strict";
import { basename, dirname, join, relative } from "node:path";
import { DEMO_STEPS } from "../lib/cli/demo.ts";
import { main } from "../lib/cli/main.ts";
import { PROJECT_ROOT } from "../lib/cli/kernelspec.ts";
import { demoOutputs, filesUnder } from "./demo_outputs.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

const TOOLS = ["pdflatex", "rsvg-convert", "pdftotext", "pdftoppm", "deno"];
const missing = TOOLS.filter((t) => !mayRun(t));
const ignore = missing.length > 0 && !IN_CI;
if (ignore) console.warn(`paper_build_test: skipped, may not run ${missing.join(", ")}`);

const PAPERS = {
  acmart: [
    "\\documentclass[sigconf]{acmart}",
    "\\usepackage{booktabs,graphicx}",
    "\\title{gatelab demo}\\author{A. Author}\\affiliation{\\institution{Somewhere}\\country{Nowhere}}",
  ],
  ieeetran: ["\\documentclass[conference]{IEEEtran}", "\\usepackage{booktabs,graphicx}"],
  twocolumn: [
    "\\documentclass[10pt,twocolumn]{article}",
    "\\usepackage{booktabs,graphicx,siunitx,xcolor}",
    "\\usepackage[numbers]{natbib}",
    "\\usepackage{hyperref}",
  ],
  onecolumn: [
    "\\documentclass[10pt]{article}",
    "\\usepackage[letterpaper,margin=1.25in]{geometry}",
    "\\usepackage{booktabs,graphicx}",
  ],
} as const;

/** Runs the demo's steps again with every output directory renamed `<name>-copy`. */
async function demoCopy(root: string): Promise<string> {
  const out = join(root, "copy");
  for (const [title, args, expected = 0] of DEMO_STEPS) {
    const mapped = args.map((a) => a.replace(/^reports\/demo\/([^/]+)/, `${out}/$1-copy`));
    const code = await main(mapped);
    if (code !== expected) throw new Error(`copy of demo step failed (exit ${code}): ${title}`);
  }
  return out;
}

/** The paper notebook's code cells as one script, run from notebooks/ with a small draw count. */
async function notebookAppendix(root: string): Promise<string> {
  const nb = JSON.parse(
    await Deno.readTextFile(join(PROJECT_ROOT, "notebooks", "03_paper_appendix.ipynb")),
  );
  const out = join(root, "nb", "appendix");
  const code = (nb.cells as { cell_type: string; source: string[] }[])
    .filter((c) => c.cell_type === "code").map((c) => c.source.join(""))
    .join("\n;\n")
    .replace(/^let OUT_DIR = .*$/m, `let OUT_DIR = ${JSON.stringify(out)};`)
    .replace(/^let DRAWS = .*$/m, "let DRAWS = 200;")
    .replace(/^let POWER_SIMS = .*$/m, "let POWER_SIMS = 50;")
    .replace(/^let CACHE_DIR = .*$/m, `let CACHE_DIR = ${JSON.stringify(join(root, "cache"))};`)
    .replace('"../lib/mod.ts"', JSON.stringify(join(PROJECT_ROOT, "lib", "mod.ts")))
    // Progress bars draw through the Jupyter kernel, which a script does not have.
    .replace(/gl\.notebookProgress\([^)]*\)/g, "undefined");
  const script = join(root, "notebook03.ts");
  await Deno.writeTextFile(script, code);
  const run = await new Deno.Command("deno", {
    args: [
      "run",
      "--config",
      join(PROJECT_ROOT, "deno.json"),
      "--allow-read",
      "--allow-write",
      "--allow-sys=cpus",
      "--allow-env",
      "--allow-run=rsvg-convert",
      script,
    ],
    cwd: join(PROJECT_ROOT, "notebooks"),
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) {
    throw new Error(`notebook 03 as a script failed: ${new TextDecoder().decode(run.stderr)}`);
  }
  return out;
}

/** Every label a `.tex` file defines. */
function labelsOf(tex: string): string[] {
  return [...tex.matchAll(/\\label\{([^}]*)\}/g)].map((m) => m[1]!);
}

async function pdflatex(dir: string, file: string): Promise<string> {
  await new Deno.Command("pdflatex", {
    args: ["-interaction=nonstopmode", "-no-shell-escape", file],
    cwd: dir,
    stdout: "null",
    stderr: "null",
  }).output();
  return await Deno.readTextFile(join(dir, file.replace(/\.tex$/, ".log")));
}

async function run(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" }).output();
  ok(out.success, `${command} ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout);
}

/** Word heights (pt) of a PDF's first page, from pdftotext -bbox, and the page width. */
async function wordHeights(
  pdf: string,
): Promise<{ heights: number[]; width: number; height: number }> {
  const html = await run("pdftotext", ["-bbox", "-f", "1", "-l", "1", pdf, "-"]);
  const [, w, h] = /<page width="([\d.]+)" height="([\d.]+)"/.exec(html) ?? [];
  const width = Number(w ?? NaN), height = Number(h ?? NaN);
  const heights = [
    ...html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"/g),
  ]
    .map((m) => Number(m[2]) - Number(m[1]));
  return { heights, width, height };
}

Deno.test({
  name:
    "papers: acmart, IEEEtran, article twocolumn and one-column input every demo table and figure, a second copy and the notebook appendix, with 0 errors, duplicate labels, undefined references, Overfull boxes and missing figures",
  ignore,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "gatelab-papers-" });
    try {
      const demo = await demoOutputs();
      const copy = await demoCopy(root);
      const appendix = await notebookAppendix(root);
      // Tables and figure floats of every run (the report-history run repeats the history's).
      const files = [...await filesUnder(demo, ".tex"), ...await filesUnder(copy, ".tex")]
        .filter((f) => !f.includes("/report-history"));
      const byRun = new Map<string, string[]>();
      for (const f of files) {
        const run = relative(root, f).startsWith("copy") ? relative(copy, f) : relative(demo, f);
        const key = run.split("/")[0]! + (f.startsWith(copy) ? "@copy" : "");
        byRun.set(key, [...(byRun.get(key) ?? []), f]);
      }
      const labels: string[] = [];
      for (const f of files) labels.push(...labelsOf(await Deno.readTextFile(f)));
      const figureFiles = files.filter((f) => /\\includegraphics/.test(Deno.readTextFileSync(f)));
      ok(
        files.length >= 60 && figureFiles.length >= 40,
        `${files.length} files, ${figureFiles.length} figures`,
      );
      // Not one label twice across the two copies of the demo.
      deepEqual(labels.filter((l, i) => labels.indexOf(l) !== i), []);

      for (const [paper, preamble] of Object.entries(PAPERS)) {
        const dir = join(root, paper);
        await Deno.mkdir(dir);
        const body: string[] = [];
        for (const [run, list] of byRun) {
          const cited = list.flatMap((f) => labelsOf(Deno.readTextFileSync(f)));
          body.push(
            `\\section{Run ${run.replace(/[^A-Za-z0-9 -]/g, " ")}}`,
            `This run's results: ${cited.map((l) => `\\ref{${l}}`).join(", ")}.`,
            ...list.map((f) => `\\input{${relative(dir, f)}}`),
            "\\clearpage",
          );
        }
        const doc = [
          ...preamble,
          "\\begin{document}",
          ...(paper === "acmart" ? ["\\maketitle"] : []),
          "\\typeout{GATELAB-WIDTHS column=\\the\\columnwidth, text=\\the\\textwidth, height=\\the\\textheight}",
          ...body,
          "\\appendix",
          `\\input{${relative(dir, join(appendix, "appendix"))}}`,
          "\\end{document}",
          "",
        ].join("\n");
        await Deno.writeTextFile(join(dir, "paper.tex"), doc);
        await pdflatex(dir, "paper.tex");
        const log = await pdflatex(dir, "paper.tex");
        const problems = log.split("\n").filter((line) =>
          /^Overfull \\[hv]box|^! |LaTeX Error|multiply defined|undefined|not found|Float too large/
            .test(line)
        );
        deepEqual(problems, [], `${paper}: ${problems.slice(0, 5).join(" | ")}`);
        const text = await run("pdftotext", [join(dir, "paper.pdf"), "-"]);
        ok(!text.includes("is missing: gatelab writes it"), `${paper}: a figure is missing`);

        // Figure text at the width each figure prints at.
        const [, column, textWidth, textHeight] =
          /GATELAB-WIDTHS column=([\d.]+)pt, text=([\d.]+)pt, height=([\d.]+)pt/.exec(log)!
            .map(Number);
        const yardstick = await calibrate(root);
        for (const f of figureFiles) {
          const tex = await Deno.readTextFile(f);
          const printed = tex.includes("width=\\columnwidth") ? column! : textWidth!;
          const pdf = join(dirname(f), `${basename(f, ".tex")}.pdf`);
          const { heights, width, height } = await wordHeights(pdf);
          ok(heights.length > 0, `${pdf}: no text`);
          // The float caps the height at 0.75\textheight (keepaspectratio).
          const shown = Math.min(printed, (0.75 * textHeight! * width) / height);
          const smallest = Math.min(...heights) * (shown / width) / yardstick;
          ok(smallest >= 7, `${paper} ${relative(root, pdf)}: text at ${smallest.toFixed(2)} pt`);
        }
      }
      // A page with figures, rendered: not blank.
      const gray = await new Deno.Command("pdftoppm", {
        args: ["-gray", "-r", "30", "-f", "3", "-l", "3", join(root, "twocolumn", "paper.pdf")],
        stdout: "piped",
      }).output();
      const pixels = gray.stdout.subarray(gray.stdout.length - 250 * 330);
      ok(pixels.filter((v) => v < 128).length > 500, "page 3 is blank");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

/** pdftotext's word height per pt of font size for rsvg-convert's text (DejaVu Sans or the like). */
async function calibrate(root: string): Promise<number> {
  const svg = join(root, "yardstick.svg");
  await Deno.writeTextFile(
    svg,
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" font-family="system-ui, sans-serif" font-size="10"><text x="5" y="20">0.125 reward</text></svg>',
  );
  await run("rsvg-convert", ["-f", "pdf", "-o", join(root, "yardstick.pdf"), svg]);
  const { heights } = await wordHeights(join(root, "yardstick.pdf"));
  return Math.min(...heights) / 7.5; // 10 px at 96 dpi
}
