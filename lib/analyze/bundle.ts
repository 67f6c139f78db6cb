/**
 * The bundle of a gate analysis: contributions.json (with its task rows)
 * and selection.json read back, their tables and figures, the files of
 * `gate analyze` and the report section.
 *
 * @module
 */
import { type Bundle, type BundleFile, readBundleFile } from "../table/bundle.ts";
import type { Issue } from "../core/issue.ts";
import {
  ContributionsSchema,
  contributionsTaskRows,
  SelectionSchema,
} from "../contract/outputs/mod.ts";
import type { Analysis } from "./analyze.ts";
import { analysisFiles, type AnalysisFilesOptions } from "./files.ts";
import { analysisTablesShown } from "./tables.ts";
import { ANALYSIS_TIDY_TABLES } from "./analyze_tidy.ts";
import { analysisFigures } from "./figures.ts";
import { analysisSection, type AnalysisSectionInput } from "./section.ts";

/**
 * A gate analysis as a bundle. Its document is the pair of parsed files
 * (either may be missing); `tables` is the tables its report section
 * shows (`analysisTablesShown`, which the section places its figures
 * around), `files` writes what `gate analyze` writes from the analysis
 * itself (`analysisFiles`: the document is made from it).
 *
 * @example
 * ```ts
 * import { analysisBundle } from "./bundle.ts";
 * import { deepEqual } from "node:assert/strict";
 * deepEqual([analysisBundle.file, analysisBundle.kind], ["contributions.json", ["gate", "pooled"]]);
 * deepEqual(analysisBundle.tables({ contributions: null, selection: null }), []);
 * ```
 */
export const analysisBundle: Bundle<
  AnalysisSectionInput,
  AnalysisFilesOptions & { readonly analysis: Analysis }
> = {
  stage: "analyze",
  file: "contributions.json",
  schema: ContributionsSchema,
  kind: ["gate", "pooled"],
  commands: ["analyze"],
  tidy: ANALYSIS_TIDY_TABLES,
  async read(dir) {
    const files: BundleFile[] = [], issues: Issue[] = [];
    const read = await readBundleFile(dir, "contributions.json", ContributionsSchema);
    files.push(...read.files);
    issues.push(...read.issues);
    // The per-task rows (the delta figure): its own (an older gatelab) or its tasks table's,
    // checked against the sha256 it recorded.
    const rows = read.doc === null ? null : await contributionsTaskRows(read.doc, dir);
    if (rows !== null && !rows.ok) issues.push(rows.issue);
    const contributions = read.doc === null || rows === null || !rows.ok
      ? read.doc
      : { ...read.doc, tasks: rows.rows };
    const selection = await readBundleFile(dir, "selection.json", SelectionSchema);
    files.push(...selection.files);
    issues.push(...selection.issues);
    const doc = contributions === null && selection.doc === null
      ? null
      : { contributions, selection: selection.doc };
    return { doc, files, issues };
  },
  tables: (doc) => analysisTablesShown(doc).map((t) => t.table),
  figures: ({ contributions, selection }) =>
    contributions ? analysisFigures({ contributions, selection }) : [],
  files: (_doc, { analysis, ...options }) => analysisFiles(analysis, options),
  section: analysisSection,
};
