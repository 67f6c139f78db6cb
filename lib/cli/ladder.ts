/**
 * `deno task gate ladder <ladder_dir> --out <dir> [--prefill <baseline.jsonl>]`:
 * re-analyses an e-process ladder gate (docs/FORMAT.md, Extensions: ladder gates).
 *
 * Exit codes: 0 ok, 2 input issues or `decision_mismatch` (only
 * validation.json is written), 1 crash.
 *
 * @module
 */
import { join } from "node:path";
import { parseCommand } from "./args.ts";
import { toJsonText, writeFilesAtomic } from "../core/atomic_write.ts";
import { tidyFiles } from "../tidy/tidy_files.ts";
import { ladderTidy } from "../ladder/ladder_tidy.ts";
import { validationDocument } from "../core/validation_document.ts";
import { figureFiles } from "../figures/figure_files.ts";
import { type Table, toLatex, toMarkdown } from "../report/table.ts";
import { LABEL_PREFIX_HELP, LABEL_PREFIX_OPTION, labelScope } from "./label_prefix.ts";
import { scopeTables } from "../report/run_scope.ts";
import { readLadder } from "../ladder/read_ladder.ts";
import { ladderResult } from "../ladder/ladder_result.ts";
import { ladderTable } from "../ladder/tables.ts";
import { ladderFigure } from "../ladder/figures.ts";
import { refuse } from "./refuse.ts";

const HELP = `usage: deno task gate ladder <ladder_dir> --out <dir> [options]

Reads ladder.json and units.jsonl, pairs the base and candidate arms unit by
unit (W, L, E, INFRA; an AR pair folds by AND), evaluates the accept and
reject e-processes after every block and finds the exit (infra_abort, accept,
reject, budget_exhausted, checked in that order). Writes ladder_result.json,
ladder.md/.tex and the figure ladder_<task_type>. A decision recorded in
ladder.json that differs from the recomputed one is decision_mismatch (exit 2).

  --out <dir>          output directory (required)
  --prefill <file>     a baseline run of the base arm (units.jsonl with
                       task_type, unit_id, skill_sha256, prompts_version,
                       members): how many base-arm units a prefilled
                       content-addressed cache would have served
  --no-png             skip the PNG copy of the figure
${LABEL_PREFIX_HELP}
  --quiet              print only the summary`;

/** Runs the command; returns the exit code. */
export async function run(args: string[]): Promise<number> {
  const cli = parseCommand(args, {
    name: "ladder",
    help: HELP,
    options: {
      out: { type: "string" },
      prefill: { type: "string" },
      "no-png": { type: "boolean" },
      quiet: { type: "boolean" },
      ...LABEL_PREFIX_OPTION,
    },
    positionals: { min: 1, max: 1, what: "ladder directory" },
    required: { out: "<dir>" },
  });
  if (cli === null) return 0;
  const { values, positionals, command } = cli;
  const out = values.out;
  const scope = labelScope(out, values["label-prefix"]);
  const dir = positionals[0]!;
  const quiet = { quiet: values.quiet };
  const read = await readLadder(dir, values.prefill);
  if (read.issues.length > 0 || read.spec === null) {
    return await refuse(out, validationDocument(read.issues, command, read.inputs), quiet);
  }
  const { document, issues } = ladderResult(read.spec, read.units, {
    baseline: read.baseline,
    unitsFile: join(dir, "units.jsonl"),
    specFile: join(dir, "ladder.json"),
    inputs: read.inputs,
    command,
  });
  if (issues.length > 0 || document === null) {
    return await refuse(out, validationDocument(issues, command, read.inputs), quiet);
  }
  const [table] = scopeTables([ladderTable(document)], scope) as [Table];
  await writeFilesAtomic(out, {
    "validation.json": toJsonText(validationDocument([], command, read.inputs)),
    "ladder_result.json": toJsonText(document),
    "ladder.md": toMarkdown(table),
    "ladder.tex": toLatex(table),
    ...await tidyFiles([ladderTidy(document.blocks)]),
    ...await figureFiles([ladderFigure(document)], {
      png: values["no-png"] !== true,
      scope,
      onMissingConverter: (line) => console.error(line),
    }),
  });
  const c = document.counts;
  const last = document.blocks[document.blocks.length - 1];
  if (!values.quiet && document.prefill) {
    const p = document.prefill;
    console.log(
      `  prefill: ${p.served}/${p.base_units} base-arm units served, ${p.saved} inferences saved`,
    );
  }
  console.log(
    `ok: ${document.task_type} exit ${document.exit ?? "none"}${
      document.exit_block === null ? "" : ` at block ${document.exit_block}`
    } (W ${c.W}, L ${c.L}, E ${c.E}, INFRA ${c.INFRA}; E accept ${
      last?.e_accept.toFixed(2)
    }, E reject ${last?.e_reject.toFixed(2)}); wrote ${out}/`,
  );
  return 0;
}
