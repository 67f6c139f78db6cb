/**
 * Every file `gate ladder` writes into `--out`, as bytes: pure apart from
 * the figure's PNG/PDF conversion, so a test reads them without I/O.
 *
 * @module
 */
import { type FileValue, toJsonText } from "../core/atomic_write.ts";
import type { ValidationDocument } from "../core/validation_document.ts";
import { figureFiles, type FigureFilesOptions } from "../figures/figure_files.ts";
import { type RunScope, scopeTables, tableFiles } from "../table/run_scope.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { ladderFigures } from "./figures.ts";
import type { LadderResultDocument } from "./document.ts";
import { ladderTidy } from "./ladder_tidy.ts";
import { ladderTables } from "./tables.ts";

/**
 * Options of {@linkcode ladderFiles}: validation.json and the figure
 * options (`png`, `pdf` and `onMissingConverter` as figureFiles takes them).
 */
export type LadderFilesOptions = Omit<FigureFilesOptions, "scope"> & {
  /** validation.json of the run, written beside its outputs. */
  readonly validation: ValidationDocument;
  /** The run's scope: table labels and captions, each figure's `.tex` float. */
  readonly scope: RunScope;
};

/**
 * The files of a ladder gate: validation.json, ladder_result.json,
 * ladder.md/.tex (the block table, scoped), the tidy `blocks.csv`/`.parquet`
 * and the e-value figure `ladder_<task_type>` (svg, png, pdf, tex).
 *
 * @param doc ladder_result.json.
 * @param options validation.json, scope and figure options.
 * @returns File name (inside `--out`) to contents, ready for `writeFilesAtomic`.
 *
 * @example
 * ```ts
 * import { ladderFiles } from "./files.ts";
 * import { validationDocument } from "../core/validation_document.ts";
 * import { deepEqual, ok } from "node:assert/strict";
 * const files = await ladderFiles({ format: "gatelab.ladder-result/v1", task_type: "counting", alpha: 0.05,
 *   threshold: 20, n_max: 64, block_size: 8, infra_max_rate: 0.25, prompts_version: "p", base_skill_sha256: "b",
 *   cand_skill_sha256: "c", exit: "accept", exit_block: 0, counts: { W: 5, L: 0, E: 2, INFRA: 1, units: 8 },
 *   blocks: [{ block: 0, W: 5, L: 0, E: 2, INFRA: 1, units: 8, e_accept: 21, e_reject: 0.1 }],
 *   blocks_after_exit: 0, recorded_decision: "accept", prefill: null, conventions: {}, inputs: [],
 *   generator: { tool: "gatelab", version: "0", command: "gate ladder l --out o" } }, {
 *   validation: validationDocument([], "gate ladder l --out o"), scope: { label: "lad", name: "Lad" },
 *   png: false, pdf: false });
 * deepEqual(Object.keys(files), ["validation.json", "ladder_result.json", "ladder.md", "ladder.tex",
 *   "blocks.csv", "blocks.parquet", "ladder_counting.svg", "ladder_counting.tex"]);
 * ok(String(files["ladder.md"]).includes("| 0 | 5 | 0 | 2 | 1 | 8 | 21.00 | 0.10 |"));
 * ```
 */
export async function ladderFiles(
  doc: LadderResultDocument,
  options: LadderFilesOptions,
): Promise<Record<string, FileValue>> {
  const { validation, ...figureOptions } = options;
  const tables = scopeTables(ladderTables(doc), options.scope);
  return {
    "validation.json": toJsonText(validation),
    "ladder_result.json": toJsonText(doc),
    ...tableFiles("ladder", tables),
    ...await tidyFiles([ladderTidy(doc.blocks)]),
    ...await figureFiles(ladderFigures(doc), figureOptions),
  };
}
