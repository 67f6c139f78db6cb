/**
 * `deno task gate report <dir>... --out <dir>`: one self-contained
 * `report.html` (tables and inline SVG, no script, no network) from the
 * outputs of any mix of `gate analyze` (single gates and pooled rounds),
 * `gate heldout`, `gate plan-power`, `gate compare`, `gate study`,
 * `gate reward`, `gate history`, `gate sequential`, `gate ladder`,
 * `gate ledger-audit` and `gate firewall` (their findings), sections in paper order with a table of contents and the
 * provenance of each; plus each figure as `figures/<name>.svg` and a
 * `report.json` listing inputs and figures. With `--pdf`, also
 * `report.pdf`, printed by headless Chromium. All files are written in one
 * atomic step.
 *
 * Exit codes: 0 written, 2 unreadable or invalid inputs (validation.json
 * written to --out) or `--pdf` without Chromium (nothing written), 1 crash.
 *
 * @module
 */
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { parseCommand } from "./args.ts";
import { inputDir, outputDir } from "./paths.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { generatorMeta } from "../core/meta.ts";
import { type AnalysisOutputs, readAnalysisDir } from "../html/read_analysis_dir.ts";
import { renderReport } from "../html/report.ts";
import { figureFiles } from "../figures/figure_files.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import type { Issue } from "../core/issue.ts";
import { chromiumStatus, printToPdf } from "../html/print_pdf.ts";

const HELP = `usage: deno task gate report <dir>... --out <dir> [--title TEXT] [--pdf]

Writes <dir>/report.html: one self-contained HTML report (tables, inline SVG
figures, no script, no network) of every output directory given, in the
order a paper reads: gate analyses, pooled rounds, sequential re-analyses,
history, held-out checks, power plan, Gate B, ladder gates, study, reward
recipes, audits. It reads contributions.json and selection.json (gate analyze),
sequential.json (sequential), history.json, heldout.json, power.json
(plan-power), comparison.json (compare), ladder_result.json (ladder),
study.json, recipe_comparison.json (reward) and the validation.json of
ledger-audit and firewall (their findings). Each section lists its inputs' sha256,
generator, seed and draws. Also writes <dir>/figures/<name>.svg, and with
rsvg-convert .png and the vector .pdf a paper includes, each with a
<name>.tex float (caption, label); and <dir>/report.json.

  --out <dir>     output directory (required; not one of the inputs)
  --title <text>  page title (default "gatelab report")
  --pdf           also print report.pdf with headless Chromium; needs the
                  chromium program and permission to run it
                  (deno task report-pdf ... grants it; deno task gate does not)
${LABEL_PREFIX_HELP}
  --quiet         print only the summary line (all report prints)`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "report",
    help: HELP,
    options: {
      out: { type: "string" },
      title: { type: "string" },
      pdf: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, what: "output directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals: dirs, command } = cli;
  const scope = labelScope(values.out, values["label-prefix"]);
  const sources = dirs.map((path) => ({ label: "output directory", path }));
  for (const s of sources) await inputDir(s, "an output directory of a gatelab command");
  await outputDir({ label: "--out", path: values.out }, sources);

  if (values.pdf) {
    const status = chromiumStatus();
    if (status !== "ok") {
      console.error(`report: cannot print report.pdf: ${status}; nothing written`);
      return 2;
    }
  }

  const outputs: AnalysisOutputs[] = [];
  const issues: Issue[] = [];
  for (const dir of dirs) {
    const read = await readAnalysisDir(dir);
    if (read.ok) outputs.push(read.value);
    else issues.push(...read.issues);
  }
  if (issues.length > 0) {
    const inputs = dirs.map((dir) => ({ dir, kind: "analysis_output" }));
    return await refuse(values.out, validationDocument(issues, command, inputs), values);
  }

  const { html, figures, sections } = renderReport(outputs, {
    command,
    ...(values.title !== undefined ? { title: values.title } : {}),
  });
  // One directory keeps the flat `inputs` map of earlier reports; several are listed per source.
  const files: Record<string, string | Uint8Array> = {
    "report.html": html,
    "report.json": toJsonText({
      format: "gatelab.report/v1",
      source_dir: dirs.length === 1 ? dirs[0] : null,
      ...(dirs.length > 1 ? { source_dirs: dirs } : {}),
      inputs: dirs.length === 1 ? outputs[0]!.inputs : undefined,
      sources: outputs.map((s) => ({ dir: s.dir, inputs: s.inputs, provenance: s.provenance })),
      sections: sections.map((s) => ({ kind: s.kind, heading: s.heading, dir: s.dir })),
      figures: figures.map((f) => ({
        name: f.name,
        title: f.title,
        file: `figures/${f.name}.svg`,
      })),
      generator: generatorMeta(command),
    }),
  };
  for (
    const [name, contents] of Object.entries(
      await figureFiles(figures, {
        scope,
        onMissingConverter: (line) => console.error(line),
      }),
    )
  ) {
    files[`figures/${name}`] = contents;
  }
  if (values.pdf) files["report.pdf"] = await printToPdf(html);
  await writeFilesAtomic(values.out, files);
  console.log(
    `wrote ${values.out}/report.html (${sections.length} sections, ${figures.length} figures, ${dirs.length} input director${
      dirs.length === 1 ? "y" : "ies"
    })${values.pdf ? " and report.pdf" : ""}`,
  );
  return 0;
}
