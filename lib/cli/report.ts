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
import { REPORT } from "./commands.ts";
import type { CommandContext } from "./option_decl.ts";
import { inputDir, outputDir } from "./paths.ts";
import { type AnalysisOutputs, readAnalysisDir } from "../report/read_analysis_dir.ts";
import { reportFiles } from "../report/report_files.ts";
import { labelScope } from "./label_prefix.ts";
import type { Issue } from "../core/issue.ts";
import { chromiumStatus } from "../report/print_pdf.ts";
import { finish } from "./finish.ts";
import { printError } from "../core/terminal_text.ts";

/** Runs the command; returns the exit code. */
export async function run(args: string[], context?: CommandContext): Promise<number> {
  const cli = parseCommand(args, REPORT, context);
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
