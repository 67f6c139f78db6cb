/**
 * `deno task gate report <output_dir>... --out <dir>`: one
 * self-contained `report.html` (tables and inline SVG, no script, no
 * network) from the output directories of `gate analyze`, `gate heldout`,
 * `gate study`, `gate compare` and/or `gate plan-power` (each command has
 * its own directory; several are combined), plus
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
import { inputDir, outputDir } from "./paths.ts";
import type { Issue } from "../core/issue.ts";
import type { AnalysisOutputs } from "../html/read_analysis_dir.ts";
import { join } from "node:path";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { generatorMeta } from "../core/meta.ts";
import { readAnalysisDir } from "../html/read_analysis_dir.ts";
import { renderReport } from "../html/report.ts";
import { figureFiles } from "../figures/figure_files.ts";

const HELP = `usage: deno task gate report <output_dir>... --out <dir> [--title TEXT]

Writes <dir>/report.html: a self-contained HTML report (tables, inline SVG
figures, no script, no network) of the contributions.json, selection.json,
heldout.json, study.json, comparison.json (gate compare) and power.json
(gate plan-power) found in the given output directories (each file at most
once). Also writes <dir>/figures/<name>.svg and <dir>/report.json (inputs
with sha256, figure list, generator).

  --out <dir>     output directory (required; not one of the inputs)
  --title <text>  page title (default "gatelab report")
  --quiet         print only the summary line (all report prints)`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "report",
    help: HELP,
    options: { out: { type: "string" }, title: { type: "string" } },
    positionals: { min: 1, what: "output directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const sources = positionals.map((path) => ({ label: "output directory", path }));
  for (const s of sources) await inputDir(s, "an output directory of a gatelab command");
  await outputDir({ label: "--out", path: values.out }, sources);

  const read = await readOutputDirs(positionals);
  if (!read.ok) {
    const inputs = positionals.map((dir) => ({ dir, kind: "analysis_output" }));
    return await refuse(values.out, validationDocument(read.issues, command, inputs), values);
  }
  const dir = positionals[0]!;

  const { html, figures } = renderReport(read.value, {
    command,
    ...(values.title !== undefined ? { title: values.title } : {}),
  });
  const files: Record<string, string | Uint8Array> = {
    "report.html": html,
    "report.json": toJsonText({
      format: "gatelab.report/v1",
      source_dir: dir,
      ...(positionals.length > 1 ? { source_dirs: positionals } : {}),
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

const KINDS = ["contributions", "selection", "study", "heldout", "comparison", "power"] as const;

/**
 * Reads every directory and combines what they hold; each kind of file may
 * come from one directory only. With several directories the inputs are
 * keyed `<dir>/<file>`, so the report names where each file came from.
 */
async function readOutputDirs(
  dirs: readonly string[],
): Promise<{ ok: true; value: AnalysisOutputs } | { ok: false; issues: Issue[] }> {
  const reads = await Promise.all(dirs.map(readAnalysisDir));
  const issues = reads.flatMap((r) => r.ok ? [] : r.issues);
  if (issues.length > 0) return { ok: false, issues };
  const values = reads.map((r) => (r as { value: AnalysisOutputs }).value);
  if (values.length === 1) return { ok: true, value: values[0]! };
  const merged: Record<string, unknown> = { dir: dirs.join(", ") };
  for (const kind of KINDS) {
    const from = values.filter((v) => v[kind] !== null);
    if (from.length > 1) {
      issues.push({
        code: "io_error",
        file: join(from[1]!.dir, `${kind}.json`),
        message: `${kind}.json is also in ${from[0]!.dir}; give each kind of output once`,
      });
    }
    merged[kind] = from[0]?.[kind] ?? null;
  }
  if (issues.length > 0) return { ok: false, issues };
  const inputs: Record<string, string> = {};
  for (const v of values) {
    for (const [name, hash] of Object.entries(v.inputs)) inputs[join(v.dir, name)] = hash;
  }
  return { ok: true, value: { ...(merged as unknown as AnalysisOutputs), inputs } };
}
