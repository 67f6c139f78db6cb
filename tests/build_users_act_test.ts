/**
 * The user's act, as a user does it with the study of docs/build.md ("A
 * first study", the README's): declare it, build it, read every gate's
 * coefficients in one pandas frame, change one row of the CSV and rebuild
 * only what reads it, `\input` the study's appendix from a paper of one's
 * own in another folder, and compile the skeleton `main.tex` in each of
 * the three classes (acmart, IEEEtran, article), each twice with pdflatex:
 * 0 errors, 0 Overfull boxes, 0 undefined or duplicate labels. The
 * study-wide tables are checked against the steps' own tables by pandas
 * (an independent reader). Through the real CLI; needs python3 with
 * pandas and pyarrow, and pdflatex with texlive-publishers.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { builtIds, FIRST_STUDY, gate, ROOT, writeFirstStudy } from "./build_study.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";
import { EXIT_WITHOUT_TEARDOWN } from "./python_exit.ts";

const TOOLS = ["python3", "pdflatex"];
const ignore = TOOLS.some((t) => !mayRun(t)) && !IN_CI;

/** pdflatex twice in `cwd` (by-products to `build`, if given); the second run's log. */
async function compile(cwd: string, file: string, build?: string): Promise<string> {
  const args = ["-interaction=nonstopmode", "-no-shell-escape", "-halt-on-error"];
  if (build !== undefined) {
    await Deno.mkdir(build, { recursive: true });
    args.push("-output-directory", build);
  }
  for (let i = 0; i < 2; i++) {
    await new Deno.Command("pdflatex", {
      args: [...args, file],
      cwd,
      stdout: "null",
      stderr: "null",
    })
      .output();
  }
  return await Deno.readTextFile(join(build ?? cwd, file.replace(/\.tex$/, ".log")));
}

/** The problems of a LaTeX log that a paper must not have. */
function problems(log: string): string[] {
  return log.split("\n").filter((l) =>
    /^! |Overfull \\[hv]box|undefined|multiply defined|Float\(s\) lost|dead cycles/.test(l)
  );
}

Deno.test({
  name:
    "build, the user's act: a study built, read in pandas, one CSV row changed, \\input in a paper of one's own, main.tex in three classes",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-users-act-" });
    try {
      await writeFirstStudy(dir);
      const built = await gate(dir, ["build"]);
      equal(built.code, 0, built.stderr);
      match(
        built.stdout,
        /^ok: 1 import and 6 steps, with the study's tables, report and paper in out: 7 built/,
      );

      // Every gate's coefficients in one frame, equal to each step's own table.
      const py = await new Deno.Command("python3", {
        args: [
          "-c",
          `
import json, pandas as pd
study = pd.read_parquet("out/tables/coefficients.parquet")
steps = list(dict.fromkeys(study["step"]))
same = all(
    study[study["step"] == s].drop(columns=["study", "step", "gate", "checkpoint_id", "round"])
    .reset_index(drop=True).equals(pd.read_parquet(f"out/{s}/coefficients.parquet"))
    for s in steps)
print(json.dumps({"steps": steps, "rows": len(study), "same": same,
  "gates": sorted(set(study["gate"].dropna())), "checkpoints": sorted(set(study["checkpoint_id"].dropna())),
  "rounds": sorted(set(study["round"].dropna()))}))
${EXIT_WITHOUT_TEARDOWN}`,
        ],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      equal(py.code, 0, new TextDecoder().decode(py.stderr));
      const read = JSON.parse(new TextDecoder().decode(py.stdout));
      deepEqual(read.steps, ["ck-200-r1", "ck-200-r2", "pooled"]);
      equal(read.same, true, "the study-wide rows are each step's own, column for column");
      deepEqual(read.gates, ["r1", "r2"]); // gate import names a gate by its round
      deepEqual(read.checkpoints, ["ck-200"]);
      deepEqual(read.rounds, ["r1", "r2"]);

      // The README's query over the study-wide tables, as written there.
      const readme = Deno.readTextFileSync(join(ROOT, "README.md"));
      const query = /deno task gate sql gatelab\.yaml --query "([^"]+)"/.exec(readme)![1]!;
      const sql = await gate(dir, ["sql", "gatelab.yaml", "--query", query]);
      equal(sql.code, 0, sql.stderr);
      match(sql.stdout, /^ck-200-r1 +q\.v1 /m);
      match(sql.stdout, /^pooled +q\.v1 /m);

      // A paper of one's own, in another folder, \inputs the whole study.
      const own = join(dir, "my-paper");
      await Deno.mkdir(own);
      await Deno.writeTextFile(
        join(own, "paper.tex"),
        [
          "\\documentclass[sigconf]{acmart}",
          "\\usepackage{booktabs,graphicx}",
          "\\title{My study}\\author{A. Author}\\affiliation{\\institution{Somewhere}\\country{Nowhere}}",
          "\\begin{document}",
          "\\maketitle",
          "\\section{Results}",
          "The pooled fit is in Table~\\ref{tab:pooled:coefficients-reward} (Section~\\ref{sec:checkpoint-200:pooled}).",
          "\\clearpage",
          "\\appendix",
          "\\input{../out/paper/appendix}",
          "\\end{document}",
          "",
        ].join("\n"),
      );
      const mine = await compile(own, "paper.tex");
      deepEqual(problems(mine), [], "my paper");
      ok(Deno.statSync(join(own, "paper.pdf")).size > 10_000);

      // One changed row rebuilds the import and what reads it, then the study-wide outputs.
      const csv = (await Deno.readTextFile(join(dir, "rollouts.csv"))).split("\n");
      const row = csv.findIndex((l) => l.includes(",masked,") && l.includes(",r2,"));
      const cells = csv[row]!.split(",");
      cells[4] = String(Number(cells[4]) + 0.1);
      csv[row] = cells.join(",");
      await Deno.writeTextFile(join(dir, "rollouts.csv"), csv.join("\n"));
      const rebuilt = await gate(dir, ["build"]);
      equal(rebuilt.code, 0, rebuilt.stderr);
      equal(builtIds(rebuilt.stderr).length, 7);
      for (const unit of ["tables", "report", "paper"]) {
        match(rebuilt.stderr, new RegExp(`\\] ${unit} \\.\\.\\. built `));
      }

      // main.tex as written, in each class, compiled without leaving a file in out/paper.
      for (const paperClass of ["acm", "ieee", "article"]) {
        const text = paperClass === "acm"
          ? FIRST_STUDY
          : `${FIRST_STUDY}paper: {class: ${paperClass}}\n`;
        await Deno.writeTextFile(join(dir, "gatelab.yaml"), text);
        const again = await gate(dir, ["build"]);
        equal(again.code, 0, again.stderr);
        const log = await compile(
          join(dir, "out", "paper"),
          "main.tex",
          join(dir, `build-${paperClass}`),
        );
        deepEqual(problems(log), [], `main.tex, ${paperClass}`);
      }
      const last = await gate(dir, ["build"]);
      match(last.stdout, /^up to date: /, "compiling main.tex left out/paper as gatelab wrote it");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
