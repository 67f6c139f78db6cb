/**
 * The user's act: every `.tex` table the demo writes is `\input` into a
 * plain `article` page, once one-column (345 pt text width) and once
 * two-column (229.5 pt columns, 469 pt text width), and compiled with
 * pdflatex (TeX Live: texlive-latex-base, -recommended, -extra). Any
 * Overfull box, any error and any missing package fails the
 * test. Needs `--allow-run=pdflatex`; without it, or without pdflatex, the
 * test is ignored with a message (CI installs TeX Live and counts an
 * ignored test as a failure). Last, docs/paper.md's "A paper from two runs"
 * as written: its commands, then its acmart main.tex compiled twice (needs
 * texlive-publishers and deno), with every float of every input typeset.
 */
import { deepEqual, ok } from "node:assert/strict";
import { compileTables, pdflatexAvailable } from "./latex_compile.ts";
import { ignoreWithout, IN_CI, warnSkip } from "./ci_tools.ts";
import { demoOutputs, filesUnder } from "./demo_outputs.ts";
import { latexLayout, type Table, toLatex } from "../lib/table/table.ts";
import { formatEstimate, formatP, formatWithInterval } from "../lib/table/format.ts";
import fc from "fast-check";
import { join } from "node:path";
import { gate, ROOT, tempDir } from "./import_gate.ts";

// Skipped on a developer machine without pdflatex (or without --allow-run=pdflatex), with a
// message; never in CI (tests/ci_tools.ts), where a missing TeX Live fails the run.
const ignored = ignoreWithout("pdflatex", "paper_latex_test");
const available = !ignored && (IN_CI || pdflatexAvailable());
if (!ignored && !available) {
  warnSkip(
    "paper_latex_test: skipped, pdflatex not found (install with `apt-get install -y " +
      "texlive-latex-base texlive-latex-recommended texlive-latex-extra`)",
  );
}

for (const layout of ["article", "twocolumn"] as const) {
  Deno.test({
    name: `latex: every demo table compiles in a ${layout} page with no overfull box`,
    ignore: !available,
    async fn() {
      const out = await demoOutputs();
      const files = await filesUnder(out, ".tex");
      // analyze (gate A, online), heldout, plan-power, compare, study, reward.
      ok(files.length >= 12, `expected the demo's .tex files, found ${files.length}`);
      const { perFile, exitCode, log } = await compileTables(files, layout);
      deepEqual(exitCode, 0, log.slice(-2000));
      deepEqual(
        perFile.filter((f) => f.problems.length > 0).map((f) => `${f.file}: ${f.problems}`),
        [],
      );
    },
  });
}

Deno.test({
  name: "latex: data-derived strings print as text (specials, control sequences, a leading [)",
  ignore: !available,
  async fn() {
    const dir = await Deno.makeTempDir();
    const nasty = [
      "\\errmessage{executed}",
      "a_b % c & d # e $ f { g } h ~ i ^ j",
      "[0.1, 0.2] not a bracket argument",
      "<b>|x|</b> 中",
    ];
    const tex = toLatex({
      caption: "Escapes \\input{x}",
      label: "tab:esc_1",
      columns: [{ label: "id" }, { label: "value", align: "right" }],
      rows: nasty.map((id, i) => [id, (-0.5 * i).toFixed(3)]),
      notes: ["note with \\def\\x{} and 50% & $"],
    });
    ok(tex.includes("{}[0.1, 0.2]"), "a cell starting with [ is protected");
    await Deno.writeTextFile(`${dir}/t.tex`, tex);
    const { perFile, exitCode, log } = await compileTables([`${dir}/t.tex`], "article");
    deepEqual(exitCode, 0, log.slice(-2000));
    deepEqual(perFile[0]!.problems, []);
    ok(!log.includes("executed"), "a control sequence from the data ran");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "latex: random tables with hostile text fit where the layout says they fit (property, both layouts)",
  ignore: !available,
  async fn() {
    const glyph = fc.constantFrom(
      ..."abcmwxyzABMWQ0123456789 -_.,/\\&%$#{}~^<>|[]()'\"`!?=+*@中é—×".split(""),
    );
    const text = fc.array(glyph, { minLength: 1, maxLength: 16 }).map((cs) => cs.join(""));
    const number = fc.double({ min: -9.9999, max: 9.9999, noNaN: true });
    const cell = fc.oneof(
      text,
      number.map(formatEstimate),
      fc.tuple(number, number, number).map(([e, a, b]) =>
        formatWithInterval(e, [Math.min(a, b), Math.max(a, b)])
      ),
      fc.double({ min: 0, max: 1, noNaN: true }).map(formatP),
    );
    const table = fc.integer({ min: 1, max: 6 }).chain((k) =>
      fc.record({
        caption: text,
        columns: fc.array(
          fc.record({ label: text, align: fc.constantFrom("left", "right", "center") }),
          { minLength: k, maxLength: k },
        ),
        rows: fc.array(fc.array(cell, { minLength: k, maxLength: k }), {
          minLength: 1,
          maxLength: 4,
        }),
        notes: fc.array(text, { maxLength: 2 }),
      })
    );
    const tables = fc.sample(table, { numRuns: 60, seed: 20261130 })
      .filter((t) => latexLayout(t as Table).fits);
    ok(tables.length >= 30, `only ${tables.length} tables fit`);
    const dir = await Deno.makeTempDir();
    const files = await Promise.all(tables.map(async (t, i) => {
      const file = `${dir}/t${i}.tex`;
      await Deno.writeTextFile(file, toLatex(t as Table));
      return file;
    }));
    for (const layout of ["article", "twocolumn"] as const) {
      const { perFile, exitCode, log } = await compileTables(files, layout);
      deepEqual(exitCode, 0, log.slice(-2000));
      deepEqual(
        perFile.filter((f) => f.problems.length > 0).map((f) =>
          `${layout} ${Deno.readTextFileSync(f.file).split("\n")[0]}: ${f.problems}`
        ),
        [],
      );
    }
    await Deno.remove(dir, { recursive: true });
  },
});

/** The fenced block of `lang` (`""` for a plain fence) under `heading` in docs/paper.md. */
function docsBlock(doc: string, heading: string, lang: string): string {
  const section = doc.split(`\n## ${heading}\n`)[1]?.split("\n## ")[0] ?? "";
  const block = new RegExp("\n```" + lang + "\n([\\s\\S]*?)\n```\n").exec(section)?.[1];
  ok(block !== undefined, `docs/paper.md, "${heading}": no \`\`\`${lang} block`);
  return block;
}

Deno.test({
  name:
    "latex: docs/paper.md's paper from two runs, as written (commands, acmart main.tex), compiles clean",
  ignore: !available || ignoreWithout("deno", "paper_latex_test (docs paper)"),
  async fn() {
    const doc = await Deno.readTextFile(join(ROOT, "docs", "paper.md"));
    const heading = "A paper from two runs";
    const commands = docsBlock(doc, heading, "").split("\n").map((line) => {
      ok(line.startsWith("$ deno task gate "), line);
      // From the repository's root: data/demo is the clone's.
      return line.slice("$ deno task gate ".length).split(" ")
        .map((a) => a.startsWith("data/demo/") ? join(ROOT, a) : a);
    });
    await using dir = await tempDir();
    for (const args of commands) {
      const ran = await gate(dir.path, args);
      deepEqual(ran.code, 0, `${args.join(" ")}: ${ran.stderr}`);
    }
    await Deno.mkdir(join(dir.path, "paper"));
    await Deno.writeTextFile(join(dir.path, "paper", "main.tex"), docsBlock(doc, heading, "latex"));
    for (let pass = 0; pass < 2; pass++) {
      await new Deno.Command("pdflatex", {
        args: ["-interaction=nonstopmode", "-no-shell-escape", "main.tex"],
        cwd: join(dir.path, "paper"),
        stdout: "null",
        stderr: "null",
      }).output();
    }
    const log = await Deno.readTextFile(join(dir.path, "paper", "main.log"));
    deepEqual(
      log.split("\n").filter((line) =>
        /^Overfull \\[hv]box|^! |LaTeX Error|multiply defined|undefined|Float too large/.test(line)
      ),
      [],
    );
    // Every float of every file it inputs was typeset (none dropped at the end of the document).
    const aux = await Deno.readTextFile(join(dir.path, "paper", "main.aux"));
    const inputs = [...docsBlock(doc, heading, "latex").matchAll(/\\input\{\.\.\/([^}]+)\}/g)];
    ok(inputs.length >= 8);
    for (const [, file] of inputs) {
      const tex = await Deno.readTextFile(join(dir.path, `${file}.tex`));
      for (const [, label] of tex.matchAll(/\\label\{([^}]+)\}/g)) {
        ok(aux.includes(`\\newlabel{${label}}`), `${file}: ${label} not typeset`);
      }
    }
    // The report's two forest plots name their runs.
    ok(/\\caption\{Report: coefficients per metric, Gate Online C\./.test(
      await Deno.readTextFile(join(dir.path, "out", "report", "figures", "forest-2.tex")),
    ));
  },
});
