/**
 * The files `gate report` writes into `--out`: report.html, report.json,
 * every figure under figures/ and, when asked, report.pdf.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import { generatorMeta } from "../core/meta.ts";
import { figureFiles } from "../figures/figure_files.ts";
import type { RunScope } from "../table/run_scope.ts";
import { printToPdf } from "./print_pdf.ts";
import type { AnalysisOutputs } from "./read_analysis_dir.ts";
import { renderReport } from "./report.ts";

/** Options of {@linkcode reportFiles}. */
export interface ReportFilesOptions {
  /** The command line report.html and report.json record. */
  readonly command: string;
  /** Page title (default "gatelab report"). */
  readonly title?: string | undefined;
  /** Caption and label scope of the figures' `.tex` floats. */
  readonly scope: RunScope;
  /** Also print report.pdf with headless Chromium (needs permission to run it). */
  readonly pdf?: boolean | undefined;
  /** Called once with one line when `rsvg-convert` cannot be run (no PNG or PDF figures). */
  readonly onMissingConverter?: (line: string) => void;
}

/** What {@linkcode reportFiles} made: the files, and the counts its summary line names. */
export interface ReportFiles {
  /** File name (inside `--out`) to contents. */
  readonly files: Record<string, FileValue>;
  /** Sections of report.html. */
  readonly sections: number;
  /** Figures of report.html (each also under figures/). */
  readonly figures: number;
}

/**
 * The bytes of every file of a report over `outputs` (read from the
 * directories `dirs`, in that order): `report.html`, `report.json` (inputs,
 * sections and figures; one directory keeps the flat `inputs` map of
 * earlier reports, several are listed per source), `figures/<name>.svg`
 * (with .png, .pdf and .tex where `rsvg-convert` runs) and, with `pdf`,
 * `report.pdf`. Nothing is written.
 *
 * @param dirs The output directories as given.
 * @param outputs What `readAnalysisDir` read from each.
 * @param options Command, title, figure scope, PDF.
 * @returns The files and the number of sections and figures.
 *
 * @example
 * ```ts
 * import { reportFiles } from "./report_files.ts";
 * import { deepEqual } from "node:assert/strict";
 * const outputs = { dir: "out", contributions: null, selection: null, heldout: null, comparison: null, power: null,
 *   audit: { format: "gatelab.validation/v1" as const, ok: true, issues: [], counts: {}, inputs: [],
 *     generator: { tool: "gatelab", version: "0", command: "gate firewall --out out" } },
 *   study: null, inputs: { "validation.json": "ab" } };
 * const { files, sections, figures } = await reportFiles(["out"], [outputs],
 *   { command: "gate report out --out r", scope: { label: "r", name: "R" } });
 * deepEqual([Object.keys(files), sections, figures], [["report.html", "report.json"], 1, 0]);
 * ```
 */
export async function reportFiles(
  dirs: readonly string[],
  outputs: readonly AnalysisOutputs[],
  options: ReportFilesOptions,
): Promise<ReportFiles> {
  const { command } = options;
  const { html, figures, sections } = renderReport(outputs, {
    command,
    ...(options.title !== undefined ? { title: options.title } : {}),
  });
  const files: Record<string, FileValue> = {
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
  const figureOptions = {
    scope: options.scope,
    ...(options.onMissingConverter ? { onMissingConverter: options.onMissingConverter } : {}),
  };
  for (const [name, contents] of Object.entries(await figureFiles(figures, figureOptions))) {
    files[`figures/${name}`] = contents;
  }
  if (options.pdf) files["report.pdf"] = await printToPdf(html);
  return { files, sections: sections.length, figures: figures.length };
}
