/**
 * Long ids of LaTeX specials in every two-column class gatelab writes for
 * (article `twocolumn`, IEEEtran `conference`, acmart `sigconf`): a gate
 * whose version ids run 30-60 characters (`x\input{<file>}`, `add{y}\`,
 * `verify_v4$`, with `_ # % & ~ ^ { } $`) and whose reward components have
 * long names of specials (captions and notes name them), analysed by `gate
 * analyze`; then its coefficient and selection tables again with the ids
 * cut, per pattern of glyphs, to the longest that the width estimate still
 * puts in one column (a `table`), so each sits at the estimate's limit.
 * Every file is compiled in one document per class, each tabular boxed to
 * read its width (`\wd`) in the log. The test fails on any Overfull box or
 * error, on a one-column table whose tabular is wider than the class's
 * `\columnwidth` (read from the log) or wider than the estimate (which
 * models 10 pt Computer Modern and is never optimistic for a one-column
 * table in these classes' fonts: CM, Times, Libertine).
 *
 * acmart sets Libertine where its fonts are installed (texlive-fonts-extra)
 * and falls back to Computer Modern where they are not (Debian's
 * texlive-publishers alone, as in CI); there pdfTeX stopped on microtype's
 * font expansion of a stretched caption line holding a text-mode `\$`
 * (a TS1 glyph, a bitmap font without cm-super), so `$` prints as math
 * mode's dollar and the test also fails on any bitmap (`.pk`) font in the
 * log. Needs pdflatex (skipped outside CI without it).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { run } from "../lib/cli/analyze.ts";
import { coefficientTables, selectionTable } from "../lib/analyze/tables.ts";
import { latexLayout, type Table, toLatex } from "../lib/table/table.ts";
import { runScope, scopeTables } from "../lib/table/run_scope.ts";
import { writeGateFixture } from "./fixtures.ts";
import { filesUnder } from "./demo_outputs.ts";
import { IN_CI, mayRun } from "./ci_tools.ts";

const ignore = !mayRun("pdflatex") && !IN_CI;
if (ignore) console.warn("paper_long_ids_test: skipped, pdflatex may not run");

/** The classes, as lib/build/assemble/study_paper.ts writes their preambles. */
const CLASSES: Readonly<Record<string, readonly string[]>> = {
  article: ["\\documentclass[10pt,twocolumn]{article}", "\\usepackage{booktabs,graphicx}"],
  ieee: ["\\documentclass[conference]{IEEEtran}", "\\usepackage{booktabs,graphicx}"],
  acm: [
    "\\documentclass[sigconf]{acmart}",
    "\\usepackage{booktabs,graphicx}",
    "\\settopmatter{printacmref=false}",
    "\\setcopyright{none}",
    "\\renewcommand\\footnotetextcopyrightpermission[1]{}",
    "\\title{t}\\author{A. Author}\\affiliation{\\institution{I}\\country{C}}",
  ],
};

/** Version ids as the issue spells them, inside long ids. */
const IDS = [
  "x\\input{<file>}_prompt_template_with_examples_v12",
  "add{y}\\_strict_checker#2%final&more~tilde^hat_ok",
  "verify_v4$rewrite\\relax{}__long_suffix_here_final",
  "tool\\use{calc}$math$_x^2~approx&and%50_percent",
  "plan_then_act{deep}\\\\nested#hash%pct&amp~^_end",
];
/** Reward components whose names land in captions and notes. */
const COMPONENTS = [
  "r_strict",
  "r_success_rate_with_partial_credit\\and{bonus}_v4$_per_task_weighted",
  "r_format_compliance#calls%ok&done~^_x_verify_v4$_strict_checker_long",
];

/** Patterns of glyphs the edge ids repeat: the specials, wide glyphs, brackets. */
const PATTERNS = [
  "x\\input{<file>}add{y}\\verify_v4$#%&~^",
  "verify_v4_",
  "I",
  "o",
  "W",
  "@",
  "[]",
  "\\{}",
  "$_#%&",
  "~^",
];

/** Replaces every string (and key) of a JSON value through `f`. */
function mapJson(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === "string") return f(v);
  if (Array.isArray(v)) return v.map((x) => mapJson(x, f));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), mapJson(x, f)]));
  }
  return v;
}

/**
 * The coefficient and selection tables of an analysis with every version,
 * chunk and slot id replaced by `pattern` cut to the longest length at which
 * the table is still a one-column `table` (each id ends in its own letter).
 */
function edgeTables(out: string): { name: string; tex: string }[] {
  const contributions = JSON.parse(Deno.readTextFileSync(join(out, "contributions.json")));
  const selection = JSON.parse(Deno.readTextFileSync(join(out, "selection.json")));
  const old: string[] = [
    ...new Set<string>(
      contributions.columns.flatMap((
        c: Record<string, string>,
      ) => [c.version_id, c.chunk_id, c.slot_id]),
    ),
  ];
  const builders: [string, (f: (s: string) => string) => Table[]][] = [
    ["coefficients", (f) => coefficientTables(mapJson(contributions, f) as never)],
    ["selection", (f) => [selectionTable(mapJson(selection, f) as never)]],
  ];
  const scope = runScope(out);
  const tables: { name: string; tex: string }[] = [];
  for (const pattern of PATTERNS) {
    const rename = (len: number) => {
      const body = pattern.repeat(Math.ceil(len / pattern.length));
      const ids = new Map(old.map((id, i) => [id, body.slice(0, len - 1) + "ABCDEFGHIJKLMNOP"[i]]));
      return (s: string) => ids.get(s) ?? s;
    };
    for (const [name, build] of builders) {
      build(rename(1)).forEach((_, t) => {
        const fits = (len: number) => latexLayout(build(rename(len))[t]!).environment === "table";
        if (!fits(1)) return;
        let [lo, hi] = [1, 400];
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (fits(mid)) lo = mid;
          else hi = mid;
        }
        const [table] = scopeTables([build(rename(lo))[t]!], scope) as [Table];
        tables.push({
          name: `${name} ${t} ${JSON.stringify(pattern)} x${lo}`,
          tex: toLatex(table),
        });
      });
    }
  }
  return tables;
}

/** The table floats of a `.tex` file, each with the comment lines above it. */
function splitFloats(name: string, tex: string): { name: string; tex: string }[] {
  const floats = [...tex.matchAll(/^(?:%.*\n)*\\begin\{table\*?\}[\s\S]*?^\\end\{table\*?\}$/gm)];
  return floats.map((m, i) => ({ name: `${name} ${i}`, tex: m[0] + "\n" }));
}

/** A float with its (outermost) tabular boxed, its width typed out as `GATELAB-W <i> <wd>`. */
function measured(tex: string, i: number): string {
  const start = tex.indexOf("\\begin{tabular}");
  const end = tex.lastIndexOf("\\end{tabular}") + "\\end{tabular}".length;
  return `${tex.slice(0, start)}\\setbox0\\hbox{${tex.slice(start, end)}}` +
    `\\typeout{GATELAB-W ${i} \\the\\wd0}\\usebox0${tex.slice(end)}`;
}

/** Compiles the floats in one document of a class; returns pdflatex's log. */
async function compile(dir: string, cls: string, files: readonly string[]): Promise<string> {
  const body = files.map((f, i) =>
    `\\typeout{GATELAB-FILE ${i}}\n\\input{${f}}\n\\clearpage\n\\typeout{GATELAB-END ${i}}`
  );
  const doc = [
    ...CLASSES[cls]!,
    "\\begin{document}",
    ...(cls === "acm" ? ["\\maketitle"] : []),
    "\\typeout{GATELAB-COLUMN \\the\\columnwidth}",
    ...body,
    "\\end{document}",
    "",
  ].join("\n");
  await Deno.writeTextFile(join(dir, `${cls}.tex`), doc);
  await new Deno.Command("pdflatex", {
    args: ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", `${cls}.tex`],
    cwd: dir,
    stdout: "null",
    stderr: "null",
  }).output();
  return await Deno.readTextFile(join(dir, `${cls}.log`)).catch(() => "");
}

Deno.test({
  name:
    "latex: long ids of specials fit each two-column class (article, IEEEtran, acmart) where the estimate says",
  ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gatelab-long-ids-" });
    try {
      const slots = IDS.map((version_id, i) => ({
        slot_id: `s${i}`,
        versions: [{ version_id, role: "add" as const, chunk_id: version_id }],
      }));
      const fx = await writeGateFixture(dir, {
        tasks: 40,
        slots,
        components: COMPONENTS,
        budgetK: 3,
        effects: { [IDS[0]!]: 0.1, [IDS[2]!]: 0.05 },
      });
      const out = join(dir, "out");
      const { log, error } = console;
      console.log = console.error = () => {};
      let code: number;
      try {
        code = await run([
          fx.gateDir,
          "--out",
          out,
          "--bootstrap",
          "200",
          "--seed",
          "3",
          "--metric",
          COMPONENTS[2]!,
        ]);
      } finally {
        console.log = log;
        console.error = error;
      }
      equal(code, 0);
      const written = await filesUnder(out, ".tex");
      const edge = edgeTables(out);
      ok(edge.length >= 2 * PATTERNS.length, `${edge.length} edge tables`);
      const floats = [
        ...written.flatMap((f) => splitFloats(f.slice(out.length + 1), Deno.readTextFileSync(f))),
        ...edge,
      ];
      const files = floats.map((f, i) => {
        const path = join(dir, `float${i}.tex`);
        Deno.writeTextFileSync(path, measured(f.tex, i));
        return path;
      });
      for (const cls of ["article", "ieee", "acm"]) {
        const texLog = await compile(dir, cls, files);
        const column = Number(/^GATELAB-COLUMN ([\d.]+)pt$/m.exec(texLog)?.[1]);
        ok(column > 200, `${cls}: \\columnwidth ${column}`);
        const failures: string[] = [];
        let slack = Infinity;
        floats.forEach((f, i) => {
          const start = texLog.indexOf(`GATELAB-FILE ${i}\n`);
          const end = texLog.indexOf(`GATELAB-END ${i}\n`);
          if (start < 0 || end < 0) {
            const stop = texLog.split("\n").find((l) => l.startsWith("! ")) ?? "no error line";
            failures.push(`${f.name}: pdflatex stopped before its end (${stop})`);
            return;
          }
          const part = texLog.slice(start, end);
          const problems = part.split("\n").filter((l) => /^Overfull \\[hv]box|^! /.test(l));
          if (problems.length > 0) failures.push(`${f.name}: ${problems.join("; ")}`);
          const width = Number(new RegExp(`^GATELAB-W ${i} ([\\d.]+)pt$`, "m").exec(part)?.[1]);
          const estimate = Number(/about (\d+) pt at/.exec(f.tex)?.[1]);
          if (f.tex.includes("\\begin{table}")) {
            slack = Math.min(slack, column - width);
            if (!(width <= column)) failures.push(`${f.name}: ${width} pt > column ${column} pt`);
            if (!(width <= estimate)) {
              failures.push(`${f.name}: tabular ${width} pt, estimate ${estimate} pt`);
            }
          }
        });
        // A bitmap font (a .pk file, Type 3 in the PDF) is refused by publishers' PDF checks.
        const bitmaps = [...new Set(texLog.replace(/\n/g, "").match(/[\w-]+\.\d+pk/g) ?? [])];
        deepEqual(bitmaps, [], `${cls}: bitmap fonts`);
        deepEqual(failures, [], `${cls}:\n${failures.join("\n")}`);
        ok(slack >= 0 && slack < Infinity, `${cls}: smallest slack ${slack} pt`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
