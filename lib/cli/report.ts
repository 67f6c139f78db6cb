/**
 * `deno task gate report <analysis_out_dir> --out <dir>`: one
 * self-contained `report.html` (tables and inline SVG, no script, no
 * network) from the outputs of `gate analyze`, `gate heldout`, `gate study`,
 * `gate compare` and/or `gate plan-power`, plus
 * each figure as `figures/<name>.svg` and a `report.json` listing inputs and
 * figures. All files are written in one atomic step.
 *
 * Exit codes: 0 written, 2 unreadable or invalid inputs (validation.json
 * written to --out), 1 crash.
 *
 * @module
 */
import { validationDocument } from "../core/validation_document.ts";
import { refuse } from "./refuse.ts";
import { parseCommand } from "./args.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { generatorMeta } from "../core/meta.ts";
import { readAnalysisDir } from "../html/read_analysis_dir.ts";
import { renderReport } from "../html/report.ts";
import { figureFiles } from "../figures/figure_files.ts";

const HELP = `usage: deno task gate report <analysis_out_dir> --out <dir> [--title TEXT]

Writes <dir>/report.html: a self-contained HTML report (tables, inline SVG
figures, no script, no network) of the contributions.json, selection.json,
heldout.json, study.json, comparison.json (gate compare) and power.json
(gate plan-power) found in <analysis_out_dir>. Also
writes <dir>/figures/<name>.svg and <dir>/report.json (inputs with sha256,
figure list, generator).

  --out <dir>     output directory (required)
  --title <text>  page title (default "gatelab report")`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "report",
    help: HELP,
    options: { out: { type: "string" }, title: { type: "string" } },
    positionals: { min: 1, max: 1, what: "analysis output directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const [dir] = positionals as [string];

  const read = await readAnalysisDir(dir);
  if (!read.ok) {
    const inputs = [{ dir, kind: "analysis_output" }];
    return await refuse(values.out, validationDocument(read.issues, command, inputs));
  }

  const { html, figures } = renderReport(read.value, {
    command,
    ...(values.title !== undefined ? { title: values.title } : {}),
  });
  const files: Record<string, string | Uint8Array> = {
    "report.html": html,
    "report.json": toJsonText({
      format: "gatelab.report/v1",
      source_dir: dir,
      inputs: read.value.inputs,
      figures: figures.map((f) => ({
        name: f.name,
        title: f.title,
        file: `figures/${f.name}.svg`,
      })),
      generator: generatorMeta(command),
    }),
  };
  for (const [name, contents] of Object.entries(await figureFiles(figures))) {
    files[`figures/${name}`] = contents;
  }
  await writeFilesAtomic(values.out, files);
  console.log(
    `wrote ${values.out}/report.html (${figures.length} figures, ${
      Object.keys(read.value.inputs).length
    } inputs)`,
  );
  return 0;
}
