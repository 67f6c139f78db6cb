/**
 * Test helper: compiles `.tex` tables inside a plain `article` page with
 * pdflatex and reports every Overfull box, error and missing
 * package, per input file. Needs `--allow-run=pdflatex`.
 *
 * @module
 */

/** The layouts a table must survive: one-column and two-column article pages. */
export const LAYOUTS = {
  article: "\\documentclass[10pt]{article}",
  twocolumn: "\\documentclass[10pt,twocolumn]{article}",
} as const;

/** What pdflatex said about one input file. */
export interface TexProblems {
  readonly file: string;
  readonly problems: readonly string[];
}

/** Whether pdflatex may be run (the permission is granted and the binary exists). */
export function pdflatexAvailable(): boolean {
  if (Deno.permissions.querySync({ name: "run", command: "pdflatex" }).state !== "granted") {
    return false;
  }
  try {
    return new Deno.Command("pdflatex", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/**
 * Compiles one document that `\input`s every file (a `\clearpage` after
 * each, so floats never pile up) and splits pdflatex's log by file.
 *
 * @param files Absolute paths of `.tex` files.
 * @param layout Which page layout.
 * @param pdfOut Where to copy the PDF, if wanted.
 */
export async function compileTables(
  files: readonly string[],
  layout: keyof typeof LAYOUTS,
  pdfOut?: string,
): Promise<{ perFile: TexProblems[]; log: string; exitCode: number }> {
  const dir = await Deno.makeTempDir({ prefix: "gatelab-tex-" });
  try {
    const body = files.map((f, i) =>
      `\\typeout{GATELAB-FILE ${i}}\n\\input{${f}}\n\\clearpage\n\\typeout{GATELAB-END ${i}}`
    );
    const doc = [
      LAYOUTS[layout],
      "\\usepackage{booktabs,graphicx}", // graphicx: the figures' .tex floats
      "\\begin{document}",
      ...body,
      "\\end{document}",
      "",
    ].join("\n");
    await Deno.writeTextFile(`${dir}/paper.tex`, doc);
    const { code } = await new Deno.Command("pdflatex", {
      args: ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "paper.tex"],
      cwd: dir,
      stdout: "null",
      stderr: "null",
    }).output();
    const log = await Deno.readTextFile(`${dir}/paper.log`).catch(() => "");
    if (pdfOut && code === 0) await Deno.copyFile(`${dir}/paper.pdf`, pdfOut);
    const perFile: TexProblems[] = files.map((file, i) => {
      const start = log.indexOf(`GATELAB-FILE ${i}\n`);
      const endAt = log.indexOf(`GATELAB-END ${i}\n`);
      const part = start < 0 ? "" : log.slice(start, endAt < 0 ? undefined : endAt);
      const problems = part.split("\n").filter((line) =>
        /^Overfull \\[hv]box|^! |LaTeX Error|not found|Missing/.test(line)
      );
      if (start < 0 || endAt < 0) problems.push("pdflatex stopped before the end of this file");
      return { file, problems };
    });
    return { perFile, log, exitCode: code };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
