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
import { parseCommand } from "./args.ts";
import { inputDir, outputDir } from "./paths.ts";
import { type AnalysisOutputs, readAnalysisDir } from "../report/read_analysis_dir.ts";
import { reportFiles } from "../report/report_files.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import type { Issue } from "../core/issue.ts";
import { chromiumStatus } from "../report/print_pdf.ts";
import { finish } from "./finish.ts";
import { printError } from "../core/terminal_text.ts";

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
      printError(`report: cannot print report.pdf: ${status}; nothing written`);
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
  return await finish({
    out: values.out,
    command,
    quiet: values.quiet,
    issues,
    inputs: dirs.map((dir) => ({ dir, kind: "analysis_output" })),
    result: async () => {
      const { files, sections, figures } = await reportFiles(dirs, outputs, {
        command,
        title: values.title,
        scope,
        pdf: values.pdf,
        onMissingConverter: (line) => printError(line),
      });
      const n = dirs.length;
      return {
        files,
        summary: [
          `wrote ${values.out}/report.html (${sections} sections, ${figures} figures, ${n} input director${
            n === 1 ? "y" : "ies"
          })${values.pdf ? " and report.pdf" : ""}`,
        ],
      };
    },
  });
}
