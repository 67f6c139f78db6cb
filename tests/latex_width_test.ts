/**
 * The width estimate of a LaTeX cell is never optimistic: random ids made
 * of LaTeX specials, control sequences, brackets, hyphens before digits and
 * letters are set by pdflatex in an \hbox at 10 pt (article, Computer
 * Modern), and each box's measured width (\the\wd) must not exceed
 * `latexCellWidth` of the same text. Needs pdflatex (skipped outside CI
 * without it).
 */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { latexCell, latexCellWidth } from "../lib/table/table.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

const ignore = !mayRun("pdflatex") && !IN_CI;
if (ignore) console.warn("latex_width_test: skipped, pdflatex may not run");

Deno.test({
  name: "latex width: the estimate of an id of specials is never below what pdflatex measures",
  ignore,
  async fn() {
    const piece = fc.constantFrom(
      ..."\\{}~^#%&$_<>|[]-'`\"!?=+*@/.,:;()".split(""),
      "\\input{x}",
      "\\def\\y{}",
      " -1",
      "-0.5",
      "[0.1, 0.2]",
      "--",
      "``",
      "fi",
      "ff",
      "AV",
      "Wo",
      "a",
      "m",
      "W",
      "0",
      " ",
    );
    const ids = fc.sample(
      fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => p.join("")),
      { numRuns: 300, seed: 20261201 },
    );
    const dir = await Deno.makeTempDir({ prefix: "gatelab-width-" });
    try {
      const body = ids.map((id, i) =>
        `\\setbox0\\hbox{${latexCell(id)}}\\typeout{GATELAB-W ${i} \\the\\wd0}`
      );
      await Deno.writeTextFile(
        `${dir}/w.tex`,
        ["\\documentclass[10pt]{article}", "\\begin{document}", ...body, "\\end{document}", ""]
          .join("\n"),
      );
      const { code } = await new Deno.Command("pdflatex", {
        args: ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "w.tex"],
        cwd: dir,
        stdout: "null",
        stderr: "null",
      }).output();
      const log = await Deno.readTextFile(`${dir}/w.log`);
      deepEqual(code, 0, log.slice(-1500));
      const measured = new Map(
        [...log.matchAll(/^GATELAB-W (\d+) ([\d.]+)pt$/gm)].map((
          m,
        ) => [Number(m[1]), Number(m[2])]),
      );
      deepEqual(measured.size, ids.length);
      const optimistic = ids.flatMap((id, i) => {
        const tex = measured.get(i)!;
        const estimate = latexCellWidth(id);
        return estimate + 1e-3 < tex
          ? [`${JSON.stringify(id)}: estimate ${estimate.toFixed(2)} < ${tex} pt`]
          : [];
      });
      deepEqual(optimistic, []);
      ok(measured.size === 300);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
